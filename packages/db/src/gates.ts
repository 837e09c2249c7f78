// Release gates: create (with the job that runs them), read, list, and the runner's verdicts.
import {
  GateEvaluationSchema,
  JobEnvironmentSchema,
  gateJobSpec,
  parseGateSpec,
  parseJobSpec,
  parseStored,
  placementFlags,
  type GateEvaluation,
  type GateSpec,
  type JobSpec,
  type ParseResult,
} from '@scb/shared';
import type { Db } from './client';
import type { Cell, CellResult, ChannelStat, Gate, Job, Prisma } from '../generated/prisma/client';
import { RAN_CELL } from './cells';
import { CELL_CLIENT, checkUnfinishedIn, isStoredId, jobCreateData, newJobId, type Author } from './jobs';
import { enqueueJobIn, ensureQueue, WATCH_PRIORITY } from './queue';
import { ColumnParser, type Read } from './read';
import { queueDeliveriesIn } from './webhooks';

/** The release watch a gate judges a release for: the watch, the release, the index of the scenario. */
export interface GateOfWatch {
  id: string;
  version: string;
  scenario: number;
}

/** Stores a validated gate with the job that runs it and queues the job: all of it or none. `watch`: the release watch it judges a release for. */
export async function createGate(
  db: Db,
  databaseUrl: string,
  gate: GateSpec,
  { createdBy = null, maxUnfinished, watch }: Pick<Author, 'createdBy' | 'maxUnfinished'> & { watch?: GateOfWatch } = {},
): Promise<{ id: string; jobId: string }> {
  const spec = gateJob(gate);
  await ensureQueue(databaseUrl);
  return db.$transaction(async (tx) => {
    await checkUnfinishedIn(tx, { createdBy, maxUnfinished });
    return createGateIn(tx, gate, spec, { createdBy, watch });
  });
}

/** A gate's job spec; a gate spec that makes an invalid one is a bug, thrown. */
export function gateJob(gate: GateSpec): JobSpec {
  const spec = parseJobSpec(gateJobSpec(gate));
  if (!spec.ok) throw new Error(`the gate makes an invalid job: ${spec.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return spec.value;
}

/** The watch is stopped (or gone): it queues no more gates. */
export class WatchStoppedError extends Error {}

/**
 * In a transaction (the caller checks its author's queue limit first, the queue exists): stores the gate
 * and its job and queues the job. A watch's gate waits for the watch's row and is refused once the watch
 * is stopped, so a poll racing a DELETE queues nothing the DELETE does not cancel.
 */
export async function createGateIn(
  tx: Prisma.TransactionClient,
  gate: GateSpec,
  spec: JobSpec,
  { createdBy = null, watch }: { createdBy?: string | null; watch?: GateOfWatch },
): Promise<{ id: string; jobId: string }> {
  if (watch) {
    const [row] = await tx.$queryRaw<{ stopped: boolean }[]>`SELECT "stoppedAt" IS NOT NULL AS stopped FROM "Watch" WHERE id = ${watch.id} FOR SHARE`;
    if (!row || row.stopped) throw new WatchStoppedError(`watch ${watch.id} is stopped: it queues no more gates`);
  }
  const id = newJobId();
  const jobId = newJobId();
  await tx.job.create({ data: jobCreateData(jobId, spec, { createdBy }) });
  await tx.gate.create({ data: { id, jobId, spec: gate as Prisma.InputJsonObject, createdBy, ...(watch && { watchId: watch.id, watchVersion: watch.version, watchScenario: watch.scenario }) } });
  await enqueueJobIn(tx, jobId, placementFlags(spec), undefined, watch ? WATCH_PRIORITY : 0);
  return { id, jobId };
}

/** A gate's plain columns. */
export type GateRow = Omit<Gate, 'spec' | 'evaluation'>;

/** The verdict, its reasons and the per-metric judgements: null until the runner has judged the gate. */
type GateColumns = { spec: GateSpec; evaluation: GateEvaluation | null };

function parseGate<Row extends object>(g: { id: string; spec: unknown; evaluation: unknown }, plain: Row): Read<Row, GateColumns> {
  const p = new ColumnParser();
  return p.row(`stored gate ${g.id}`, plain, {
    spec: p.take('spec', parseGateSpec(g.spec)),
    evaluation: p.take('evaluation', parseStored(GateEvaluationSchema.nullable(), g.evaluation)),
  });
}

export type StoredGate = Read<GateRow & { job: Pick<Job, 'status' | 'error' | 'cellsTotal'> & { cellsDone: number } }, GateColumns>;

export async function getGate(db: Db, id: string): Promise<StoredGate | null> {
  if (!isStoredId(id)) return null;
  const g = await db.gate.findUnique({ where: { id }, include: { job: { select: { status: true, error: true, cellsTotal: true } } } });
  if (!g) return null;
  // The cells that ran, as the job page and the jobs list count them: a job ended before a cell ran is 0 done.
  const cellsDone = await db.cell.count({ where: { jobId: g.jobId, ...RAN_CELL } });
  const { spec: _s, evaluation: _e, job, ...plain } = g;
  return parseGate(g, { ...plain, job: { ...job, cellsDone } });
}

export type GateListEntry = Read<GateRow & { jobStatus: Job['status'] }, GateColumns>;

/** Gates newest first, each with its job's status. */
export async function listGates(db: Db, page: { limit?: number; offset?: number } = {}): Promise<GateListEntry[]> {
  const gates = await db.gate.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: page.limit ?? 100, skip: page.offset ?? 0, include: { job: { select: { status: true } } } });
  return gates.map((g) => {
    const { spec: _s, evaluation: _e, job, ...plain } = g;
    return parseGate(g, { ...plain, jobStatus: job.status });
  });
}

export async function countGates(db: Db): Promise<number> {
  return db.gate.count();
}

// ---------------------------------------------------------------------------------------------
// The runner's side: judge a gate once its job has ended
// ---------------------------------------------------------------------------------------------

/** What judging a gate reads of a cell's result: its numbers and the figures of its verdict. */
const GATE_RESULT = {
  operations: true,
  count: true,
  errorCount: true,
  maxMs: true,
  qps: true,
  p50Ms: true,
  p99Ms: true,
  cpuMs: true,
  elapsedMs: true,
  driverLoopUtilization: true,
  targetLoopUtilization: true,
  targetAddedP50Ms: true,
  targetAddedP99Ms: true,
  targetCpuShare: true,
  machineBusyShare: true,
  machineRunnerShare: true,
  timeline: true,
  // A scan's time to its first row (a scan gate's criterion).
  firstRowP50Ms: true,
} as const;

export type GateCell = Pick<
  Cell,
  'index' | 'arm' | 'clientLanguage' | 'clientVersion' | 'clientGrpcVersion' | 'clientArtifact' | 'clientLabel' | 'config' | 'concurrency' | 'repeat' | 'status' | 'error'
> & {
  result: Pick<CellResult, keyof typeof GATE_RESULT> | null;
  /** As the runner stored them, every source: the verdict's ceiling reads the target's count where there is one. */
  channels: Pick<ChannelStat, 'source' | 'rpcs' | 'peakInFlight'>[];
};

/** A gate with what judging it needs: its spec (or why it does not parse), its job's end and its cells in order. */
export interface GateToEvaluate {
  id: string;
  verdict: string | null;
  spec: ParseResult<GateSpec>;
  job: Pick<Job, 'status' | 'error'>;
  /** Cores of the machine the job ran on (0 when unknown), for the cells' verdicts. */
  cores: number;
  cells: GateCell[];
}

/** The gate a job runs, or null when the job runs none. */
export async function getGateToEvaluate(db: Db, jobId: string): Promise<GateToEvaluate | null> {
  const g = await db.gate.findUnique({ where: { jobId }, select: { id: true, verdict: true, spec: true, job: { select: { status: true, error: true, environment: true } } } });
  if (!g) return null;
  const cells = await db.cell.findMany({
    where: { jobId },
    orderBy: { index: 'asc' },
    select: {
      index: true,
      arm: true,
      ...CELL_CLIENT,
      config: true,
      concurrency: true,
      repeat: true,
      status: true,
      error: true,
      result: { select: GATE_RESULT },
      channels: { select: { source: true, rpcs: true, peakInFlight: true } },
    },
  });
  const { environment, ...job } = g.job;
  const env = parseStored(JobEnvironmentSchema.nullable(), environment);
  return { ...g, job, spec: parseGateSpec(g.spec), cores: env.ok ? (env.value?.cores ?? 0) : 0, cells };
}

/** Jobs of gates that have no verdict although their job has ended (the runner stopped in between). */
export async function findPendingGateJobIds(db: Db): Promise<string[]> {
  const pending = await db.gate.findMany({ where: { verdict: null, job: { status: { notIn: ['queued', 'running'] } } }, select: { jobId: true } });
  return pending.map((g) => g.jobId);
}

/** Stores the verdict and its evaluation; JSON has no NaN, so an undefined change or interval is stored as null. */
export async function storeGateVerdict(db: Db, id: string, evaluation: GateEvaluation): Promise<void> {
  // A watch's gate: its webhooks' deliveries are queued with the verdict, or neither is stored.
  await db.$transaction(async (tx) => {
    await tx.gate.update({ where: { id }, data: { verdict: evaluation.verdict, evaluation: JSON.parse(JSON.stringify(evaluation)) as Prisma.InputJsonObject, finishedAt: new Date() } });
    await queueDeliveriesIn(tx, id);
  });
}
