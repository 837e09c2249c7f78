// Jobs: create and queue, read (with cells, results and channels), list, cancel; and the status
// transitions the runner makes.
import { randomBytes } from 'node:crypto';
import {
  ARMS,
  BudgetSpentSchema,
  type CellPlan,
  ClientSchema,
  ConfigurationSchema,
  NOTHING_SPENT,
  type BudgetSpent,
  JobEnvironmentSchema,
  isUnfinishedJob,
  RAN_CELL_STATUSES,
  STORED_ID,
  UNFINISHED_JOB_STATUSES,
  type FieldIssue,
  parseJobSpec,
  parseStored,
  placementFlags,
  planCells,
  type JobEnvironment,
  type JobSpec,
  type ParseResult,
  toFieldIssues,
} from '@scb/shared';
import type { Db } from './client';
import type { Cell, Job, Prisma } from '../generated/prisma/client';
import { RAN_CELL, cancelUnfinishedCellsOp, parseCell, type StoredCell } from './cells';
import { enqueueJobIn, ensureQueue } from './queue';
import { ColumnParser, type Read } from './read';

/** Short, URL-safe, unguessable enough for a permanent link. */
export const isStoredId = (id: string): boolean => STORED_ID.test(id);

export function newJobId(): string {
  const alphabet = '0123456789abcdefghijkmnpqrstuvwxyz';
  return [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** A job row with its planned cells, ready for `db.job.create`. */
/** Who writes: the identity's name, stored with what it creates or cancels. */
export interface Author {
  createdBy?: string | null;
  rerunOf?: string | null;
  /** The most jobs `createdBy` may have queued or running; the new one is refused at that many (QueueFullError). */
  maxUnfinished?: number;
}

/** The author already has as many jobs queued or running as they may: nothing was stored. */
export class QueueFullError extends Error {
  constructor(
    readonly unfinished: number,
    readonly limit: number,
    /** How many the refused write would have queued. */
    readonly adding = 1,
  ) {
    super(`${unfinished} jobs queued or running${adding === 1 ? '' : `, ${adding} more asked`}, the limit is ${limit}`);
  }
}

/**
 * In the transaction that stores a job (or `adding` jobs at once, a watch's backfill): refuses them when
 * they would take their author past their limit. One author's concurrent posts wait on each other (a
 * transaction-scoped advisory lock), so the limit is exact.
 */
export async function checkUnfinishedIn(tx: Prisma.TransactionClient, { createdBy, maxUnfinished }: Author, adding = 1): Promise<void> {
  if (maxUnfinished === undefined || !createdBy || adding === 0) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`scb-unfinished:${createdBy}`}))`;
  const unfinished = await tx.job.count({ where: { createdBy, status: { in: [...UNFINISHED_JOB_STATUSES] } } });
  if (unfinished + adding > maxUnfinished) throw new QueueFullError(unfinished, maxUnfinished, adding);
}

/** A cell's plan from its stored row: the cells are planned once, when the job is created, and run from these rows. */
export function planOfCell(
  c: Pick<Cell, 'index' | 'clientLanguage' | 'clientVersion' | 'clientGrpcVersion' | 'config' | 'concurrency' | 'repeat' | 'arm'> & Partial<Pick<Cell, 'clientArtifact' | 'clientLabel'>>,
): ParseResult<CellPlan> {
  const client = ClientSchema.safeParse({ language: c.clientLanguage, version: c.clientVersion, ...clientExtras(c) });
  const configuration = ConfigurationSchema.safeParse(c.config);
  const arm = ARMS.find((a) => a === c.arm);
  const under = (base: string, issues: FieldIssue[]) => issues.map((i) => ({ ...i, path: `cells[${c.index}].${base}${i.path === '(root)' ? '' : `.${i.path}`}` }));
  const issues = [
    ...(client.success ? [] : under('client', toFieldIssues(client.error))),
    ...(configuration.success ? [] : under('config', toFieldIssues(configuration.error))),
    ...(c.arm !== null && !arm ? [{ path: `cells[${c.index}].arm`, message: `must be one of ${ARMS.join(', ')}` }] : []),
  ];
  if (!client.success || !configuration.success || issues.length) return { ok: false, issues };
  return { ok: true, value: { index: c.index, client: client.data, configuration: configuration.data, concurrency: c.concurrency, repeat: c.repeat, ...(arm ? { arm } : {}) } };
}

/** A cell's client as stored: what a select of a cell's client reads. */
export const CELL_CLIENT = { clientLanguage: true, clientVersion: true, clientGrpcVersion: true, clientArtifact: true, clientLabel: true } as const;

/** A stored cell's client fields beyond its language and version (only those it has). */
export function clientExtras(c: { clientGrpcVersion?: string | null; clientArtifact?: string | null; clientLabel?: string | null }) {
  return {
    ...(c.clientGrpcVersion ? { grpcVersion: c.clientGrpcVersion } : {}),
    ...(c.clientArtifact ? { artifact: c.clientArtifact } : {}),
    ...(c.clientLabel ? { label: c.clientLabel } : {}),
  };
}

export function jobCreateData(id: string, spec: JobSpec, { rerunOf = null, createdBy = null }: Author = {}) {
  const cells = planCells(spec).map((p) => ({
    index: p.index,
    clientLanguage: p.client.language,
    clientVersion: p.client.version,
    clientGrpcVersion: p.client.grpcVersion ?? null,
    clientArtifact: p.client.artifact ?? null,
    clientLabel: p.client.label ?? null,
    configLabel: p.configuration.label,
    config: p.configuration,
    concurrency: p.concurrency,
    repeat: p.repeat,
    arm: p.arm ?? null,
  }));
  return {
    id,
    name: spec.name ?? null,
    spec: spec as Prisma.InputJsonObject,
    cellsTotal: cells.length,
    cells: { create: cells },
    createdBy,
    ...(rerunOf ? { original: { connect: { id: rerunOf } } } : {}),
  } satisfies Prisma.JobCreateInput;
}

/** Stores a validated spec with its planned cells and queues it, in one transaction. */
export async function createJob(db: Db, databaseUrl: string, spec: JobSpec, author: Author = {}): Promise<string> {
  const id = newJobId();
  await ensureQueue(databaseUrl);
  await db.$transaction(async (tx) => {
    await checkUnfinishedIn(tx, author);
    await tx.job.create({ data: jobCreateData(id, spec, author) });
    await enqueueJobIn(tx, id, placementFlags(spec));
  });
  return id;
}

/**
 * The placement flags of a queued job, for a runner to check before it starts it: graphile-worker reads
 * a runner's forbidden flags and then takes a job, so a job queued in between may need what it lacks.
 * Null when the job is no longer queued.
 */
export async function queuedJobFlags(db: Db, jobId: string): Promise<string[] | null> {
  const job = await db.job.findUnique({ where: { id: jobId }, select: { status: true, spec: true } });
  if (job?.status !== 'queued') return null;
  const parsed = parseJobSpec(job.spec);
  return parsed.ok ? placementFlags(parsed.value) : [];
}

/** Queues a job again, untouched, for a runner that has what it needs (the one that took it lacks something). */
export async function handBackJob(db: Db, jobId: string, flags: string[]): Promise<void> {
  await db.$transaction(async (tx) => enqueueJobIn(tx, jobId, flags, `job:${jobId}:handed-back:${newJobId()}`));
}

/** A job's plain columns. */
export type JobRow = Omit<Job, 'spec' | 'environment' | 'spent'>;

/** A later job that re-ran this one. */
export interface Rerun {
  id: string;
  status: Job['status'];
  createdAt: Date;
}

/** A job with its cells (by index), their results and channels (by connection), its gate and its re-runs. */
export type StoredJob = Read<
  JobRow & { gateId: string | null; cellsDone: number; reruns: Rerun[] },
  { spec: JobSpec; environment: JobEnvironment | null; spent: BudgetSpent | null; cells: StoredCell[] }
>;

export async function getJob(db: Db, id: string): Promise<StoredJob | null> {
  if (!isStoredId(id)) return null;
  const row = await db.job.findUnique({
    where: { id },
    include: {
      cells: { orderBy: { index: 'asc' }, include: { result: true, channels: { orderBy: { connection: 'asc' } } } },
      gate: { select: { id: true } },
      reruns: { select: { id: true, status: true, createdAt: true }, orderBy: { createdAt: 'asc' } },
    },
  });
  if (!row) return null;
  const { spec, environment, spent, cells, gate, ...plain } = row;
  const p = new ColumnParser();
  const parsed = {
    spec: p.take('spec', parseJobSpec(spec)),
    environment: p.take('environment', parseStored(JobEnvironmentSchema.nullable(), environment)),
    spent: p.take('spent', parseStored(BudgetSpentSchema.nullable(), spent)),
    cells: cells.map((c, i) => parseCell(c, p, `cells.${i}`)),
  };
  return p.row(`stored job ${id}`, { ...plain, gateId: gate?.id ?? null, cellsDone: cells.filter((c) => (RAN_CELL_STATUSES as readonly string[]).includes(c.status)).length }, parsed);
}

export type JobListEntry = Read<JobRow & { cellsDone: number }, { spec: JobSpec }>;

/** Jobs newest first, each with its number of finished cells. */
export async function listJobs(db: Db, page: { limit?: number; offset?: number; createdBy?: string } = {}): Promise<JobListEntry[]> {
  const jobs = await db.job.findMany({
    where: page.createdBy === undefined ? {} : { createdBy: page.createdBy },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: page.limit ?? 100,
    skip: page.offset ?? 0,
    omit: { environment: true, spent: true },
  });
  const done = await db.cell.groupBy({ by: ['jobId'], where: { jobId: { in: jobs.map((j) => j.id) }, ...RAN_CELL }, _count: { _all: true } });
  const doneBy = new Map(done.map((d) => [d.jobId, d._count._all]));
  return jobs.map(({ spec, ...plain }) => {
    const p = new ColumnParser();
    return p.row(`stored job ${plain.id}`, { ...plain, cellsDone: doneBy.get(plain.id) ?? 0 }, { spec: p.take('spec', parseJobSpec(spec)) });
  });
}

export async function countJobs(db: Db, createdBy?: string): Promise<number> {
  return db.job.count({ where: createdBy === undefined ? {} : { createdBy } });
}

/** The newest succeeded jobs with their specs, newest first. */
export async function listSucceededJobs(db: Db, limit: number): Promise<Read<{ id: string }, { spec: JobSpec }>[]> {
  const jobs = await db.job.findMany({ where: { status: 'succeeded' }, orderBy: { createdAt: 'desc' }, take: limit, select: { id: true, spec: true } });
  return jobs.map(({ id, spec }) => {
    const p = new ColumnParser();
    return p.row(`stored job ${id}`, { id }, { spec: p.take('spec', parseJobSpec(spec)) });
  });
}

export type CancelOutcome = 'cancelled' | 'requested' | 'finished' | 'not-found' | 'forbidden';

/**
 * Cancels a job: a queued one at once (the runner skips it), a running one by request (the runner
 * stops its driver within a second or two and keeps the finished cells). For `who` (anyone when not
 * given: the runner's own tools) only its submitter or an admin may; a job stored before submitters
 * were recorded is an admin's to cancel.
 */
export async function cancelJob(db: Db, id: string, who?: { name: string; admin: boolean }): Promise<CancelOutcome> {
  if (!isStoredId(id)) return 'not-found';
  if (who && !who.admin) {
    const job = await db.job.findUnique({ where: { id }, select: { createdBy: true } });
    if (!job) return 'not-found';
    if (job.createdBy !== who.name) return 'forbidden';
  }
  const cancelledBy = who?.name ?? null;
  const cancelled = await db.$transaction(async (tx) => cancelQueuedJobIn(tx, id, cancelledBy, 'cancelled before it started'));
  if (cancelled) return 'cancelled';
  const running = await db.job.updateMany({ where: { id, status: 'running' }, data: { cancelRequested: true, cancelledBy } });
  if (running.count) return 'requested';
  return (await db.job.count({ where: { id } })) ? 'finished' : 'not-found';
}

/** Cancels a job that is still queued (`error` says why), its cells and its queue entry; false when it is not queued. */
export async function cancelQueuedJobIn(tx: Prisma.TransactionClient, id: string, cancelledBy: string | null, error: string): Promise<boolean> {
  const queued = await tx.job.updateMany({ where: { id, status: 'queued' }, data: { status: 'cancelled', finishedAt: new Date(), error, cancelRequested: true, cancelledBy } });
  if (!queued.count) return false;
  await cancelUnfinishedCellsOp(tx, id);
  // Out of the queue too, so that no runner is left holding it (a job no runner can take waits there).
  const [queue] = await tx.$queryRaw<{ present: boolean }[]>`SELECT to_regclass('graphile_worker._private_jobs') IS NOT NULL AS present`;
  if (queue?.present) await tx.$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key LIKE ${`job:${id}%`} AND locked_at IS NULL`;
  return true;
}

export type RerunOutcome =
  | { kind: 'created'; id: string }
  | { kind: 'not-found' }
  | { kind: 'unfinished'; status: Job['status'] }
  | { kind: 'gate'; gateId: string }
  | { kind: 'invalid'; issues: FieldIssue[] }
  /** The spec validates but the caller's policy refuses it now. */
  | { kind: 'refused'; issues: FieldIssue[] };

/**
 * Re-runs a finished job: a new job with the same spec (validated again, as the schema may have moved
 * on), linked to the old one, which does not change.
 */
export async function rerunJob(
  db: Db,
  databaseUrl: string,
  id: string,
  { refuse = () => [], createdBy = null, maxUnfinished }: { refuse?: (spec: JobSpec) => FieldIssue[] } & Pick<Author, 'createdBy' | 'maxUnfinished'> = {},
): Promise<RerunOutcome> {
  if (!isStoredId(id)) return { kind: 'not-found' };
  const old = await db.job.findUnique({ where: { id }, select: { status: true, spec: true, gate: { select: { id: true } } } });
  if (!old) return { kind: 'not-found' };
  if (isUnfinishedJob(old.status)) return { kind: 'unfinished', status: old.status };
  // A plain copy of a gate's job would never get a verdict: the gate is what is run again.
  if (old.gate) return { kind: 'gate', gateId: old.gate.id };
  const spec = parseJobSpec(old.spec);
  if (!spec.ok) return { kind: 'invalid', issues: spec.issues };
  const refused = refuse(spec.value);
  if (refused.length > 0) return { kind: 'refused', issues: refused };
  return { kind: 'created', id: await createJob(db, databaseUrl, spec.value, { rerunOf: id, createdBy, maxUnfinished }) };
}

// ---------------------------------------------------------------------------------------------
// The runner's transitions: queued → running → succeeded | failed | cancelled
// ---------------------------------------------------------------------------------------------

/** What the runner needs to run a job: its status, its spec (or why it does not parse) and its cells in order. */
export interface JobToRun {
  id: string;
  status: Job['status'];
  cellsTotal: number;
  spec: ParseResult<JobSpec>;
  /** What its cells spent of a Cloud Spanner budget so far (a resumed job goes on from there). */
  spent: BudgetSpent;
  /** Each cell's plan as stored when the job was created. */
  cells: { id: number; index: number; status: Cell['status']; plan: ParseResult<CellPlan> }[];
}

export async function getJobToRun(db: Db, id: string): Promise<JobToRun | null> {
  if (!isStoredId(id)) return null;
  const job = await db.job.findUnique({
    where: { id },
    select: {
      id: true,
      status: true,
      cellsTotal: true,
      spec: true,
      spent: true,
      cells: {
        select: {
          id: true,
          index: true,
          status: true,
          ...CELL_CLIENT,
          config: true,
          concurrency: true,
          repeat: true,
          arm: true,
        },
        orderBy: { index: 'asc' },
      },
    },
  });
  if (!job) return null;
  const spent = BudgetSpentSchema.safeParse(job.spent);
  const cells = job.cells.map((c) => ({ id: c.id, index: c.index, status: c.status, plan: planOfCell(c) }));
  return { ...job, cells, spec: parseJobSpec(job.spec), spent: spent.success ? spent.data : NOTHING_SPENT };
}

/** What the running job's cells spent of its Cloud Spanner budget, after each cell. */
export async function storeJobSpent(db: Db, id: string, spent: BudgetSpent): Promise<void> {
  await db.job.updateMany({ where: { id, status: 'running' }, data: { spent: spent as unknown as Prisma.InputJsonObject } });
}

/** Marks a queued job running, with where it runs; false when it is no longer queued (cancelled meanwhile). */
export async function markJobRunning(db: Db, id: string, environment: JobEnvironment, runnerId: string | null = null): Promise<boolean> {
  const data = { status: 'running' as const, environment: environment as Prisma.InputJsonObject, runnerId };
  // A resumed job keeps the time it first started.
  const fresh = await db.job.updateMany({ where: { id, status: 'queued', startedAt: null }, data: { ...data, startedAt: new Date() } });
  if (fresh.count > 0) return true;
  return (await db.job.updateMany({ where: { id, status: 'queued' }, data })).count > 0;
}

/** Whether someone asked to cancel the job (the runner polls this while a job runs). */
export async function isCancelRequested(db: Db, id: string): Promise<boolean> {
  return (await db.job.findUnique({ where: { id }, select: { cancelRequested: true } }))?.cancelRequested ?? false;
}

export interface JobOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  error: string | null;
}

/** Ends a job; in the same transaction, any cell that has not finished is cancelled (an ended job has no pending cell). */
export async function finishJob(db: Db, id: string, outcome: JobOutcome): Promise<boolean> {
  // Only a job that has not ended (a cancel may have ended it meanwhile): an ended job never changes.
  const [, ended] = await db.$transaction([
    cancelUnfinishedCellsOp(db, id),
    db.job.updateMany({ where: { id, status: { in: ['queued', 'running'] } }, data: { status: outcome.status, error: outcome.error, finishedAt: new Date() } }),
  ]);
  return ended.count > 0;
}

/** Jobs left "running" with no runner recorded (stored before runners registered): failed. Only safe when this is the only runner. */
export async function failOrphanedJobs(db: Db): Promise<number> {
  const orphans = await db.job.findMany({ where: { status: 'running', runnerId: null }, select: { id: true } });
  for (const { id } of orphans) await finishJob(db, id, { status: 'failed', error: 'the runner stopped while this job ran' });
  return orphans.length;
}

/**
 * The newest job of each of these reproductions (spec.reproduction), by id: one probe per
 * reproduction of Job's reproduction index, however many runs each has.
 */
export async function lastReproductionRuns(db: Db, reproductions: readonly string[]): Promise<Map<string, string>> {
  if (!reproductions.length) return new Map();
  const rows = await db.$queryRaw<{ reproduction: string; id: string }[]>`
    SELECT r.reproduction, j.id
    FROM unnest(${[...new Set(reproductions)]}::text[]) AS r(reproduction)
    CROSS JOIN LATERAL (
      SELECT id FROM "Job" WHERE spec->>'reproduction' IS NOT NULL AND spec->>'reproduction' = r.reproduction ORDER BY "createdAt" DESC, id LIMIT 1
    ) j`;
  return new Map(rows.map((r) => [r.reproduction, r.id]));
}
