// The across-versions query of the trend chart (/versions, GET /api/versions-chart): which jobs have
// succeeded cells, and the one metric of the selected cells. The chart model is built from these rows
// by @scb/shared's trend module.
import { JobEnvironmentSchema, METRICS, parseJobSpec, parseStored, scenarioKey, scenarioLabel, type JobCellCounts, type JobSpec, type Operation, type TrendMetric } from '@scb/shared';
import type { Db } from './client';
import { Prisma } from '../generated/prisma/client';
import { ColumnParser } from './read';

/**
 * A cell's entry on the versions axis, as clientVersionKey (@scb/shared) writes it: its version, or an
 * uploaded build's label and short id, never the release it was built from.
 */
export const CELL_VERSION_KEY = Prisma.raw(
  `CASE WHEN c."clientArtifact" IS NULL THEN c."clientVersion" ELSE COALESCE(c."clientLabel", 'build') || ' (' || left(c."clientArtifact", 19) || ')' END AS version`,
);

/** A job with succeeded cells: its spec, scenario, cores and succeeded cells per language and concurrency. */
export interface TrendJob extends JobCellCounts {
  scenarioLabel: string;
  /** Cores of the machine it ran on (0 when unknown), for telling CPU-bound cells. */
  cores: number;
}

/** What a job contributes; a job's spec never changes, nor its environment once a cell has run. */
type JobFacts = { ok: true; spec: JobSpec; scenarioKey: string; scenarioLabel: string; cores: number } | { ok: false; invalid: string };

/** Per database client: jobs already seen (bounded; cleared when full). */
const factsCache = new WeakMap<Db, Map<string, JobFacts>>();
const FACTS_CACHE_MAX = 50_000;

async function jobFacts(db: Db, ids: string[]): Promise<Map<string, JobFacts>> {
  let cache = factsCache.get(db);
  if (!cache) factsCache.set(db, (cache = new Map()));
  let missing = ids.filter((id) => !cache.has(id));
  if (missing.length) {
    // Full: start again, and read every job asked for (not only those missing before the clear).
    if (cache.size + missing.length > FACTS_CACHE_MAX) {
      cache.clear();
      missing = ids;
    }
    const rows = await db.job.findMany({ where: { id: { in: missing } }, select: { id: true, spec: true, environment: true } });
    for (const r of rows) {
      const p = new ColumnParser();
      const spec = p.take('spec', parseJobSpec(r.spec));
      const environment = p.take('environment', parseStored(JobEnvironmentSchema.nullable(), r.environment));
      const read = p.row(`stored job ${r.id}`, {}, { spec, environment });
      cache.set(
        r.id,
        read.ok
          ? { ok: true, spec: read.spec, scenarioKey: scenarioKey(read.spec), scenarioLabel: scenarioLabel(read.spec), cores: read.environment?.cores ?? 0 }
          : { ok: false, invalid: read.invalid },
      );
    }
  }
  return new Map(ids.flatMap((id) => (cache.has(id) ? [[id, cache.get(id)!] as const] : [])));
}

/**
 * Every job with succeeded cells, counted per language and concurrency (one query, whatever the
 * number of jobs), with its spec parsed once per process. Jobs whose stored spec does not parse are
 * left out and listed in `invalid`.
 */
export async function loadTrendJobs(db: Db): Promise<{ jobs: TrendJob[]; invalid: { jobId: string; invalid: string }[] }> {
  const counts = await db.cell.groupBy({ by: ['jobId', 'clientLanguage', 'concurrency'], where: { status: 'succeeded' }, _count: { _all: true } });
  const countsByJob = new Map<string, TrendJob['counts']>();
  for (const c of counts) {
    const list = countsByJob.get(c.jobId) ?? [];
    list.push({ language: c.clientLanguage, concurrency: c.concurrency, cells: c._count._all });
    countsByJob.set(c.jobId, list);
  }
  const jobs: TrendJob[] = [];
  const invalid: { jobId: string; invalid: string }[] = [];
  for (const [jobId, f] of await jobFacts(db, [...countsByJob.keys()])) {
    if (!f.ok) invalid.push({ jobId, invalid: f.invalid });
    else jobs.push({ jobId, spec: f.spec, scenarioKey: f.scenarioKey, scenarioLabel: f.scenarioLabel, cores: f.cores, counts: countsByJob.get(jobId) ?? [] });
  }
  return { jobs, invalid };
}

/** One succeeded cell of the selection with the selected metric's value. */
/** The columns of a stored result a verdict reads (null where not measured). */
export interface VerdictColumns {
  cpuMs: number;
  elapsedMs: number;
  driverLoopUtilization: number | null;
  targetLoopUtilization: number | null;
  targetAddedP50Ms: number | null;
  targetAddedP99Ms: number | null;
  targetCpuShare: number | null;
  machineBusyShare: number | null;
  machineRunnerShare: number | null;
}

export interface TrendRow extends VerdictColumns {
  jobId: string;
  version: string;
  configLabel: string;
  repeat: number;
  /** The metric; NaN where the cell stored no figure for the operation kind asked. */
  value: number;
  /** The p99 the fake's added time is weighed against. */
  p50Ms: number;
  p99Ms: number;
}

/**
 * The succeeded cells of these jobs for one language and concurrency, joined to the one result
 * column the metric needs (never the histogram or the timeline), in job and cell order.
 */
export async function loadTrendRows(db: Db, q: { language: string; concurrency: number; jobIds: string[]; metric: TrendMetric; operation?: Operation | null }): Promise<TrendRow[]> {
  // The column comes from a fixed list (METRICS), never from the request; an operation kind's figure
  // is the same field of its summary in CellResult.operations (null where a cell stored none).
  if (METRICS[q.metric].derived) throw new Error(`${q.metric} is derived from a scan's result set: the across-versions summary holds it`);
  const field = METRICS[q.metric].field;
  const column = q.operation ? Prisma.sql`(r.operations -> ${q.operation}::text ->> ${field}::text)::float8` : Prisma.raw(`r."${field}"`);
  const rows = await db.$queryRaw<(Omit<TrendRow, 'value'> & { value: number | null })[]>`
    SELECT c."jobId", ${CELL_VERSION_KEY},
      -- A Go client built against another grpc-go draws its own line.
      CASE WHEN c."clientGrpcVersion" IS NULL THEN c."configLabel" ELSE c."configLabel" || ' · grpc ' || c."clientGrpcVersion" END AS "configLabel",
      c.repeat, ${column} AS value, r."cpuMs", r."elapsedMs", r."p50Ms", r."p99Ms", r."driverLoopUtilization", r."targetLoopUtilization",
      r."targetAddedP50Ms", r."targetAddedP99Ms", r."targetCpuShare", r."machineBusyShare", r."machineRunnerShare"
    FROM "Cell" c JOIN "CellResult" r ON r."cellId" = c.id
    WHERE c.status = 'succeeded' AND c."clientLanguage" = ${q.language} AND c.concurrency = ${q.concurrency}
      AND c."jobId" = ANY(${q.jobIds})
    ORDER BY c."jobId", c.index`;
  return rows.map((r) => ({
    ...r,
    repeat: Number(r.repeat),
    value: r.value === null ? Number.NaN : Number(r.value),
    cpuMs: Number(r.cpuMs),
    elapsedMs: Number(r.elapsedMs),
    p50Ms: Number(r.p50Ms),
    p99Ms: Number(r.p99Ms),
  }));
}
