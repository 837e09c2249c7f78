// `npm run bench:languages`: the four client languages at their newest releases side by side on the
// fake, cell for cell, the way the runner runs them (a fresh fake and driver process per cell): SELECT 1
// at 65 ms and C = 10, 50, 200, then the 24-type 100-row scan at C = 10, each cell with the verdict its
// job page would show (judgeCell); then a Go version's first build into an empty cache and its cached
// start (BENCH_GO_BUILDS=0 leaves that out). Prints figures; nothing is asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installContext, prepareDriver } from '@scb/languages';
import { COLUMN_TYPES, clientText, decodeHistogram, idealQps, judgeCell, languageInfo, parseJobSpec, planCells, summarize, verdictReasons, type JobSpec } from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { cellResultOf } from '../apps/runner/src/cell-result';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { ensureGoClient } from '../packages/languages/src/go/install';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LATENCY_MS = 65;

const CLIENTS = [
  { language: 'node', version: '9.0.0' },
  { language: 'java', version: '6.123.0' },
  { language: 'go', version: '1.96.1' },
  { language: 'python', version: '3.71.0' },
];
const specOf = (input: Record<string, unknown>): JobSpec => {
  const parsed = parseJobSpec({ clients: CLIENTS, configurations: [{ label: 'client default' }], target: { kind: 'fake', latencyMs: LATENCY_MS }, ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
};
const specs = [
  specOf({ concurrency: [10, 50, 200], workload: { warmupOps: { min: 200, perConcurrency: 4 }, durationSeconds: SECONDS } }),
  // Every column type (12 scalars and their arrays), 100 rows, every column decoded and checked.
  specOf({ concurrency: [10], workload: { operation: 'scan', warmupOps: 50, durationSeconds: SECONDS, resultSet: { rows: 100, columns: COLUMN_TYPES.map((type) => ({ type })) } } }),
];
const cores = os.availableParallelism();

const rows: Record<string, string | number>[] = [];
for (const spec of specs) {
  for (const plan of planCells(spec)) {
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const t0 = performance.now();
    let warm: number | undefined;
    const out = await runCell(spec, plan, launch, { onProgress: (p) => (warm ??= p.phase === 'warmup' ? performance.now() - t0 : undefined) });
    const { result, channels, targetAdded } = out;
    const s = summarize(decodeHistogram(result.histogram), result.elapsedMs);
    const used = channels?.connections.filter((c) => c.rpcs > 0).length ?? 0;
    const verdict = judgeCell({ ...cellResultOf(out), agents: plan.concurrency, scheduleLagGoalMs: languageInfo(plan.client.language)?.scheduleLagGoalMs }, cores);
    rows.push({
      client: clientText(plan.client),
      operation: spec.workload.operation ?? 'select1',
      C: plan.concurrency,
      qps: Math.round(s.qps),
      'of ideal': spec.workload.operation === 'scan' ? '-' : `${Math.round((100 * s.qps) / idealQps(plan.concurrency, LATENCY_MS))}%`,
      'p50 ms': s.p50Ms.toFixed(1),
      'p99 ms': s.p99Ms.toFixed(1),
      connections: `${used} of ${channels?.connections.length ?? '?'}`,
      'driver CPU of machine': `${Math.round((100 * result.cpuMs) / result.elapsedMs / cores)}%`,
      'Node loop busy / delay p99': result.eventLoop ? `${Math.round(100 * result.eventLoop.utilization)}% / ${result.eventLoop.delayP99Ms.toFixed(1)} ms` : '-',
      'start to warm-up ms': warm === undefined ? '-' : Math.round(warm),
      'fake added p50/p99 ms': targetAdded ? `${targetAdded.p50Ms.toFixed(2)} / ${targetAdded.p99Ms.toFixed(2)}` : '-',
      verdict: verdict.kind === 'clean' ? 'clean' : `${verdict.kind}: ${verdictReasons(verdict)}`,
    });
    process.stderr.write('.');
  }
}
process.stderr.write('\n');
console.log(`fake at ${LATENCY_MS} ms, ${SECONDS} s measured per cell after a warm-up (select1: max(200, 4 × C); scan: 50), ${cores} cores, ${os.cpus()[0]?.model}`);
console.table(rows);
if (process.env.BENCH_GO_BUILDS === '0') process.exit(0);

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
