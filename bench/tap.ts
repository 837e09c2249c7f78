// `npm run bench:tap`: what the connection tap costs. A raw grpc-js load (bench/fake-load.ts) against the
// fake at 0 and 5 ms, straight and through a tap in a process of its own, alternated over rounds; prints
// qps and p50 both ways and the tap's CPU per 1,000 RPCs. Nothing is asserted.
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startFakeSpannerThread } from '@scb/fake-spanner';
import { median } from '@scb/shared';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 50;

const load = (port: number, latencyMs: number) =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/fake-load.ts', String(port), String(CONCURRENCY), '2', String(SECONDS), String(latencyMs)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!,
  ) as {
    count: number;
    elapsedMs: number;
    p50Ms: number;
  };

async function through(upstream: number, run: (port: number) => ReturnType<typeof load>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/tap-child.ts', String(upstream)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { port } = JSON.parse((await lines.next()).value as string) as { port: number };
  const r = run(port);
  child.stdin!.end();
  const tap = JSON.parse((await lines.next()).value as string) as { cpuMs: number; rpcs: number };
  return { ...r, tapCpuMs: tap.cpuMs, rpcs: tap.rpcs };
}

const rows: Record<string, string | number>[] = [];
for (const latencyMs of [0, 5]) {
  const direct: ReturnType<typeof load>[] = [];
  const tapped: Awaited<ReturnType<typeof through>>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const fake = await startFakeSpannerThread({ latencyMs });
    try {
      direct.push(load(fake.port, latencyMs));
      tapped.push(await through(fake.port, (p) => load(p, latencyMs)));
    } finally {
      await fake.stop();
    }
    process.stderr.write('.');
  }
  const qps = (r: { count: number; elapsedMs: number }) => (r.count * 1000) / r.elapsedMs;
  rows.push({
    'fake ms': latencyMs,
    'qps direct': Math.round(median(direct.map(qps))),
    'qps via tap': Math.round(median(tapped.map(qps))),
    'p50 ms direct': median(direct.map((r) => r.p50Ms)).toFixed(2),
    'p50 ms via tap': median(tapped.map((r) => r.p50Ms)).toFixed(2),
    'tap CPU ms per 1,000 RPCs': median(tapped.map((r) => (r.tapCpuMs * 1000) / r.rpcs)).toFixed(1),
  });
}
process.stderr.write('\n');
console.log(`raw grpc-js, C=${CONCURRENCY} over 2 connections, ${SECONDS} s, median of ${ROUNDS} alternated rounds`);
console.table(rows);
