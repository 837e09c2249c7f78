/** The session pool figures a Node client exposes on its Database object, by the pool's own getter names. */
const GETTERS = { borrowed: 'borrowed', available: 'available', size: 'size', pending_creates: 'totalPending' } as const;

type Pool = Record<string, unknown> & { _acquires?: { size?: unknown; pending?: unknown } };

/**
 * Reads `database.pool_` (a SessionPool in 7.x-9.x) at the end of each second; undefined where the
 * version has no such pool. `borrowed` counts sessions being created for a caller too, as the pool does.
 * `waiting`: callers waiting for a session. The pool lets one at a time wait inside (its `totalWaiters`)
 * and queues the rest in `_acquires`, a p-queue of concurrency 1: its queued plus running entries.
 */
export function poolSampler(database: unknown): (() => Record<string, number>) | undefined {
  const pool = (database as { pool_?: Pool } | undefined)?.pool_;
  if (!pool || !Object.values(GETTERS).every((g) => typeof pool[g] === 'number')) return undefined;
  const q = pool._acquires;
  const waiting = typeof q?.size === 'number' && typeof q.pending === 'number' ? () => (q.size as number) + (q.pending as number) : () => pool.totalWaiters as number;
  return () => ({ ...Object.fromEntries(Object.entries(GETTERS).map(([name, g]) => [name, pool[g] as number])), waiting: waiting() });
}
