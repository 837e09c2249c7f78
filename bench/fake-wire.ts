// `npm run bench:fake-wire`: the fake's added time where it happens. Go 1.96.1 (the fastest client here)
// at C=10 and C=400 against the fake at 65 ms (on a worker thread, as the runner runs it), 4 connections,
// once directly and once through the connection tap, which times every RPC on the wire: from the
// request's last frame to the answer's first; and once against the fake CLI in a process of its own.
// Side by side, alternated over rounds. Prints, per run,
// throughput against the ceiling (C / 65 ms), the client's p50, the fake's own added time (handler
// called to answer handed to grpc-js) and the wire's (wire time minus the 65 ms applied), and the
// fake thread's busy share. Nothing is asserted. Usage: npm run bench:fake-wire [-- seconds rounds]
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { startFakeSpannerThread } from '@scb/fake-spanner';
import { prepareDriver, runDriver } from '@scb/languages';
import { decodeHistogram, summarize } from '@scb/shared';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { startTap } from '../packages/targets/src/tap';
import { defaultCellOn } from '../test/helpers/cells';
import { startFakeProcess } from './fake-process';

const LATENCY_MS = 65;
const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 2);
const client = { language: 'go', version: '1.96.1' };
const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });

/** The fake CLI in a process of its own, behind the thread's interface (no loop figures). */
async function fakeProcess() {
  const f = await startFakeProcess(LATENCY_MS);
  return { host: f.host, port: f.port, mark: f.reset, stats: async () => ({ added: await f.added(), loop: undefined as { utilization: number } | undefined }), stop: async () => f.stop() };
}

type Path = 'direct' | 'through the tap' | 'fake in its own process';

async function run(concurrency: number, path: Path) {
  const fake = path === 'fake in its own process' ? await fakeProcess() : await startFakeSpannerThread({ latencyMs: LATENCY_MS });
  const tap = path === 'through the tap' ? await startTap(fake) : null;
  try {
    const cell = defaultCellOn(tap ?? fake, client, { warmupOps: 4 * concurrency, durationSeconds: seconds }, concurrency);
    cell.configuration = { label: '4 connections', grpcGcp: 'default', numChannels: 4 };
    let measuring = false;
    const r = await runDriver(cell, launch, {
      onProgress: (p) => {
        // The fake's and the wire's figures over the measured phase only.
        if (p.phase === 'measure' && !measuring) {
          measuring = true;
          tap?.resetWire();
          void fake.mark();
        }
      },
    });
    const s = summarize(decodeHistogram(r.histogram), r.elapsedMs);
    const stats = await fake.stats();
    const wire = tap?.wire();
    return {
      qps: s.qps,
      share: s.qps / ((concurrency * 1000) / LATENCY_MS),
      p50Ms: s.p50Ms,
      fakeAdded: stats.added,
      wireAdded: wire ? { p50Ms: wire.p50Ms - LATENCY_MS, p99Ms: wire.p99Ms - LATENCY_MS } : null,
      loop: stats.loop?.utilization ?? Number.NaN,
      cpuMs: r.cpuMs,
      elapsedMs: r.elapsedMs,
    };
  } finally {
    await tap?.stop();
    await fake.stop();
  }
}

const commit = execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
console.log(
  `# the fake's added time on the wire: go 1.96.1, ${LATENCY_MS} ms, 4 connections, ${seconds} s, ${rounds} rounds; commit ${commit}, ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`,
);
console.log("| C | path | qps | of ceiling | client p50 ms | fake's own added p50 / p99 ms | on the wire p50 / p99 ms | fake thread busy | client CPU |");
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const f = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(2));
for (let round = 1; round <= rounds; round++)
  for (const concurrency of [10, 400])
    for (const path of ['direct', 'through the tap', 'fake in its own process'] as Path[]) {
      const r = await run(concurrency, path);
      console.log(
        `| ${concurrency} | ${path} | ${Math.round(r.qps)} | ${Math.round(100 * r.share)}% | ${r.p50Ms.toFixed(1)} | ${f(r.fakeAdded?.p50Ms)} / ${f(r.fakeAdded?.p99Ms)} | ${r.wireAdded ? `${f(r.wireAdded.p50Ms)} / ${f(r.wireAdded.p99Ms)}` : '–'} | ${Math.round(100 * r.loop)}% | ${Math.round((100 * r.cpuMs) / r.elapsedMs / os.availableParallelism())}% |`,
      );
    }
