import { operationRunning, SQL } from '@scb/shared/catalogue';
import type { Column, Mutation, Row, Store, Value } from './store';

export type StatementOutcome =
  | { kind: 'rows'; columns: Column[]; rows: Row[] }
  /** DML: rows it affects, and the mutations it stands for (applied at commit). */
  | { kind: 'dml'; rowCount: number; mutations: Mutation[] };
// DML that writes PENDING_COMMIT_TIMESTAMP() stores the placeholder; Commit fills in its own time.

export type StatementHandler = (params: Record<string, Value>, store: Store) => StatementOutcome;

/**
 * Known statements by SQL text (MockSpannerServiceImpl style): a fixed result or a handler over
 * the store. Anything else is answered with INVALID_ARGUMENT naming the statement.
 */
export class StatementRegistry {
  private readonly handlers = new Map<string, StatementHandler>();
  private readonly fixed = new WeakSet<StatementHandler>();
  private readonly operations = new Map<string, string>();

  /** A statement with a fixed result. */
  putResult(sql: string, columns: Column[], rows: Row[], operation?: string): void {
    const handler: StatementHandler = () => ({ kind: 'rows', columns, rows });
    this.fixed.add(handler);
    this.put(sql, handler, operation);
  }

  /** Whether the handler always answers the same rows (so its encoded reply can be reused). */
  isFixed(handler: StatementHandler): boolean {
    return this.fixed.has(handler);
  }

  /** `operation`: the benchmark operation (spec OPERATIONS) that sends it, for the server's time per operation. */
  put(sql: string, handler: StatementHandler, operation?: string): void {
    this.handlers.set(normalize(sql), handler);
    if (operation) this.operations.set(normalize(sql), operation);
  }

  /** The benchmark operation a statement belongs to, if it is one of theirs. */
  operationOf(sql: string): string | undefined {
    return this.operations.get(normalize(sql));
  }

  get(sql: string): StatementHandler | undefined {
    return this.handlers.get(normalize(sql));
  }
}

function normalize(sql: string): string {
  return sql.trim().replace(/\s+/g, ' ').replace(/;$/, '');
}

function need(params: Record<string, Value>, name: string): Value {
  if (!(name in params)) throw new StatementParamError(`missing query parameter @${name}`);
  return params[name];
}

export class StatementParamError extends Error {}

/** `SELECT 1` and the leaderboard statements the scenarios use. */
export function defaultStatements(): StatementRegistry {
  const r = new StatementRegistry();
  r.putResult(SQL.select1, [{ name: '', type: 'INT64' }], [['1']], operationRunning('select1'));
  // readOnlyTxn's leaderboard query: a player joined with their ten best scores.
  r.put(
    SQL.leaderboard,
    (p, store) => {
      const id = String(need(p, 'Id'));
      const player = store.read('Players', ['PlayerId', 'PlayerName'], [[id]]);
      const scores = player.rows.length ? store.readByFirstKey('Scores', ['PlayerId', 'Timestamp', 'Score'], id) : { columns: [], rows: [] };
      const best = [...scores.rows].sort((a, b) => Number(b[2]) - Number(a[2])).slice(0, 10);
      return { kind: 'rows', columns: [...player.columns, ...store.table('Scores').columns], rows: player.rows.length ? best.map((s) => [...player.rows[0]!, ...s]) : [] };
    },
    operationRunning('leaderboard'),
  );
  r.put(
    SQL.player,
    (p, store) => ({
      kind: 'rows',
      ...store.read('Players', ['PlayerId', 'PlayerName'], [[String(need(p, 'playerId'))]]),
    }),
    operationRunning('player'),
  );
  r.put(
    SQL.insertScore,
    (p) => ({
      kind: 'dml',
      rowCount: 1,
      mutations: [{ op: 'insert', table: 'Scores', columns: ['PlayerId', 'Timestamp', 'Score'], values: [[String(need(p, 'playerId')), 'spanner.commit_timestamp()', String(need(p, 'score'))]] }],
    }),
    operationRunning('insertScore'),
  );
  r.put('UPDATE Players SET PlayerName = @playerName WHERE PlayerId = @playerId', (p, store) => {
    const id = String(need(p, 'playerId'));
    const exists = store.read('Players', ['PlayerId'], [[id]]).rows.length;
    return {
      kind: 'dml',
      rowCount: exists,
      mutations: exists ? [{ op: 'update', table: 'Players', columns: ['PlayerId', 'PlayerName'], values: [[id, need(p, 'playerName')]] }] : [],
    };
  });
  return r;
}
