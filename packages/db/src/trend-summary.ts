// The across-versions view's stored summary (TrendScenario, TrendPoint): kept up to date in the
// transaction that stores a cell's result (addCellToTrendSummary), rebuilt from the immutable results
// by rebuildTrendSummaries (`npm run db:rebuild-summaries`), and read per request without touching a
// cell (loadTrendScenarios, loadTrendPoints).
import {
  JobEnvironmentSchema,
  METRICS,
  TREND_METRICS,
  TrendPointBuilder,
  addToTrendPoint,
  optionText,
  parseJobSpec,
  parseStored,
  scanFigures,
  scenarioKey,
  scenarioLabel,
  trendPointKeyText,
  type JobSpec,
  type MetricSource,
  type ScenarioSummary,
  type StoredTrendPoint,
  type TrendEntry,
  type TrendPointKey,
  type TrendPointSummary,
  type TrendSample,
  type TrendSelection,
} from '@scb/shared';
import { judgeCell } from '@scb/shared/verdict';
import type { Db } from './client';
import { CELL_VERSION_KEY, type VerdictColumns } from './trend';
import { Prisma } from '../generated/prisma/client';
import { ColumnParser } from './read';

type Tx = Prisma.TransactionClient | Db;

/** A succeeded cell with what the summary reads of it. */
interface SummaryCellRow extends VerdictColumns {
  id: number;
  jobId: string;
  index: number;
  language: string;
  version: string;
  configLabel: string;
  concurrency: number;
  repeat: number;
  qps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  operations: Record<string, Record<string, unknown> | null> | null;
  /** A scan's row times (null for other workloads and cells stored before). */
  firstRowP50Ms: number | null;
  firstRowP99Ms: number | null;
  lastRowP50Ms: number | null;
  lastRowP99Ms: number | null;
}

// A Go client built against another grpc-go draws its own line; an uploaded build stands under its
// label and short id on the versions axis (clientVersionKey), never as the release it was built from.
const CELL_COLUMNS = Prisma.sql`c.id, c."jobId", c.index, c."clientLanguage" AS language, ${CELL_VERSION_KEY},
  CASE WHEN c."clientGrpcVersion" IS NULL THEN c."configLabel" ELSE c."configLabel" || ' · grpc ' || c."clientGrpcVersion" END AS "configLabel",
  c.concurrency, c.repeat, r.qps, r."p50Ms", r."p90Ms", r."p99Ms", r."p999Ms", r.operations, r."cpuMs", r."elapsedMs",
  r."firstRowP50Ms", r."firstRowP99Ms", r."lastRowP50Ms", r."lastRowP99Ms",
  r."driverLoopUtilization", r."targetLoopUtilization", r."targetAddedP50Ms", r."targetAddedP99Ms", r."targetCpuShare", r."machineBusyShare", r."machineRunnerShare"`;

/** What a job contributes: its scenario, and the cores its cells' verdicts weigh CPU against. */
type JobFacts = { ok: true; spec: JobSpec; scenarioKey: string; scenarioLabel: string; cores: number } | { ok: false; invalid: string };

function jobFactsOf(r: { id: string; spec: unknown; environment: unknown }): JobFacts {
  const p = new ColumnParser();
  const spec = p.take('spec', parseJobSpec(r.spec));
  const environment = p.take('environment', parseStored(JobEnvironmentSchema.nullable(), r.environment));
  const read = p.row(`stored job ${r.id}`, {}, { spec, environment });
  return read.ok
    ? { ok: true, spec: read.spec, scenarioKey: scenarioKey(read.spec), scenarioLabel: scenarioLabel(read.spec), cores: read.environment?.cores ?? 0 }
    : { ok: false, invalid: read.invalid };
}

/** Per database client: jobs already read (a job's spec never changes, nor its environment once a cell has run). */
const factsCache = new WeakMap<object, Map<string, JobFacts>>();
const FACTS_CACHE_MAX = 20_000;

async function jobFacts(db: Tx, ids: string[], cacheOwner: object = db): Promise<Map<string, JobFacts>> {
  let cache = factsCache.get(cacheOwner);
  if (!cache) factsCache.set(cacheOwner, (cache = new Map()));
  let missing = [...new Set(ids)].filter((id) => !cache.has(id));
  if (missing.length) {
    // Full: start again, and read every job asked for (not only those missing before the clear).
    if (cache.size + missing.length > FACTS_CACHE_MAX) {
      cache.clear();
      missing = [...new Set(ids)];
    }
    const rows = await db.job.findMany({ where: { id: { in: missing } }, select: { id: true, spec: true, environment: true } });
    for (const r of rows) cache.set(r.id, jobFactsOf(r));
  }
  return new Map(ids.flatMap((id) => (cache.has(id) ? [[id, cache.get(id)!] as const] : [])));
}

type LatencyField = 'qps' | 'p50Ms' | 'p90Ms' | 'p99Ms' | 'p999Ms';

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The points one cell adds to (every metric of its total and of each kind it stored), without `newJob`. */
function contributions(c: SummaryCellRow, facts: Extract<JobFacts, { ok: true }>): { key: TrendPointKey; entry: Omit<TrendEntry, 'newJob'> }[] {
  const verdict = judgeCell(
    {
      cpuMs: Number(c.cpuMs),
      elapsedMs: Number(c.elapsedMs),
      p50Ms: Number(c.p50Ms),
      p99Ms: Number(c.p99Ms),
      driverLoopUtilization: num(c.driverLoopUtilization),
      targetLoopUtilization: num(c.targetLoopUtilization),
      targetAddedP50Ms: num(c.targetAddedP50Ms),
      targetAddedP99Ms: num(c.targetAddedP99Ms),
      targetCpuShare: num(c.targetCpuShare),
      machineBusyShare: num(c.machineBusyShare),
      machineRunnerShare: num(c.machineRunnerShare),
      // A closed loop's agents, as the job page judges the cell (results/ceiling.ts).
      ...(facts.spec.arrivalRates ? {} : { agents: Number(c.concurrency) }),
    },
    facts.cores,
  ).kind;
  // The configuration's options come from the job's spec (as the chart always read them).
  const optionSet = optionText(facts.spec.configurations.find((x) => x.label === c.configLabel));
  const out: { key: TrendPointKey; entry: Omit<TrendEntry, 'newJob'> }[] = [];
  const operations = c.operations && typeof c.operations === 'object' ? c.operations : {};
  // A scan's rows per second and CPU per 1,000 rows (result-set/figures.ts) and its row times: the cell's and its scan kind's.
  const shape = facts.spec.workload.resultSet;
  const scans = Number(operations.scan?.count);
  const figures = shape ? scanFigures(shape.rows, { cpuMs: Number(c.cpuMs), elapsedMs: Number(c.elapsedMs), count: scans, operations: { scan: { count: scans } } }) : null;
  const scan: Partial<Record<keyof MetricSource, number | null>> | null = figures && {
    rowsPerSecond: figures.rowsPerSecond,
    cpuMsPer1kRows: figures.cpuMsPer1kRows,
    firstRowP50Ms: num(c.firstRowP50Ms),
    firstRowP99Ms: num(c.firstRowP99Ms),
    lastRowP50Ms: num(c.lastRowP50Ms),
    lastRowP99Ms: num(c.lastRowP99Ms),
  };
  for (const operation of ['', ...Object.keys(operations).sort()]) {
    for (const metric of TREND_METRICS) {
      const field = METRICS[metric].field;
      // Any other metric's field is a latency summary's, the cell's as its kinds'.
      const raw = METRICS[metric].derived ? (scan && (operation === '' || operation === 'scan') ? scan[field] : null) : operation ? operations[operation]?.[field] : c[field as LatencyField];
      const value = typeof raw === 'number' ? raw : Number.NaN;
      if (!Number.isFinite(value)) continue;
      out.push({
        key: { language: c.language, scenarioKey: facts.scenarioKey, concurrency: Number(c.concurrency), operation, metric, configLabel: c.configLabel, version: c.version },
        entry: { cellId: Number(c.id), jobId: c.jobId, index: Number(c.index), repeat: Number(c.repeat), value, verdict, optionSet },
      });
    }
  }
  return out;
}

const POINT_COLUMNS = Prisma.sql`language, "scenarioKey", concurrency, operation, metric, "configLabel", version, n, jobs, median, min, max, "clientBound", "harnessBound", "optionSets", sample`;

type PointRow = TrendPointKey & StoredTrendPoint;

/** Inserts or replaces points (one statement per batch). */
async function writePoints(tx: Tx, points: PointRow[]): Promise<void> {
  for (let i = 0; i < points.length; ) {
    // Batches of about 4 MB of values.
    let size = 0;
    const batch: PointRow[] = [];
    while (i < points.length && (batch.length === 0 || size < 500_000)) {
      size += points[i]!.values.length + 20;
      batch.push(points[i++]!);
    }
    await tx.$executeRaw`
      INSERT INTO "TrendPoint" (${POINT_COLUMNS}, "values")
      SELECT language, "scenarioKey", concurrency, operation, metric, "configLabel", version, n, jobs, median, min, max, "clientBound", "harnessBound",
        ARRAY(SELECT jsonb_array_elements_text(x."optionSets")), sample,
        ARRAY(SELECT v::float8 FROM jsonb_array_elements_text(x."values") WITH ORDINALITY AS e(v, o) ORDER BY o)
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS x(language text, "scenarioKey" text, concurrency int, operation text, metric text, "configLabel" text,
        version text, n int, jobs int, median float8, min float8, max float8, "clientBound" int, "harnessBound" int, "optionSets" jsonb, sample jsonb, "values" jsonb)
      ON CONFLICT (language, "scenarioKey", concurrency, operation, metric, "configLabel", version) DO UPDATE SET
        n = EXCLUDED.n, jobs = EXCLUDED.jobs, median = EXCLUDED.median, min = EXCLUDED.min, max = EXCLUDED.max, "clientBound" = EXCLUDED."clientBound",
        "harnessBound" = EXCLUDED."harnessBound", "optionSets" = EXCLUDED."optionSets", sample = EXCLUDED.sample, "values" = EXCLUDED."values"`;
  }
}

/**
 * Adds a just-succeeded cell to the summary, inside the transaction that stored its result (rows
 * locked, so concurrent cells of the same point add up). A job whose spec does not parse adds nothing
 * (as the view always left such jobs out).
 */
export async function addCellToTrendSummary(tx: Prisma.TransactionClient, cellId: number): Promise<void> {
  const [cell] = await tx.$queryRaw<(SummaryCellRow & { spec: unknown; environment: unknown })[]>`
    SELECT ${CELL_COLUMNS}, j.spec, j.environment
    FROM "Cell" c JOIN "CellResult" r ON r."cellId" = c.id JOIN "Job" j ON j.id = c."jobId"
    WHERE c.id = ${cellId} AND c.status = 'succeeded'`;
  if (!cell) return;
  const facts = jobFactsOf({ id: cell.jobId, spec: cell.spec, environment: cell.environment });
  if (!facts.ok) return;
  // Earlier succeeded cells of this job at the same language (for its scenario's jobs) and point (for the points').
  const earlier = await tx.$queryRaw<SummaryCellRow[]>`
    SELECT ${CELL_COLUMNS} FROM "Cell" c JOIN "CellResult" r ON r."cellId" = c.id
    WHERE c."jobId" = ${cell.jobId} AND c.status = 'succeeded' AND c.id <> ${cellId} AND c."clientLanguage" = ${cell.language}`;
  const samePoint = earlier.filter((e) => e.version === cell.version && e.configLabel === cell.configLabel && Number(e.concurrency) === Number(cell.concurrency));
  const seen = new Set(samePoint.flatMap((e) => contributions(e, facts).map((x) => trendPointKeyText(x.key))));

  const concurrency = String(Number(cell.concurrency));
  await tx.$executeRaw`
    INSERT INTO "TrendScenario" (language, "scenarioKey", jobs, concurrencies, "specJobId")
    VALUES (${cell.language}, ${facts.scenarioKey}, 1, jsonb_build_object(${concurrency}::text, 1), ${cell.jobId})
    ON CONFLICT (language, "scenarioKey") DO UPDATE SET
      jobs = "TrendScenario".jobs + ${earlier.length ? 0 : 1}::int,
      concurrencies = jsonb_set("TrendScenario".concurrencies, ARRAY[${concurrency}::text], to_jsonb(COALESCE(("TrendScenario".concurrencies ->> ${concurrency}::text)::int, 0) + 1)),
      "specJobId" = LEAST("TrendScenario"."specJobId", EXCLUDED."specJobId")`;

  const mine = contributions(cell, facts);
  if (!mine.length) return;
  const ops = mine.map((m) => m.key.operation);
  const metrics = mine.map((m) => m.key.metric);
  // Placeholder rows first (n = 0), in key order, so that every point can be locked before it is read.
  await tx.$executeRaw`
    INSERT INTO "TrendPoint" (${POINT_COLUMNS}, "values")
    SELECT ${cell.language}, ${facts.scenarioKey}, ${Number(cell.concurrency)}::int, o, m, ${cell.configLabel}, ${cell.version}, 0, 0, 0, 0, 0, 0, 0, '{}', '[]', '{}'
    FROM unnest(${ops}::text[], ${metrics}::text[]) AS k(o, m) ORDER BY o, m
    ON CONFLICT DO NOTHING`;
  const rows = await tx.$queryRaw<(PointRow & { values: number[] })[]>`
    SELECT ${POINT_COLUMNS}, "values" FROM "TrendPoint"
    WHERE language = ${cell.language} AND "scenarioKey" = ${facts.scenarioKey} AND concurrency = ${Number(cell.concurrency)}::int
      AND "configLabel" = ${cell.configLabel} AND version = ${cell.version}
      AND (operation, metric) IN (SELECT * FROM unnest(${ops}::text[], ${metrics}::text[]))
    ORDER BY operation, metric FOR UPDATE`;
  const byKey = new Map(rows.map((r) => [trendPointKeyText(r), r]));
  const updated = mine.map(({ key, entry }): PointRow => {
    const stored = byKey.get(trendPointKeyText(key));
    const prior = stored && stored.n > 0 ? readPoint(stored) : null;
    return { ...key, ...addToTrendPoint(prior, key, { ...entry, newJob: !seen.has(trendPointKeyText(key)) }) };
  });
  await writePoints(tx, updated);
}

function readPoint(r: PointRow): StoredTrendPoint {
  return {
    version: r.version,
    configLabel: r.configLabel,
    n: Number(r.n),
    jobs: Number(r.jobs),
    median: Number(r.median),
    min: Number(r.min),
    max: Number(r.max),
    clientBound: Number(r.clientBound),
    harnessBound: Number(r.harnessBound),
    optionSets: r.optionSets ?? [],
    sample: (r.sample ?? []) as TrendSample[],
    values: (r.values ?? []).map(Number),
  };
}

/**
 * Rebuilds the whole summary from the stored results, in one transaction: readers see the old one
 * until it commits, and cells stored meanwhile wait for it (the summary tables are locked from the
 * start, so none is left out). Reads the succeeded cells job by job, a batch at a time.
 */
export async function rebuildTrendSummaries(db: Db, opts: { batch?: number; onProgress?: (cells: number) => void } = {}): Promise<{ cells: number; points: number; scenarios: number }> {
  return db.$transaction((tx) => rebuildIn(tx, opts), { timeout: 3_600_000, maxWait: 60_000 });
}

async function rebuildIn(db: Prisma.TransactionClient, opts: { batch?: number; onProgress?: (cells: number) => void }): Promise<{ cells: number; points: number; scenarios: number }> {
  await db.$executeRaw`LOCK TABLE "TrendScenario", "TrendPoint" IN EXCLUSIVE MODE`;
  const batch = opts.batch ?? 5000;
  const points = new Map<string, { key: TrendPointKey; builder: TrendPointBuilder }>();
  const scenarios = new Map<string, { language: string; scenarioKey: string; jobs: number; concurrencies: Map<number, number>; specJobId: string }>();
  const cacheOwner = {};
  let cells = 0;
  let after: { jobId: string; index: number } | null = null;
  // Per job (cells come job by job): the points and languages it already added to.
  let currentJob = '';
  let jobPoints = new Set<string>();
  let jobLanguages = new Set<string>();
  for (;;) {
    const from: { jobId: string; index: number } | null = after;
    const rows: SummaryCellRow[] = await db.$queryRaw<SummaryCellRow[]>`
      SELECT ${CELL_COLUMNS} FROM "Cell" c JOIN "CellResult" r ON r."cellId" = c.id
      WHERE c.status = 'succeeded' ${from ? Prisma.sql`AND (c."jobId", c.index) > (${from.jobId}, ${from.index}::int)` : Prisma.empty}
      ORDER BY c."jobId", c.index LIMIT ${batch}`;
    if (!rows.length) break;
    const facts = await jobFacts(db, [...new Set(rows.map((r) => r.jobId))], cacheOwner);
    for (const c of rows) {
      if (c.jobId !== currentJob) {
        currentJob = c.jobId;
        jobPoints = new Set();
        jobLanguages = new Set();
      }
      const f = facts.get(c.jobId);
      if (!f?.ok) continue;
      cells++;
      const sk = `${c.language}\u0000${f.scenarioKey}`;
      let s = scenarios.get(sk);
      if (!s) scenarios.set(sk, (s = { language: c.language, scenarioKey: f.scenarioKey, jobs: 0, concurrencies: new Map(), specJobId: c.jobId }));
      if (!jobLanguages.has(c.language)) {
        jobLanguages.add(c.language);
        s.jobs++;
      }
      s.concurrencies.set(Number(c.concurrency), (s.concurrencies.get(Number(c.concurrency)) ?? 0) + 1);
      if (c.jobId < s.specJobId) s.specJobId = c.jobId;
      for (const { key, entry } of contributions(c, f)) {
        const k = trendPointKeyText(key);
        let p = points.get(k);
        if (!p) points.set(k, (p = { key, builder: new TrendPointBuilder() }));
        p.builder.add({ ...entry, newJob: !jobPoints.has(k) });
        jobPoints.add(k);
      }
    }
    const last = rows[rows.length - 1]!;
    after = { jobId: last.jobId, index: Number(last.index) };
    opts.onProgress?.(cells);
  }
  const built = [...points.values()].sort((a, b) => cmpText(trendPointKeyText(a.key), trendPointKeyText(b.key))).map(({ key, builder }): PointRow => ({ ...key, ...builder.build(key) }));
  await db.$executeRaw`DELETE FROM "TrendPoint"`;
  await db.$executeRaw`DELETE FROM "TrendScenario"`;
  const list = [...scenarios.values()].map((s) => ({ ...s, concurrencies: Object.fromEntries([...s.concurrencies].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v])) }));
  for (let i = 0; i < list.length; i += 1000) {
    await db.$executeRaw`
      INSERT INTO "TrendScenario" (language, "scenarioKey", jobs, concurrencies, "specJobId")
      SELECT language, "scenarioKey", jobs, concurrencies, "specJobId"
      FROM jsonb_to_recordset(${JSON.stringify(list.slice(i, i + 1000))}::jsonb) AS x(language text, "scenarioKey" text, jobs int, concurrencies jsonb, "specJobId" text)`;
  }
  await writePoints(db, built);
  return { cells, points: built.length, scenarios: scenarios.size };
}

function cmpText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The scenario index's figures: per language and scenario its jobs and succeeded cells per
 * concurrency, with one parsed spec per scenario key (a few rows, whatever the number of cells).
 */
export async function loadTrendScenarios(db: Db): Promise<{ summaries: ScenarioSummary[]; specs: Map<string, JobSpec>; invalid: { jobId: string; invalid: string }[] }> {
  const rows = await db.$queryRaw<{ language: string; scenarioKey: string; jobs: number; concurrencies: Record<string, number>; specJobId: string }[]>`
    SELECT language, "scenarioKey", jobs, concurrencies, "specJobId" FROM "TrendScenario"`;
  const facts = await jobFacts(
    db,
    rows.map((r) => r.specJobId),
  );
  const specs = new Map<string, JobSpec>();
  const labels = new Map<string, string>();
  const invalid: { jobId: string; invalid: string }[] = [];
  for (const r of [...rows].sort((a, b) => cmpText(a.specJobId, b.specJobId))) {
    const f = facts.get(r.specJobId);
    if (f && !f.ok && !invalid.some((i) => i.jobId === r.specJobId)) invalid.push({ jobId: r.specJobId, invalid: f.invalid });
    if (f?.ok && !specs.has(r.scenarioKey)) {
      specs.set(r.scenarioKey, f.spec);
      labels.set(r.scenarioKey, f.scenarioLabel);
    }
  }
  const summaries = rows.flatMap((r): ScenarioSummary[] =>
    labels.has(r.scenarioKey)
      ? [
          {
            language: r.language,
            key: r.scenarioKey,
            label: labels.get(r.scenarioKey)!,
            jobs: Number(r.jobs),
            concurrencies: Object.entries(r.concurrencies).map(([value, cells]) => ({ value: Number(value), cells: Number(cells) })),
          },
        ]
      : [],
  );
  return { summaries, specs, invalid };
}

/** The points of one selection (an index range of TrendPoint's key; never `values`). */
export async function loadTrendPoints(db: Db, s: Pick<TrendSelection, 'language' | 'metric' | 'operation'> & { scenario: string; concurrency: number }): Promise<TrendPointSummary[]> {
  const rows = await db.$queryRaw<PointRow[]>`
    SELECT ${POINT_COLUMNS} FROM "TrendPoint"
    WHERE language = ${s.language} AND "scenarioKey" = ${s.scenario} AND concurrency = ${s.concurrency}::int AND operation = ${s.operation ?? ''} AND metric = ${s.metric} AND n > 0`;
  return rows.map((r) => {
    const { values: _v, ...p } = readPoint({ ...r, values: [] });
    return p;
  });
}

/** Every stored point and scenario row, in key order (for comparing a rebuilt summary with the incremental one). */
export async function dumpTrendSummaries(db: Db): Promise<{ scenarios: unknown[]; points: unknown[] }> {
  const scenarios = await db.$queryRaw<unknown[]>`SELECT * FROM "TrendScenario" ORDER BY language, "scenarioKey"`;
  const points = await db.$queryRaw<unknown[]>`SELECT * FROM "TrendPoint" WHERE n > 0 ORDER BY language, "scenarioKey", concurrency, operation, metric, "configLabel", version`;
  return { scenarios, points };
}
