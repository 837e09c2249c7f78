// `npm run bench:fake-thread [-- <starts>]`: the CPU one cell's fake thread costs to start and stop, from
// its bundled entry (what the runner does) against its sources loaded through tsx (what it did before),
// side by side in one process, alternating, so the machine's state weighs on both alike.
import { startFakeSpannerThread } from '@scb/fake-spanner';

const starts = Number(process.argv[2] ?? 20);
if (!Number.isInteger(starts) || starts < 1) {
  console.error(`starts: "${process.argv[2]}" is not a whole number of at least 1`);
  process.exit(2);
}

async function cpuMsOfOne(sources: boolean): Promise<number> {
  const t0 = process.cpuUsage();
  const thread = await startFakeSpannerThread({ latencyMs: 1 }, { sources });
  await thread.stop();
  const u = process.cpuUsage(t0);
  return (u.user + u.system) / 1000;
}

// The bundle is built once per process: built here first, as a runner's first cell does.
await cpuMsOfOne(false);
const ms: Record<'bundled' | 'sources', number[]> = { bundled: [], sources: [] };
for (let i = 0; i < starts; i++) {
  ms.sources.push(await cpuMsOfOne(true));
  ms.bundled.push(await cpuMsOfOne(false));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`fake thread start + stop, CPU of the process (median of ${starts} each, alternating):`);
console.log(`  sources through tsx  ${median(ms.sources).toFixed(0)} ms`);
console.log(`  bundled entry        ${median(ms.bundled).toFixed(0)} ms`);
console.log(`  ratio bundled / sources: ${(median(ms.bundled) / median(ms.sources)).toFixed(3)}`);
