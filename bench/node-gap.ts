// `npm run bench:node-gap`: where a Node cell's latency above the server's 65 ms goes, at concurrency
// 10. Side by side in one run, alternated over rounds (median of rounds), each against a fresh fake on
// its own thread: a raw grpc-js client (bench/fake-load.ts: ExecuteStreamingSql streams, one
// connection, no Spanner client) and @google-cloud/spanner 9.0.0 through the product's Node driver.
// Prints the decomposition; nothing is asserted.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { startFakeSpannerThread } from '@scb/fake-spanner';
import { prepareDriver } from '@scb/languages';
import { decodeHistogram, median, parseJobSpec, planCells, summarize } from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { CACHE_DIR } from '../apps/runner/src/paths';

const LATENCY_MS = 65;
const CONCURRENCY = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Row {
  p50Ms: number;
  p99Ms: number;
  qps: number;
  addedP50Ms: number;
  addedP99Ms: number;
  loop?: number;
}

async function rawGrpc(): Promise<Row> {
  const fake = await startFakeSpannerThread({ latencyMs: LATENCY_MS });
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/fake-load.ts', String(fake.port), String(CONCURRENCY), '1', String(SECONDS), String(LATENCY_MS)], { encoding: 'utf8' });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { count: number; elapsedMs: number; p50Ms: number; p99Ms: number };
    const added = (await fake.stats()).added;
    return { p50Ms: r.p50Ms, p99Ms: r.p99Ms, qps: (r.count * 1000) / r.elapsedMs, addedP50Ms: added?.p50Ms ?? Number.NaN, addedP99Ms: added?.p99Ms ?? Number.NaN };
  } finally {
    await fake.stop();
  }
}

const parsed = parseJobSpec({
  clients: [{ language: 'node', version: '9.0.0' }],
  configurations: [{ label: 'client default' }],
  concurrency: [CONCURRENCY],
  target: { kind: 'fake', latencyMs: LATENCY_MS },
  workload: { warmupOps: 1000, durationSeconds: SECONDS },
});
if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
const spec = parsed.value;
const [plan] = planCells(spec);
const launch = await prepareDriver(plan!.client, { cacheDir: CACHE_DIR, log: () => {} });

async function nodeClient(): Promise<Row> {
  const out = await runCell(spec, plan!, launch);
  const s = summarize(decodeHistogram(out.result.histogram), out.result.elapsedMs);
  return { p50Ms: s.p50Ms, p99Ms: s.p99Ms, qps: s.qps, addedP50Ms: out.targetAdded?.p50Ms ?? Number.NaN, addedP99Ms: out.targetAdded?.p99Ms ?? Number.NaN, loop: out.result.eventLoop?.utilization };
}

const raw: Row[] = [];
const client: Row[] = [];
for (let i = 0; i < ROUNDS; i++) {
  raw.push(await rawGrpc());
  client.push(await nodeClient());
  process.stderr.write('.');
}
process.stderr.write('\n');

const med = (rows: Row[], k: keyof Row) => median(rows.map((r) => r[k] as number));
const f = (x: number) => x.toFixed(1);
const fakeP50 = LATENCY_MS + med(client, 'addedP50Ms');
console.log(`Node latency at C=${CONCURRENCY}, fake at ${LATENCY_MS} ms, ${SECONDS} s measured, median of ${ROUNDS} alternated rounds; ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}`);
console.table([
  { what: 'configured server time', 'p50 ms': f(LATENCY_MS), 'p99 ms': f(LATENCY_MS), qps: '', 'above the previous row (p50)': '' },
  {
    what: "the fake's measured time per RPC (configured + its added time)",
    'p50 ms': f(fakeP50),
    'p99 ms': f(LATENCY_MS + med(client, 'addedP99Ms')),
    qps: '',
    'above the previous row (p50)': f(fakeP50 - LATENCY_MS),
  },
  {
    what: 'raw grpc-js client, one connection',
    'p50 ms': f(med(raw, 'p50Ms')),
    'p99 ms': f(med(raw, 'p99Ms')),
    qps: Math.round(med(raw, 'qps')),
    'above the previous row (p50)': f(med(raw, 'p50Ms') - fakeP50),
  },
  {
    what: `@google-cloud/spanner 9.0.0 (driver loop ${Math.round(100 * med(client, 'loop'))}% busy)`,
    'p50 ms': f(med(client, 'p50Ms')),
    'p99 ms': f(med(client, 'p99Ms')),
    qps: Math.round(med(client, 'qps')),
    'above the previous row (p50)': f(med(client, 'p50Ms') - med(raw, 'p50Ms')),
  },
]);
console.log('rounds, raw grpc-js p50:', raw.map((r) => f(r.p50Ms)).join(', '), '| client p50:', client.map((r) => f(r.p50Ms)).join(', '));
