// `npm run bench:languages`: the three client languages side by side on the fake, cell for cell, the
// way the runner runs them (a fresh fake and driver process per cell); then a Go version's first
// build into an empty cache and its cached start. Prints figures; nothing is asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installContext, prepareDriver } from '@scb/languages';
import { clientText, decodeHistogram, idealQps, parseJobSpec, planCells, summarize } from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { ensureGoClient } from '../packages/languages/src/go/install';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LATENCY_MS = 65;

const parsed = parseJobSpec({
  clients: [
    { language: 'node', version: '9.0.0' },
    { language: 'java', version: '6.123.0' },
    { language: 'go', version: '1.96.1' },
    { language: 'go', version: '1.33.0' },
  ],
  configurations: [{ label: 'client default' }],
  concurrency: [10, 50, 200],
  target: { kind: 'fake', latencyMs: LATENCY_MS },
  workload: { warmupOps: { min: 200, perConcurrency: 4 }, durationSeconds: SECONDS },
});
if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
const spec = parsed.value;
const cores = os.availableParallelism();

const rows: Record<string, string | number>[] = [];
for (const plan of planCells(spec)) {
  const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
  const t0 = performance.now();
  let warm: number | undefined;
  const { result, channels, targetAdded } = await runCell(spec, plan, launch, { onProgress: (p) => (warm ??= p.phase === 'warmup' ? performance.now() - t0 : undefined) });
  const s = summarize(decodeHistogram(result.histogram), result.elapsedMs);
  const used = channels?.connections.filter((c) => c.rpcs > 0).length ?? 0;
  rows.push({
    client: clientText(plan.client),
    C: plan.concurrency,
    qps: Math.round(s.qps),
    'of ideal': `${Math.round((100 * s.qps) / idealQps(plan.concurrency, LATENCY_MS))}%`,
    'p50 ms': s.p50Ms.toFixed(1),
    'p99 ms': s.p99Ms.toFixed(1),
    connections: `${used} of ${channels?.connections.length ?? '?'}`,
    'driver CPU of machine': `${Math.round((100 * result.cpuMs) / result.elapsedMs / cores)}%`,
    'Node loop busy / delay p99': result.eventLoop ? `${Math.round(100 * result.eventLoop.utilization)}% / ${result.eventLoop.delayP99Ms.toFixed(1)} ms` : '-',
    'start to warm-up ms': warm === undefined ? '-' : Math.round(warm),
    'fake added p50/p99 ms': targetAdded ? `${targetAdded.p50Ms.toFixed(2)} / ${targetAdded.p99Ms.toFixed(2)}` : '-',
  });
  process.stderr.write('.');
}
process.stderr.write('\n');
console.log(`fake at ${LATENCY_MS} ms, ${SECONDS} s measured per cell after a warm-up of max(200, 4 × C), ${cores} cores, ${os.cpus()[0]?.model}`);
console.table(rows);

// A Go version's first build, with empty module and build caches, then from the client cache.
const cold = mkdtempSync(path.join(os.tmpdir(), 'scb-go-cold-'));
try {
  const ctx = installContext('go', { cacheDir: cold });
  for (const [what, client] of [
    ['first build (empty caches)', { language: 'go' as const, version: '1.96.1' }],
    ['cached', { language: 'go' as const, version: '1.96.1' }],
    ['another version, caches shared', { language: 'go' as const, version: '1.33.0' }],
  ] as const) {
    const t = performance.now();
    await ensureGoClient(client, ctx);
    console.log(`go ${client.version} ${what}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
} finally {
  rmSync(cold, { recursive: true, force: true });
}
