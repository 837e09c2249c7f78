// `npm run bench:fake-placement`: the same Node cell against the fake on the benchmark's own event loop
// (as the runner ran it before) and on a worker thread of its own (as it runs now), alternated, with the
// fake's own added time per RPC. Prints figures; nothing is asserted.
import { startFakeSpanner, startFakeSpannerThread } from '@scb/fake-spanner';
import { prepareDriver, runDriver } from '@scb/languages';
import { decodeHistogram, idealQps, summarize } from '@scb/shared';
import { defaultCellOn } from '../test/helpers/cells';
import { CACHE_DIR } from '../apps/runner/src/paths';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const LATENCY_MS = 65;
const client = { language: 'node' as const, version: '9.0.0' };
const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });

async function cell(placement: 'event loop' | 'thread', concurrency: number) {
  const fake = placement === 'thread' ? await startFakeSpannerThread({ latencyMs: LATENCY_MS }) : await startFakeSpanner({ latencyMs: LATENCY_MS });
  try {
    const result = await runDriver(defaultCellOn(fake, client, { warmupOps: 200, durationSeconds: 3 }, concurrency, 60_000), launch);
    const added = (await fake.stats()).added;
    const s = summarize(decodeHistogram(result.histogram), result.elapsedMs);
    return {
      fake: placement,
      C: concurrency,
      qps: Math.round(s.qps),
      'of ideal': `${Math.round((100 * s.qps) / idealQps(concurrency, LATENCY_MS))}%`,
      'p50 ms': s.p50Ms.toFixed(1),
      'p99 ms': s.p99Ms.toFixed(1),
      'fake added p50/p99 ms': added ? `${added.p50Ms.toFixed(2)} / ${added.p99Ms.toFixed(2)}` : '-',
    };
  } finally {
    await fake.stop();
  }
}

const rows = [];
for (let r = 0; r < REPEATS; r++) for (const concurrency of [10, 50]) for (const placement of ['event loop', 'thread'] as const) rows.push(await cell(placement, concurrency));
console.log(`node 9.0.0, fake at ${LATENCY_MS} ms, warm-up 200, 3 s measured, ${REPEATS} repeats alternated`);
console.table(rows);
