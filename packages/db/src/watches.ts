// Release watches: stored with the gates that judge their releases; a watch made with `since` gets the
// gates of every release from there at once (its backfill).
import { compareSemver, parseWatchSpec, releasePairs, watchGateSpec, watchScenarioId, type ReleasePair, type WatchSpec } from '@scb/shared';
import type { Db } from './client';
import type { Prisma } from '../generated/prisma/client';
import { createGate } from './gates';
import { isStoredId, newJobId } from './jobs';

/** At most this many gates at once from one watch's backfill: a `since` long ago is refused, not queued for days. */
export const MAX_WATCH_BACKFILL_GATES = 40;

export class WatchBackfillTooLarge extends Error {}

/**
 * Stores a watch and queues its backfill: a gate per release from `since` (to `until`) and scenario,
 * each against the release's predecessor among `listed` (the registry's versions). Without `since`,
 * the newest version listed now is where the watch starts.
 */
export async function createWatch(
  db: Db,
  databaseUrl: string,
  spec: WatchSpec,
  listed: readonly string[],
  { createdBy = null }: { createdBy?: string | null } = {},
): Promise<{ id: string; releases: ReleasePair[]; gates: number }> {
  const releases = spec.since ? releasePairs(listed, spec) : [];
  const gates = releases.length * spec.scenarios.length;
  if (gates > MAX_WATCH_BACKFILL_GATES) {
    throw new WatchBackfillTooLarge(
      `since ${spec.since}${spec.until ? ` until ${spec.until}` : ''} gates ${releases.length} releases on ${spec.scenarios.length} scenarios: ${gates} gates, more than ${MAX_WATCH_BACKFILL_GATES} at once; set a later since or an until`,
    );
  }
  const id = newJobId();
  const startAfter = spec.since ? null : ([...listed].sort(compareSemver).at(-1) ?? null);
  await db.watch.create({ data: { id, spec: spec as unknown as Prisma.InputJsonObject, createdBy, startAfter } });
  for (const release of releases)
    for (const scenario of spec.scenarios) await createGate(db, databaseUrl, watchGateSpec(spec, scenario, release), { createdBy, watch: { id, version: release.version } });
  return { id, releases, gates };
}

/** One release of a watch with the gates that judge it, one per scenario. */
export interface WatchRelease {
  version: string;
  predecessor: string;
  gates: { scenario: string; gateId: string; status: string; verdict: string | null }[];
}

export interface StoredWatch {
  id: string;
  createdAt: Date;
  createdBy: string | null;
  spec: WatchSpec;
  startAfter: string | null;
  /** Newest first. */
  releases: WatchRelease[];
}

/** A watch with its releases, newest first; null when there is none or its stored spec does not parse. */
export async function getWatch(db: Db, id: string): Promise<StoredWatch | null> {
  if (!isStoredId(id)) return null;
  const w = await db.watch.findUnique({ where: { id }, include: { gates: { include: { job: { select: { status: true } } }, orderBy: { createdAt: 'asc' } } } });
  if (!w) return null;
  const spec = parseWatchSpec(w.spec);
  if (!spec.ok) return null;
  const byVersion = new Map<string, WatchRelease>();
  for (const g of w.gates) {
    const gate = g.spec as { scenario?: string; baseline?: string };
    const version = g.watchVersion ?? '';
    let r = byVersion.get(version);
    if (!r) byVersion.set(version, (r = { version, predecessor: String(gate.baseline ?? ''), gates: [] }));
    r.gates.push({ scenario: String(gate.scenario ?? ''), gateId: g.id, status: g.job.status, verdict: g.verdict });
  }
  // Each scenario's chips in the watch's order.
  const order = spec.value.scenarios.map(watchScenarioId);
  for (const r of byVersion.values()) r.gates.sort((a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario));
  return {
    id: w.id,
    createdAt: w.createdAt,
    createdBy: w.createdBy,
    spec: spec.value,
    startAfter: w.startAfter,
    releases: [...byVersion.values()].sort((a, b) => compareSemver(b.version, a.version)),
  };
}

/** Watches, newest first. */
export async function listWatches(db: Db, page: { limit?: number; offset?: number } = {}): Promise<{ id: string; createdAt: Date; createdBy: string | null; spec: unknown; gates: number }[]> {
  const ws = await db.watch.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: page.limit ?? 100, skip: page.offset ?? 0, include: { _count: { select: { gates: true } } } });
  return ws.map((w) => ({ id: w.id, createdAt: w.createdAt, createdBy: w.createdBy, spec: w.spec, gates: w._count.gates }));
}
