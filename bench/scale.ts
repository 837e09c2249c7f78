// `npm run bench:scale -- --cells 1000000` (or `--cells 40000,120000,1000000`): does every page and API
// route stay under 300 ms with years of stored results? Fills a fresh embedded PostgreSQL through SQL
// (finished 20-cell jobs shaped like the stored affinity-burst job of test/e2e: results with a
// histogram, timeline and per-kind figures, and 4 connections each; 8 scenarios over three languages,
// 40 client versions each, two configurations), rebuilds the across-versions summary as the migrator
// does, serves the production build (npm run build:web first) and prints each page's and route's
// median of three requests after one warm-up. With several sizes it fills up to each in turn. Before
// the first size is timed it adds what a team's years of gating hold: 6 release watches (2 a client)
// of WATCH_RELEASES releases each, a gate per release and scenario (2), and CI gates, up to GATES in
// all, each gate on a job of the fill (with a verdict, without a per-metric evaluation).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, createJob, getJobToRun, markCellRunning, markJobRunning, rebuildTrendSummaries, releaseQueue, storeCellResult, type CellResultInput } from '@scb/db';
import { migrate, startEmbeddedPostgres } from '@scb/db/setup';
import { encodeHistogram, GateSpecSchema, newLatencyHistogram, parseJobSpec, parseWatchSpec, watchGateSpec, type JobSpec } from '@scb/shared';
import { median } from '@scb/shared/stats';
import { freePort } from '../test/helpers/postgres';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CELLS_PER_JOB = 20;

function argSizes(): number[] {
  const i = process.argv.indexOf('--cells');
  const raw = i >= 0 ? process.argv[i + 1] : '40000';
  const sizes = (raw ?? '')
    .split(',')
    .map((s) => Number(s.replace(/_/g, '')))
    .sort((a, b) => a - b);
  if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < CELLS_PER_JOB || n > 5_000_000)) {
    console.error('bench:scale: --cells must be whole numbers from 20 to 5000000, comma-separated (e.g. --cells 40000,120000,1000000)');
    process.exit(2);
  }
  return sizes;
}
const sizes = argSizes();

const web = path.join(ROOT, 'apps/web');
if (!existsSync(path.join(web, '.next/BUILD_ID'))) {
  console.error('bench:scale: build the web app first: npm run build:web');
  process.exit(2);
}

// Scenarios: [language, versions, weight (share of jobs), spec fields]. The first java one is the
// affinity-burst experiment, the scenario most jobs run.
const range = (prefix: string, from: number, n: number, suffix: string) => Array.from({ length: n }, (_, i) => `${prefix}${from + i}${suffix}`);
const JAVA = range('6.', 80, 40, '.0');
const NODE = range('7.', 0, 40, '.0');
const GO = range('1.', 50, 40, '.0');
const SCENARIOS: { language: 'java' | 'node' | 'go'; versions: string[]; weight: number; fields: Record<string, unknown> }[] = [
  { language: 'java', versions: JAVA, weight: 40, fields: { concurrency: [400], timeScale: 10, workload: { operation: 'select1', warmupOps: 200, measuredOps: 2000 } } },
  { language: 'java', versions: JAVA, weight: 10, fields: { concurrency: [50], timeScale: 10, workload: { operation: 'select1', warmupOps: 200, measuredOps: 2000 } } },
  { language: 'java', versions: JAVA, weight: 10, fields: { concurrency: [100], timeScale: 1, workload: { durationSeconds: 5 } } },
  {
    language: 'java',
    versions: JAVA,
    weight: 10,
    fields: {
      concurrency: [200],
      workload: {
        durationSeconds: 5,
        mix: [
          { operation: 'select1', weight: 4 },
          { operation: 'readWriteTxn', weight: 1 },
        ],
      },
    },
  },
  { language: 'node', versions: NODE, weight: 10, fields: { concurrency: [100], timeScale: 10, workload: { durationSeconds: 5 } } },
  { language: 'node', versions: NODE, weight: 5, fields: { concurrency: [20], workload: { durationSeconds: 5 } } },
  { language: 'go', versions: GO, weight: 10, fields: { concurrency: [100], timeScale: 10, workload: { durationSeconds: 5 } } },
  { language: 'go', versions: GO, weight: 5, fields: { concurrency: [400], workload: { durationSeconds: 5 } } },
];

/** Each scenario's specs, one per pair of consecutive versions (a job compares two). */
const specs: { scenario: number; spec: JobSpec; versions: [string, string]; language: string; mix: boolean }[] = [];
SCENARIOS.forEach((s, scenario) => {
  for (let v = 0; v + 1 < s.versions.length; v += 2) {
    const versions: [string, string] = [s.versions[v]!, s.versions[v + 1]!];
    const grpc =
      s.language === 'go'
        ? [{ label: 'default' }, { label: 'numChannels 8', numChannels: 8 }]
        : [
            { label: 'grpc-gcp on', grpcGcp: 'on' },
            { label: 'grpc-gcp off', grpcGcp: 'off' },
          ];
    const p = parseJobSpec({ name: `scale ${scenario}`, clients: versions.map((version) => ({ language: s.language, version })), configurations: grpc, repeats: 5, ...s.fields });
    if (!p.ok) throw new Error(`bad bench spec: ${JSON.stringify(p)}`);
    specs.push({ scenario, spec: p.value, versions, language: s.language, mix: !!p.value.workload.mix });
  }
});
// Job g runs spec JOB_SPEC[g % length]: scenarios in proportion to their weight, version pairs in turn.
const jobSpec: number[] = [];
SCENARIOS.forEach((s, scenario) => {
  const mine = specs.flatMap((x, i) => (x.scenario === scenario ? [i] : []));
  for (let w = 0; w < s.weight; w++) jobSpec.push(mine[w % mine.length]!);
});

const h = newLatencyHistogram();
for (let i = 0; i < 5000; i++) h.recordValue(65_000 + Math.round(Math.random() * 20_000));
const HISTOGRAM = encodeHistogram(h);
const TIMELINE = Array.from({ length: 10 }, (_, i) => ({ second: i + 1, count: 700, errors: 0, p99Ms: 80, ms: 1000 }));

const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-bench-scale-'));
const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort() });
await migrate(server.url);
const sql = new pg.Client({ connectionString: server.url });
await sql.connect();
// Finished rows are refused by triggers (finished_immutable) once finished: the fill writes them finished at once.
await sql.query('SET session_replication_role = replica');
await sql.query('CREATE TEMP TABLE bench_spec (si int PRIMARY KEY, spec jsonb, v1 text, v2 text, language text, mix boolean)');
await sql.query("INSERT INTO bench_spec SELECT (x->>'i')::int, x->'spec', x->>'v1', x->>'v2', x->>'language', (x->>'mix')::boolean FROM jsonb_array_elements($1::jsonb) x", [
  JSON.stringify(specs.map((s, i) => ({ i, spec: s.spec, v1: s.versions[0], v2: s.versions[1], language: s.language, mix: s.mix }))),
]);
await sql.query('CREATE TEMP TABLE bench_job_spec (slot int PRIMARY KEY, si int)');
await sql.query('INSERT INTO bench_job_spec SELECT g - 1, i FROM unnest($1::int[]) WITH ORDINALITY AS x(i, g)', [jobSpec]);

let jobs = 0;
/** Adds finished jobs g in [from, to). */
async function fill(from: number, to: number) {
  const y = 365 * 24 * 3600;
  await sql.query('BEGIN');
  await sql.query(
    `INSERT INTO "Job" (id, "createdAt", "startedAt", "finishedAt", status, name, spec, "cellsTotal", environment, "createdBy")
     SELECT 'scale' || lpad(g::text, 8, '0'), t, t, t + interval '5 minutes', 'succeeded', s.spec->>'name', s.spec, ${CELLS_PER_JOB},
       '{"host":"seed","cores":2,"toolchains":{"node":"v20"},"commit":null}'::jsonb, 'local'
     FROM generate_series($1::int, $2::int - 1) g
     JOIN bench_job_spec js ON js.slot = g % $3::int JOIN bench_spec s ON s.si = js.si
     CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ${y} - g * 0.5)) AS tt(t)`,
    [from, to, jobSpec.length],
  );
  // Cell i of a job: version i / 10, configuration (i / 5) % 2, repeat i % 5 + 1.
  await sql.query(
    `INSERT INTO "Cell" ("jobId", index, "clientLanguage", "clientVersion", "configLabel", config, concurrency, repeat, status, "startedAt", "finishedAt", attempts)
     SELECT 'scale' || lpad(g::text, 8, '0'), i, s.language, CASE WHEN i < 10 THEN s.v1 ELSE s.v2 END,
       s.spec->'configurations'->((i / 5) % 2)->>'label', s.spec->'configurations'->((i / 5) % 2), (s.spec->'concurrency'->>0)::int, i % 5 + 1,
       'succeeded', now(), now(), 1
     FROM generate_series($1::int, $2::int - 1) g
     JOIN bench_job_spec js ON js.slot = g % $3::int JOIN bench_spec s ON s.si = js.si
     CROSS JOIN generate_series(0, ${CELLS_PER_JOB - 1}) i`,
    [from, to, jobSpec.length],
  );
  // Throughput: a version's level, grpc-gcp off 20% lower after the 20th version, noise of 10%.
  await sql.query(
    `INSERT INTO "CellResult" ("cellId", count, "errorCount", errors, "elapsedMs", qps, "p50Ms", "p90Ms", "p99Ms", "p999Ms", "maxMs", histogram, timeline, "cpuMs",
       "serverRpcs", "targetAddedP50Ms", "targetAddedP99Ms", "targetLoopUtilization", "targetLoopDelayP99Ms", "machineBusyShare", "machineRunnerShare", "machineLoad1", operations)
     SELECT c.id, 2000, 0, '{}', 3000, q, 600 + 60 * r, 650 + 60 * r, 700 + 80 * r, 760 + 90 * r, 800 + 100 * r, $3, $4::jsonb, 900, 2600, 0.2, 1.5, 0.1, 2, 0.4, 0.2, 1.1,
       CASE WHEN j.spec->'workload' ? 'mix'
         THEN jsonb_build_object('select1', jsonb_build_object('count', 1600, 'qps', q * 0.8, 'p50Ms', 600 + 60 * r, 'p90Ms', 650 + 60 * r, 'p99Ms', 700 + 80 * r, 'p999Ms', 760 + 90 * r, 'maxMs', 800, 'errorCount', 0, 'errors', '{}'::jsonb),
                                 'readWriteTxn', jsonb_build_object('count', 400, 'qps', q * 0.2, 'p50Ms', 1800 + 60 * r, 'p90Ms', 1900 + 60 * r, 'p99Ms', 2100 + 80 * r, 'p999Ms', 2300 + 90 * r, 'maxMs', 2400, 'errorCount', 0, 'errors', '{}'::jsonb))
         ELSE jsonb_build_object('select1', jsonb_build_object('count', 2000, 'qps', q, 'p50Ms', 600 + 60 * r, 'p90Ms', 650 + 60 * r, 'p99Ms', 700 + 80 * r, 'p999Ms', 760 + 90 * r, 'maxMs', 800, 'errorCount', 0, 'errors', '{}'::jsonb)) END
     FROM "Cell" c JOIN "Job" j ON j.id = c."jobId"
     CROSS JOIN LATERAL (SELECT random() AS r) rr
     CROSS JOIN LATERAL (SELECT c.concurrency / 0.065 * (0.9 + 0.1 * r) * CASE WHEN c."configLabel" LIKE '%off%' AND split_part(c."clientVersion", '.', 2)::int % 40 >= 20 THEN 0.8 ELSE 1 END AS q) qq
     WHERE c."jobId" >= 'scale' || lpad($1::text, 8, '0') AND c."jobId" < 'scale' || lpad($2::text, 8, '0')`,
    [from, to, HISTOGRAM, JSON.stringify(TIMELINE)],
  );
  await sql.query(
    `INSERT INTO "ChannelStat" ("cellId", source, connection, peer, rpcs, "peakInFlight")
     SELECT c.id, 'fake', n, '127.0.0.1:' || (40000 + n), 650 + n, 100 + n
     FROM "Cell" c CROSS JOIN generate_series(0, 3) n
     WHERE c."jobId" >= 'scale' || lpad($1::text, 8, '0') AND c."jobId" < 'scale' || lpad($2::text, 8, '0')`,
    [from, to],
  );
  await sql.query('COMMIT');
  jobs = to;
}

const WATCH_RELEASES = 100;
const GATES = 2000;

/** Watches and gates, once (their jobs are the first GATES of the fill). */
async function seedGates() {
  const n = Math.min(GATES, jobs);
  const y = 365 * 24 * 3600 * 1000;
  const start = Date.now() - y;
  const at = (i: number, of: number) => new Date(start + (y * i) / of).toISOString();
  const verdictOf = (i: number) => (i % 17 === 0 ? 'fail' : i % 11 === 0 ? 'inconclusive' : 'pass');
  const watches: { id: string; spec: unknown; createdAt: string; releaseDates: Record<string, string> }[] = [];
  const gates: Record<string, unknown>[] = [];
  const lines: Record<string, (i: number) => string> = { java: (i) => `6.${i}.0`, node: (i) => `7.${i}.0`, go: (i) => `1.${i}.0` };
  for (const [w, language] of ['java', 'java', 'node', 'node', 'go', 'go'].entries()) {
    const parsed = parseWatchSpec({ name: `scale ${w}`, language, scenarios: ['affinity-burst', 'steady-select1'], since: lines[language]!(1) });
    if (!parsed.ok) throw new Error(`bad bench watch: ${JSON.stringify(parsed)}`);
    const id = `scalew${String(w).padStart(8, '0')}`;
    const releaseDates: Record<string, string> = {};
    for (let r = 1; r <= WATCH_RELEASES && gates.length + 2 <= n; r++) {
      const version = lines[language]!(r);
      releaseDates[version] = at(r, WATCH_RELEASES + 1);
      parsed.value.scenarios.forEach((scenario, i) => {
        const g = gates.length;
        gates.push({
          id: `scaleg${String(g).padStart(8, '0')}`,
          createdAt: at(r, WATCH_RELEASES + 1),
          finishedAt: at(r + 0.1, WATCH_RELEASES + 1),
          spec: watchGateSpec(parsed.value, scenario, { version, predecessor: lines[language]!(r - 1) }),
          jobId: `scale${String(g).padStart(8, '0')}`,
          verdict: verdictOf(g),
          watchId: id,
          watchVersion: version,
          watchScenario: i,
        });
      });
    }
    watches.push({ id, spec: parsed.value, createdAt: at(0, 1), releaseDates });
  }
  for (let g = gates.length; g < n; g++) {
    const spec = GateSpecSchema.parse({ scenario: 'affinity-burst', language: 'java', baseline: JAVA[g % 39]!, candidate: JAVA[(g % 39) + 1]! });
    gates.push({
      id: `scaleg${String(g).padStart(8, '0')}`,
      createdAt: at(g, n),
      finishedAt: at(g + 0.5, n),
      spec,
      jobId: `scale${String(g).padStart(8, '0')}`,
      verdict: verdictOf(g),
      watchId: null,
      watchVersion: null,
      watchScenario: null,
    });
  }
  await sql.query(
    `INSERT INTO "Watch" (id, "createdAt", spec, "createdBy", "releaseDates", "polledAt")
     SELECT id, "createdAt", spec, 'local', "releaseDates", now() FROM jsonb_to_recordset($1::jsonb) AS x(id text, "createdAt" timestamptz, spec jsonb, "releaseDates" jsonb)`,
    [JSON.stringify(watches)],
  );
  await sql.query(
    `INSERT INTO "Gate" (id, "createdAt", "finishedAt", spec, "jobId", verdict, "createdBy", "watchId", "watchVersion", "watchScenario")
     SELECT id, "createdAt", "finishedAt", spec, "jobId", verdict, 'local', "watchId", "watchVersion", "watchScenario"
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, "createdAt" timestamptz, "finishedAt" timestamptz, spec jsonb, "jobId" text, verdict text, "watchId" text, "watchVersion" text, "watchScenario" int)`,
    [JSON.stringify(gates)],
  );
  return { watches: watches.length, watchGates: gates.filter((g) => g.watchId).length, gates: gates.length };
}

const next = path.join(path.dirname(fileURLToPath(import.meta.resolve('next/package.json'))), 'dist/bin/next');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const app = spawn(process.execPath, [next, 'start', '-p', String(port)], { cwd: web, env: { ...process.env, DATABASE_URL: server.url, NEXT_TELEMETRY_DISABLED: '1' }, stdio: 'ignore' });
for (let i = 0; i < 150; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 200));
}

/** Median of three requests after one warm-up, in ms. */
async function time(urlPath: string): Promise<{ ms: number; status: number }> {
  const once = async () => {
    const s = performance.now();
    const res = await fetch(base + urlPath);
    await res.text();
    return { ms: performance.now() - s, status: res.status };
  };
  await once();
  const runs = [await once(), await once(), await once()];
  return { ms: median(runs.map((r) => r.ms)), status: runs[2]!.status };
}

const db = createDb(server.url);
const results = new Map<string, Map<number, { ms: number; status: number }>>();
const notes: string[] = [];
for (const size of sizes) {
  const target = Math.ceil(size / CELLS_PER_JOB);
  const t0 = performance.now();
  for (let g = jobs; g < target; g += 2500) await fill(g, Math.min(target, g + 2500));
  const seeded = size === sizes[0] ? await seedGates() : null;
  await sql.query('ANALYZE');
  const fillMs = performance.now() - t0;
  if (seeded) console.log(`seeded ${seeded.watches} watches with ${seeded.watchGates} gates, and ${seeded.gates - seeded.watchGates} other gates`);
  const t1 = performance.now();
  const rebuilt = await rebuildTrendSummaries(db);
  const rebuildMs = performance.now() - t1;
  // One cell stored as a runner stores it, into the busiest point (its summary has the most values).
  const busiest = specs.find((s) => s.scenario === 0)!;
  const id = await createJob(db, server.url, busiest.spec);
  await markJobRunning(db, id, { host: 'bench', cores: 2, node: process.version });
  // Its first four cells are repeats of one point: the first stored, then the median of the next three.
  const stores: number[] = [];
  for (const cell of (await getJobToRun(db, id))!.cells.slice(0, 4)) {
    await markCellRunning(db, cell.id);
    const t2 = performance.now();
    await storeCellResult(db, cell.id, oneResult());
    stores.push(performance.now() - t2);
  }
  notes.push(
    `${size} cells: filled ${(fillMs / 1000).toFixed(1)} s, summary rebuilt from ${rebuilt.cells} cells (${rebuilt.points} points) in ${(rebuildMs / 1000).toFixed(1)} s, a cell stored into the busiest point in ${Math.round(stores[0]!)} ms (the first), ${Math.round(median(stores.slice(1)))} ms (median of the next three)`,
  );
  const last = `scale${String(jobs - 1).padStart(8, '0')}`;
  const first = 'scale00000000';
  const javaKey = (
    await sql.query<{ k: string }>(`SELECT "scenarioKey" AS k FROM "TrendScenario" WHERE language = 'java' ORDER BY (SELECT sum(v::int) FROM jsonb_each_text(concurrencies) AS e(k, v)) DESC LIMIT 1`)
  ).rows[0]!.k;
  const routes = [
    '/',
    '/api/jobs',
    '/api/jobs?offset=1000',
    `/jobs/${last}`,
    `/api/jobs/${last}`,
    `/api/jobs/${last}/csv`,
    `/api/jobs/${last}/markdown`,
    `/compare?jobs=${first},${last}`,
    `/api/compare?jobs=${first},${last}`,
    '/versions?language=java',
    `/versions?language=java&scenario=${javaKey}&metric=p99`,
    '/api/versions-chart?language=java',
    '/api/versions-chart?language=node',
    '/jobs/new',
    '/api/presets',
    '/gates',
    '/api/gates',
    '/gates?page=10',
    '/api/gates?page=10',
    '/gates/scaleg00001900',
    '/watch',
    '/api/watches',
    '/watch/feed.xml',
    '/watch/scalew00000000',
    '/watch/scalew00000000?page=4',
    '/api/watches/scalew00000000',
    '/api/watches/scalew00000000?page=4',
    '/api/watches/scalew00000000/badge.svg',
    '/watch/scalew00000000/feed.xml',
    '/reproductions',
    '/api/reproductions',
    '/runners',
    '/api/runners',
  ];
  for (const r of routes) {
    const key = r.replace(/scale[gw]?\d{8}/g, '<id>').replace(javaKey, '<key>');
    if (!results.has(key)) results.set(key, new Map());
    results.get(key)!.set(size, await time(r));
  }
  console.log(notes[notes.length - 1]);
}

function oneResult(): CellResultInput {
  return {
    count: 2000,
    errorCount: 0,
    errors: {},
    elapsedMs: 3000,
    qps: 6000,
    p50Ms: 650,
    p90Ms: 700,
    p99Ms: 780,
    p999Ms: 850,
    maxMs: 900,
    histogram: HISTOGRAM,
    timeline: TIMELINE,
    cpuMs: 900,
    serverRpcs: 2600,
    targetAddedP50Ms: 0.2,
    targetAddedP99Ms: 1.5,
    targetWireAddedP50Ms: null,
    targetWireAddedP99Ms: null,
    driverLoopUtilization: null,
    driverLoopDelayP99Ms: null,
    targetLoopUtilization: 0.1,
    targetLoopDelayP99Ms: 2,
    targetCpuShare: null,
    machineBusyShare: 0.4,
    machineRunnerShare: 0.2,
    machineLoad1: 1.1,
    capped: null,
    uncorrected: null,
    scheduleLagP99Ms: null,
    scheduleLagMaxMs: null,
    outstandingCapWaits: null,
    events: null,
    tokens: null,
    operations: { select1: { count: 2000, qps: 6000, p50Ms: 650, p90Ms: 700, p99Ms: 780, p999Ms: 850, maxMs: 900, errorCount: 0, errors: {} } },
    channels: Array.from({ length: 4 }, (_, n) => ({ source: 'fake', connection: n, peer: `127.0.0.1:${40000 + n}`, rpcs: 650, peakInFlight: 100 })),
  };
}

const head = `| page or route | ${sizes.map((s) => `${s.toLocaleString('en')} cells`).join(' | ')} |`;
console.log(`\n${head}\n| --- | ${sizes.map(() => '---:').join(' | ')} |`);
for (const [route, bySize] of results) {
  const cells = sizes.map((s) => {
    const r = bySize.get(s);
    if (!r) return '–';
    return `${Math.round(r.ms)} ms${r.status === 200 ? '' : ` (HTTP ${r.status})`}${r.ms >= 300 ? ' **over 300**' : ''}`;
  });
  console.log(`| \`${route}\` | ${cells.join(' | ')} |`);
}
console.log(`\nmedian of 3 requests after one warm-up; machine: ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`);

// The queue's pool may still hold a connection when the server stops: its termination is expected here.
process.on('uncaughtException', (e) => {
  if ((e as { code?: string }).code !== '57P01') throw e;
});
app.kill();
await db.$disconnect();
await sql.end();
await releaseQueue();
await server.stop();
rmSync(dir, { recursive: true, force: true });
