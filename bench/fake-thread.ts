// `npm run bench:fake-thread [-- <starts>]`: the CPU one cell's fake costs to start and stop on a thread:
// on a kept thread (what the runner does from its second cell on), on a new thread from the bundled entry
// (its first cell), and on a new thread loading the sources through tsx (what it did before the bundle),
// side by side in one process, alternating, so the machine's state weighs on all alike. Prints figures.
import { startFakeSpannerThread } from '@scb/fake-spanner';

const starts = Number(process.argv[2] ?? 20);
if (!Number.isInteger(starts) || starts < 1) {
  console.error(`starts: "${process.argv[2]}" is not a whole number of at least 1`);
  process.exit(2);
}

const WAYS = {
  'kept thread': { sources: false, reuse: true },
  'new thread, bundled entry': { sources: false, reuse: false },
  'new thread, sources through tsx': { sources: true, reuse: false },
} as const;
type Way = keyof typeof WAYS;

async function cpuMsOfOne(way: Way): Promise<number> {
  const t0 = process.cpuUsage();
  const thread = await startFakeSpannerThread({ latencyMs: 1 }, WAYS[way]);
  await thread.stop();
  const u = process.cpuUsage(t0);
  return (u.user + u.system) / 1000;
}

// The bundle is built once per process, and a thread kept: both here first, as a runner's first cell does.
await cpuMsOfOne('kept thread');
const ms = Object.fromEntries(Object.keys(WAYS).map((w) => [w, [] as number[]])) as Record<Way, number[]>;
for (let i = 0; i < starts; i++) for (const way of Object.keys(WAYS) as Way[]) ms[way].push(await cpuMsOfOne(way));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`fake start + stop on a thread, CPU of the process (median of ${starts} each, alternating):`);
for (const way of Object.keys(WAYS) as Way[]) console.log(`  ${way.padEnd(32)} ${median(ms[way]).toFixed(0)} ms`);
const kept = median(ms['kept thread']);
const fresh = median(ms['new thread, bundled entry']);
console.log(`  ratio kept / new (bundled): ${(kept / fresh).toFixed(3)}; bundled / sources: ${(fresh / median(ms['new thread, sources through tsx'])).toFixed(3)}`);
