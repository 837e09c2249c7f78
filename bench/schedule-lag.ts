// How late each driver starts an open loop's operations against their intended time (its schedule
// lag), at 1,000 and 5,000 ops/s against the fake at 0 ms, uniform arrivals, 5 s measured: the lag
// histogram every open-loop cell reports, of operations that did not wait for the outstanding cap.
// Goals (LanguageInfo.scheduleLagGoalMs): p99 under 1 ms for Go and Java, under 5 ms for Node.
// Prints figures; nothing is asserted. Usage: npm run bench:schedule-lag [-- seconds]
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { startFakeSpannerThread } from '@scb/fake-spanner';
import { languagePlugins, prepareDriver, runDriver } from '@scb/languages';
import { decodeHistogram, infoOf, summarize } from '@scb/shared';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { defaultCellOn } from '../test/helpers/cells';

const VERSIONS: Record<string, string> = { node: '9.0.0', java: '6.123.0', go: '1.96.1' };
const RATES = [1000, 5000];
const seconds = Number(process.argv[2] ?? 5);

const commit = execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
console.log(`# schedule lag, commit ${commit}, ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}, ${seconds} s per cell, fake at 0 ms`);
console.log('| driver | rate (ops/s) | achieved | lag p50 ms | lag p99 ms | lag max ms | goal p99 ms | waited for the cap | driver CPU ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const language of languagePlugins().map((p) => p.language)) {
  const version = VERSIONS[language];
  if (!version) continue;
  const client = { language, version };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  for (const rate of RATES) {
    const fake = await startFakeSpannerThread({ latencyMs: 0 });
    try {
      const cell = defaultCellOn(fake, client, { warmupOps: rate, durationSeconds: seconds, arrivals: { distribution: 'uniform', maxOutstanding: 1000 } }, rate);
      const r = await runDriver(cell, launch);
      const lag = summarize(decodeHistogram(r.scheduleLag!.histogram), r.elapsedMs);
      const qps = (r.count * 1000) / r.elapsedMs;
      const goal = infoOf(language).scheduleLagGoalMs ?? 1;
      console.log(
        `| ${language} ${version} | ${rate} | ${qps.toFixed(0)} | ${lag.p50Ms.toFixed(3)} | ${lag.p99Ms.toFixed(3)} | ${lag.maxMs.toFixed(1)} | ${goal} | ${r.outstandingCapWaits} | ${r.cpuMs.toFixed(0)} |`,
      );
    } finally {
      await fake.stop();
    }
  }
}
