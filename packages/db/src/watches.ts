// Release watches: stored with the gates that judge their releases; a watch made with `since` gets the
// gates of every release from there at once (its backfill).
import { compareSemver, newReleasePairs, parseWatchSpec, releasePairs, watchGateSpec, watchScenarioId, type ReleasePair, type WatchSpec } from '@scb/shared';
import type { Db } from './client';
import type { Prisma } from '../generated/prisma/client';
import { knownClientVersions } from './client-versions';
import { createGate, createGateIn, gateJob, WatchStoppedError } from './gates';
import { cancelQueuedJobIn, checkUnfinishedIn, isStoredId, newJobId, QueueFullError } from './jobs';
import { ensureQueue } from './queue';

/** At most this many gates at once from one watch's backfill: a `since` long ago is refused, not queued for days. */
export const MAX_WATCH_BACKFILL_GATES = 40;

export class WatchBackfillTooLarge extends Error {}

/** The identity already has as many watches (not stopped) as it may: nothing was stored. */
export class WatchLimitError extends Error {
  constructor(
    readonly watches: number,
    readonly limit: number,
  ) {
    super(`${watches} watches, the limit is ${limit}`);
  }
}

/** What its creator may have: jobs queued or running (a watch's gates among them), and watches not stopped. Undefined: no limit (local mode). */
export interface WatchLimits {
  maxUnfinished?: number;
  maxWatches?: number;
}

/**
 * Stores a watch and queues its backfill: a gate per release from `since` (to `until`) and scenario,
 * each against the release's predecessor among `listed` (the registry's versions). Without `since`,
 * what is listed now is history: only releases listed later are gated. All of it or nothing, in one
 * transaction under its creator's limits (WatchLimitError, QueueFullError): the backfill's gates count
 * against `maxUnfinished`, which the watch keeps for the gates its polls queue later.
 */
export async function createWatch(
  db: Db,
  databaseUrl: string,
  spec: WatchSpec,
  listed: readonly string[],
  { createdBy = null, dates = {}, maxUnfinished, maxWatches }: { createdBy?: string | null; dates?: Record<string, string> } & WatchLimits = {},
): Promise<{ id: string; releases: ReleasePair[]; gates: number }> {
  const releases = spec.since ? releasePairs(listed, spec) : [];
  const gates = releases.length * spec.scenarios.length;
  if (gates > MAX_WATCH_BACKFILL_GATES) {
    throw new WatchBackfillTooLarge(
      `since ${spec.since}${spec.until ? ` until ${spec.until}` : ''} gates ${releases.length} releases on ${spec.scenarios.length} scenarios: ${gates} gates, more than ${MAX_WATCH_BACKFILL_GATES} at once; set a later since or an until`,
    );
  }
  const backfill = releases.flatMap((release) => spec.scenarios.map((scenario, i) => ({ release, i, gate: watchGateSpec(spec, scenario, release) })));
  const jobs = backfill.map((b) => gateJob(b.gate));
  const id = newJobId();
  const listedAtStart = spec.since ? undefined : [...new Set(listed)];
  const releaseDates = Object.fromEntries(releases.flatMap((r) => (dates[r.version] ? [[r.version, dates[r.version]]] : [])));
  await ensureQueue(databaseUrl);
  await db.$transaction(
    async (tx) => {
      if (maxWatches !== undefined && createdBy) {
        // One creator's concurrent posts wait on each other, so the count is exact.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`scb-watches:${createdBy}`}))`;
        const watches = await tx.watch.count({ where: { createdBy, stoppedAt: null } });
        if (watches >= maxWatches) throw new WatchLimitError(watches, maxWatches);
      }
      await checkUnfinishedIn(tx, { createdBy, maxUnfinished }, backfill.length);
      await tx.watch.create({
        data: { id, spec: spec as unknown as Prisma.InputJsonObject, createdBy, releaseDates, queueLimit: maxUnfinished ?? null, ...(listedAtStart && { listedAtStart }) },
      });
      for (const [n, b] of backfill.entries()) await createGateIn(tx, b.gate, jobs[n]!, { createdBy, watch: { id, version: b.release.version, scenario: b.i } });
    },
    // A backfill of 40 gates is a few hundred rows.
    { timeout: 60_000 },
  );
  return { id, releases, gates };
}

/** What one poll of a watch did: the gates it queued, or why the registry could not be read. */
export interface WatchPoll {
  watchId: string;
  queued: { version: string; predecessor: string; scenario: string; gateId: string }[];
  /** Gates it would have queued past its creator's queue limit: a later poll queues them once slots free up. */
  deferred: number;
  error: string | null;
}

/** What polling asks of the registries: a language's versions, and (optionally) when some were published. */
export interface WatchRegistry {
  list(language: string): Promise<string[]>;
  dates?(language: string, versions: readonly string[]): Promise<Record<string, string>>;
}

/**
 * Polls every watch not stopped: the releases its language's registry lists now (`list`), and for each release
 * the watch gates (from `since`, or listed after it was made) a gate per scenario it lacks, oldest
 * release first, as long as its creator is under the watch's queue limit (`queueLimit`): the rest wait
 * for a later poll (`deferred`), still oldest first. A registry that
 * fails leaves the watch as it was and says why (`pollError`). Two polls at once queue a gate once: a
 * release's scenario has one gate (a unique key), the later insert is dropped with its job. A gated
 * release the registry no longer lists is marked so (`unlisted`), and gated releases without a publish
 * date get one where the registry gives it (a failure there only leaves them undated).
 */
export async function pollWatches(db: Db, databaseUrl: string, registry: WatchRegistry | ((language: string) => Promise<string[]>)): Promise<WatchPoll[]> {
  const { list, dates } = typeof registry === 'function' ? { list: registry, dates: undefined } : registry;
  const watches = await db.watch.findMany({ where: { stoppedAt: null }, orderBy: { createdAt: 'asc' }, include: { gates: { select: { watchVersion: true, watchScenario: true } } } });
  const listings = new Map<string, Promise<string[]>>();
  const polls: WatchPoll[] = [];
  for (const w of watches) {
    const spec = parseWatchSpec(w.spec);
    if (!spec.ok) continue;
    const language = spec.value.language;
    if (!listings.has(language)) listings.set(language, list(language));
    let listed: string[];
    try {
      listed = await listings.get(language)!;
      // An answer without a single version is garbage, not news: the watch stays as it was.
      if (listed.length === 0) throw new Error(`the ${language} registry listed no versions`);
    } catch (e) {
      const error = (e as Error).message;
      await db.watch.update({ where: { id: w.id }, data: { polledAt: new Date(), pollError: error } });
      polls.push({ watchId: w.id, queued: [], deferred: 0, error });
      continue;
    }
    const have = new Set(w.gates.map((g) => `${g.watchVersion} ${g.watchScenario}`));
    // Without `since`, what was listed when the watch was made is history, whatever its number.
    const before = new Set(listedAtStartOf(w));
    const releases = spec.value.since ? releasePairs(listed, spec.value) : newReleasePairs(listed, before, spec.value);
    const missing = releases.flatMap((release) => spec.value.scenarios.flatMap((scenario, i) => (have.has(`${release.version} ${i}`) ? [] : [{ release, scenario, i }])));
    const queued: WatchPoll['queued'] = [];
    let deferred = 0;
    for (const [n, { release, scenario, i }] of missing.entries()) {
      try {
        const { id } = await createGate(db, databaseUrl, watchGateSpec(spec.value, scenario, release), {
          createdBy: w.createdBy,
          maxUnfinished: w.queueLimit ?? undefined,
          watch: { id: w.id, version: release.version, scenario: i },
        });
        queued.push({ ...release, scenario: watchScenarioId(scenario), gateId: id });
      } catch (e) {
        // Its creator's queue is full: this gate and the ones after it wait for a later poll.
        if (e instanceof QueueFullError) {
          deferred = missing.length - n;
          break;
        }
        // Stopped meanwhile: nothing more.
        if (e instanceof WatchStoppedError) break;
        // Another poll queued it meanwhile.
        if ((e as { code?: string }).code !== 'P2002') throw e;
      }
    }
    const listedNow = new Set(listed);
    const gated = [...new Set([...w.gates.map((g) => g.watchVersion ?? ''), ...queued.map((q) => q.version)])].filter(Boolean);
    const unlisted = gated.filter((v) => !listedNow.has(v)).sort(compareSemver);
    const known = jsonRecord(w.releaseDates);
    const undated = gated.filter((v) => !known[v] && listedNow.has(v));
    const found = dates && undated.length ? await dates(language, undated).catch(() => ({})) : {};
    await db.watch.update({ where: { id: w.id }, data: { polledAt: new Date(), pollError: null, unlisted, releaseDates: { ...known, ...found } } });
    polls.push({ watchId: w.id, queued, deferred, error: null });
  }
  return polls;
}

/** One release of a watch with the gates that judge it, one per scenario. */
export interface WatchRelease {
  version: string;
  predecessor: string;
  /** As the registry dates it; null where it does not (yet). */
  publishedAt: string | null;
  /** The registry no longer lists it (yanked, or withdrawn). */
  unlisted: boolean;
  /** Seconds its gates' jobs ran, all scenarios together (those still running count so far). */
  runSeconds: number;
  gates: WatchGate[];
}

export interface WatchGate {
  scenario: string;
  /** Its place in the watch's list of scenarios (one id may be listed twice, with other settings). */
  scenarioIndex: number;
  gateId: string;
  /** The gate's job's status (queued, running, succeeded, failed, canceled). */
  status: string;
  verdict: string | null;
  finishedAt: Date | null;
  /** Why the release or its predecessor could not be installed on this product's runners; null when both could. */
  installFailure: string | null;
  /** The verdict's first reason, or the job's error. */
  reason: string | null;
  /** A pass whose candidate keeps its predecessor's bad mode, no more often (GateEvaluation.persisting). */
  persisting: boolean;
}

export interface StoredWatch {
  id: string;
  createdAt: Date;
  createdBy: string | null;
  spec: WatchSpec;
  /** Without `since`: the newest release listed when the watch was made. */
  startAfter: string | null;
  /** The last poll of the registry, and why it failed (null when it did not). */
  polledAt: Date | null;
  pollError: string | null;
  /** When it was stopped (DELETE) and by whom: it polls no more; null while it watches. */
  stoppedAt: Date | null;
  stoppedBy: string | null;
  /** How many releases it gated (each with one gate per scenario). */
  releaseCount: number;
  /** The page of releases asked for, newest first. */
  releases: WatchRelease[];
}

/** Releases a watch's page (and GET /api/watches/<id>) shows at once, newest first; `?page=2` the next ones. */
export const WATCH_RELEASES_PAGE = 25;

/**
 * A watch with one page of its releases, newest first (`limit`, from `offset`; WATCH_RELEASES_PAGE
 * from the newest by default), and how many it has (`releaseCount`); null when there is none or its
 * stored spec does not parse. Only the page's gates are read: the releases are ordered from the
 * distinct versions of its gates (an index-only read of Gate(watchId, watchVersion), a few strings
 * per release) by semantic version, which SQL cannot sort.
 */
export async function getWatch(db: Db, id: string, page: { limit?: number; offset?: number } = {}): Promise<StoredWatch | null> {
  if (!isStoredId(id)) return null;
  const w = await db.watch.findUnique({ where: { id } });
  if (!w) return null;
  const spec = parseWatchSpec(w.spec);
  if (!spec.ok) return null;
  const limit = page.limit ?? WATCH_RELEASES_PAGE;
  const offset = page.offset ?? 0;
  const all = (await db.$queryRaw<{ v: string }[]>`SELECT DISTINCT "watchVersion" AS v FROM "Gate" WHERE "watchId" = ${id} AND "watchVersion" IS NOT NULL`)
    .map((r) => r.v)
    .sort((a, b) => compareSemver(b, a));
  const shown = all.slice(offset, offset + limit);
  // Each release's gates in the watch's order of scenarios.
  const gates = shown.length
    ? await db.gate.findMany({
        where: { watchId: id, watchVersion: { in: shown } },
        include: { job: { select: { status: true, error: true, startedAt: true, finishedAt: true } } },
        orderBy: [{ watchScenario: 'asc' }, { id: 'asc' }],
      })
    : [];
  const predecessorOf = (g: { spec: unknown }) => String((g.spec as { baseline?: string }).baseline ?? '');
  const installs = gates.length ? await knownClientVersions(db, spec.value.language, [...new Set([...shown, ...gates.map(predecessorOf)])]) : new Map();
  const installFailure = (...versions: string[]) => {
    const failed = versions.flatMap((v) => (installs.get(v)?.ok === false ? [`${v}: ${installs.get(v)?.message ?? 'could not be installed'}`] : []));
    return failed.length ? failed.join('; ') : null;
  };
  const dates = jsonRecord(w.releaseDates);
  const unlisted = new Set(Array.isArray(w.unlisted) ? w.unlisted : []);
  const now = Date.now();
  const byVersion = new Map<string, WatchRelease>();
  for (const g of gates) {
    const version = g.watchVersion ?? '';
    const predecessor = predecessorOf(g);
    let r = byVersion.get(version);
    if (!r) byVersion.set(version, (r = { version, predecessor, publishedAt: dates[version] ?? null, unlisted: unlisted.has(version), runSeconds: 0, gates: [] }));
    if (g.job.startedAt) r.runSeconds += ((g.job.finishedAt?.getTime() ?? now) - g.job.startedAt.getTime()) / 1000;
    const scenario = spec.value.scenarios[g.watchScenario ?? 0];
    const reasons = (g.evaluation as { reasons?: unknown } | null)?.reasons;
    r.gates.push({
      scenario: scenario === undefined ? '' : watchScenarioId(scenario),
      scenarioIndex: g.watchScenario ?? 0,
      gateId: g.id,
      status: g.job.status,
      verdict: g.verdict,
      finishedAt: g.finishedAt,
      installFailure: installFailure(version, predecessor),
      reason: (Array.isArray(reasons) && typeof reasons[0] === 'string' ? reasons[0] : null) ?? g.job.error,
      persisting: storedPersisting(g.evaluation),
    });
  }
  return {
    id: w.id,
    createdAt: w.createdAt,
    createdBy: w.createdBy,
    spec: spec.value,
    startAfter: [...listedAtStartOf(w)].sort(compareSemver).at(-1) ?? null,
    polledAt: w.polledAt,
    pollError: w.pollError,
    stoppedAt: w.stoppedAt,
    stoppedBy: w.stoppedBy,
    releaseCount: all.length,
    releases: shown.flatMap((v) => byVersion.get(v) ?? []),
  };
}

/** A stored JSON object of strings (release dates), {} for anything else. */
function jsonRecord(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** What a watch without `since` found listed when it was made. */
function listedAtStartOf(w: { listedAtStart: unknown }): string[] {
  return Array.isArray(w.listedAtStart) ? w.listedAtStart.filter((v): v is string => typeof v === 'string') : [];
}

/** Watches, newest first, stopped ones too. */
export async function listWatches(
  db: Db,
  page: { limit?: number; offset?: number } = {},
): Promise<{ id: string; createdAt: Date; createdBy: string | null; spec: unknown; gates: number; stoppedAt: Date | null }[]> {
  const ws = await db.watch.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: page.limit ?? 100, skip: page.offset ?? 0, include: { _count: { select: { gates: true } } } });
  return ws.map((w) => ({ id: w.id, createdAt: w.createdAt, createdBy: w.createdBy, spec: w.spec, gates: w._count.gates, stoppedAt: w.stoppedAt }));
}

export type StopWatchOutcome =
  | { kind: 'not-found' }
  | { kind: 'forbidden' }
  /** Stopped now, or before (`already`): `cancelled` queued gates, `kept` the others (judged, or running until they are). */
  | { kind: 'stopped'; stoppedAt: Date; already: boolean; cancelled: number; kept: number };

/**
 * Stops a watch (its creator's or an admin's to stop; one stored before creators were recorded is an
 * admin's): it polls no more, its queued gates are cancelled (their jobs out of the queue), and the gates
 * judged or running stay, with their verdicts, on its page and feed. The watch's row is locked first,
 * so a poll queuing a gate meanwhile either finishes before (and its gate is cancelled here) or finds the
 * watch stopped.
 */
export async function stopWatch(db: Db, id: string, who: { name: string; admin: boolean }): Promise<StopWatchOutcome> {
  if (!isStoredId(id)) return { kind: 'not-found' };
  return db.$transaction(async (tx) => {
    const [w] = await tx.$queryRaw<{ createdBy: string | null; stoppedAt: Date | null }[]>`SELECT "createdBy", "stoppedAt" FROM "Watch" WHERE id = ${id} FOR UPDATE`;
    if (!w) return { kind: 'not-found' };
    if (!who.admin && w.createdBy !== who.name) return { kind: 'forbidden' };
    const stoppedAt = w.stoppedAt ?? new Date();
    if (!w.stoppedAt) await tx.watch.update({ where: { id }, data: { stoppedAt, stoppedBy: who.name } });
    const gates = await tx.gate.findMany({ where: { watchId: id }, select: { jobId: true, job: { select: { status: true } } } });
    let cancelled = 0;
    for (const g of gates) if (g.job.status === 'queued' && (await cancelQueuedJobIn(tx, g.jobId, who.name, 'cancelled before it started: its watch was deleted'))) cancelled++;
    return { kind: 'stopped', stoppedAt, already: w.stoppedAt !== null, cancelled, kept: gates.length - cancelled };
  });
}

/** A watch gate's finished verdict, for the feeds: newest first. */
export interface WatchVerdict {
  watchId: string;
  language: string;
  version: string;
  predecessor: string;
  scenario: string;
  gateId: string;
  verdict: string;
  reasons: string[];
  /** A pass whose candidate keeps its predecessor's bad mode, no more often (GateEvaluation.persisting). */
  persisting: boolean;
  finishedAt: Date;
}

/** The stored evaluation's `persisting` flag; false for evaluations stored before it. */
const storedPersisting = (evaluation: unknown): boolean => (evaluation as { persisting?: unknown } | null)?.persisting === true;

/** The newest finished verdicts of one watch's gates, or of every watch's. */
export async function listWatchVerdicts(db: Db, { watchId, limit = 50 }: { watchId?: string; limit?: number } = {}): Promise<WatchVerdict[]> {
  const gates = await db.gate.findMany({
    where: { watchId: watchId ?? { not: null }, verdict: { not: null }, finishedAt: { not: null } },
    orderBy: [{ finishedAt: 'desc' }, { id: 'asc' }],
    take: limit,
    select: { id: true, verdict: true, evaluation: true, finishedAt: true, spec: true, watchVersion: true, watchScenario: true, watch: { select: { id: true, spec: true } } },
  });
  return gates.flatMap((g) => {
    const spec = g.watch && parseWatchSpec(g.watch.spec);
    if (!g.watch || !spec?.ok || !g.verdict || !g.finishedAt) return [];
    const scenario = spec.value.scenarios[g.watchScenario ?? 0];
    const reasons = (g.evaluation as { reasons?: unknown } | null)?.reasons;
    return [
      {
        watchId: g.watch.id,
        language: spec.value.language,
        version: g.watchVersion ?? '',
        predecessor: String((g.spec as { baseline?: string }).baseline ?? ''),
        scenario: scenario === undefined ? '' : watchScenarioId(scenario),
        gateId: g.id,
        verdict: g.verdict,
        reasons: Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string') : [],
        persisting: storedPersisting(g.evaluation),
        finishedAt: g.finishedAt,
      },
    ];
  });
}
