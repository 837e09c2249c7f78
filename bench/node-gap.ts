// `npm run bench:node-gap`: where a Node cell's latency above the server's 65 ms goes, at concurrency
// 10, against one fake in a process of its own (the CLI, as a user runs it). Side by side in one run,
// alternated over rounds (median of rounds): the C-core gRPC client (Python grpcio from PyPI, in a venv
// of the cache) and a raw grpc-js client, both streaming ExecuteStreamingSql on one connection with no
// Spanner client; then @google-cloud/spanner 9.0.0 and, for another client library, Go's 1.96.1, each
// through the product's driver. Prints the decomposition; nothing is asserted.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareDriver, runDriver } from '@scb/languages';
import { decodeHistogram, median, summarize, type Client } from '@scb/shared';
import { spannerService } from '../packages/fake-spanner/src/proto';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { defaultCellOn } from '../test/helpers/cells';
import { startFakeProcess, type FakeProcess } from './fake-process';

const LATENCY_MS = 65;
const CONCURRENCY = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GRPCIO = '1.85.3';

interface Row {
  p50Ms: number;
  p99Ms: number;
  qps: number;
  /** The fake's own added time per RPC over the same run (its admin API). */
  addedP50Ms: number;
}

/** A venv with grpcio in the cache, made once. */
function python(): string {
  const venv = path.join(CACHE_DIR, 'bench-python');
  const bin = path.join(venv, 'bin', 'python');
  if (!existsSync(path.join(venv, `grpcio-${GRPCIO}`))) {
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `grpcio==${GRPCIO}`], { stdio: 'inherit' });
    execFileSync('touch', [path.join(venv, `grpcio-${GRPCIO}`)]);
  }
  return bin;
}

type Fake = FakeProcess;
const request = spannerService().ExecuteStreamingSql.requestSerialize({ session: 'projects/p/instances/i/databases/d/sessions/bench', sql: 'SELECT 1' });

function rawRow(out: string, added: number): Row {
  const r = JSON.parse(out.trim().split('\n').pop()!) as { count: number; elapsedMs: number; p50Ms: number; p99Ms: number };
  return { p50Ms: r.p50Ms, p99Ms: r.p99Ms, qps: (r.count * 1000) / r.elapsedMs, addedP50Ms: added };
}

const layers: { name: string; run: (fake: Fake) => Promise<Row> }[] = [
  {
    name: `C-core: Python grpcio ${GRPCIO}, raw streams, one connection`,
    run: async (fake) =>
      rawRow(
        execFileSync(python(), ['bench/py/grpc_load.py', String(fake.port), String(CONCURRENCY), String(SECONDS), request.toString('hex')], { encoding: 'utf8' }),
        (await fake.added())?.p50Ms ?? Number.NaN,
      ),
  },
  {
    name: 'grpc-js: raw streams, one connection',
    run: async (fake) =>
      rawRow(
        execFileSync(process.execPath, ['--import', 'tsx', 'bench/fake-load.ts', String(fake.port), String(CONCURRENCY), '1', String(SECONDS), String(LATENCY_MS)], { encoding: 'utf8' }),
        (await fake.added())?.p50Ms ?? Number.NaN,
      ),
  },
  ...[
    { language: 'node', version: '9.0.0' },
    { language: 'go', version: '1.96.1' },
  ].map((client: Client) => ({
    name: `${client.language === 'node' ? '@google-cloud/spanner' : 'cloud.google.com/go/spanner'} ${client.version} through its driver`,
    run: async (fake: Fake) => {
      const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
      const r = await runDriver(defaultCellOn({ host: '127.0.0.1', port: fake.port }, client, { warmupOps: 1000, durationSeconds: SECONDS }, CONCURRENCY), launch);
      const s = summarize(decodeHistogram(r.histogram), r.elapsedMs);
      return { p50Ms: s.p50Ms, p99Ms: s.p99Ms, qps: s.qps, addedP50Ms: (await fake.added())?.p50Ms ?? Number.NaN };
    },
  })),
];

const fake = await startFakeProcess(LATENCY_MS);
const rows: Row[][] = layers.map(() => []);
try {
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, layer] of layers.entries()) {
      await fake.reset();
      rows[k]!.push(await layer.run(fake));
    }
    process.stderr.write('.');
  }
} finally {
  fake.stop();
}
process.stderr.write('\n');

const med = (rs: Row[], k: keyof Row) => median(rs.map((r) => r[k]));
const f = (x: number) => x.toFixed(1);
const commit = execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
console.log(
  `# Node's gap at C=${CONCURRENCY}, one fake process at ${LATENCY_MS} ms, ${SECONDS} s per layer, median of ${ROUNDS} alternated rounds; commit ${commit}, ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`,
);
console.log('| layer | p50 ms (rounds) | p99 ms | qps | the fake added at p50 |');
console.log('| --- | ---: | ---: | ---: | ---: |');
console.log(`| configured server time | ${f(LATENCY_MS)} | ${f(LATENCY_MS)} | | |`);
layers.forEach((l, k) => {
  const rs = rows[k]!;
  console.log(`| ${l.name} | ${f(med(rs, 'p50Ms'))} (${rs.map((r) => f(r.p50Ms)).join(', ')}) | ${f(med(rs, 'p99Ms'))} | ${Math.round(med(rs, 'qps'))} | ${med(rs, 'addedP50Ms').toFixed(2)} |`);
});
