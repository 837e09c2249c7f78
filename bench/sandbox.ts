// `npm run bench:sandbox -- [repeats] [concurrency] [latencyMs] [measuredOps]`: what the sandbox an
// uploaded build's driver runs in (apps/runner/src/sandbox.ts) costs. The same cell, per client, run
// plainly and sandboxed in pairs (ABBA order, so drift falls on both), each against a fresh fake in a
// process of its own: the sandbox's set-up (bridges, files), the driver's whole wall time (start to
// exit), the measured phase's throughput and latency, and the CPU the two relays spend per RPC (this
// process's, where the Runner's end of the bridges runs, beyond a plain run's; the sandbox's relay
// process's, read from /proc). Prints every pair and the medians of the paired differences. Nothing is
// asserted.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DriverLaunch, driverReadOnly, prepareDriver, runDriver } from '@scb/languages';
import { decodeHistogram, summarize, type Client } from '@scb/shared';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { cellReach, sandboxDriver, sandboxUnavailable } from '../apps/runner/src/sandbox';
import { defaultCellOn } from '../test/helpers/cells';
import { benchHeader, clientsFromEnv, numberArgs } from './cli';
import { startFakeProcess } from './fake-process';

const [repeats, concurrency, latencyMs, measuredOps] = numberArgs([6, 8, 5, 2000]);
const CLIENTS = clientsFromEnv('node 9.0.0,go 1.96.1,java 6.123.0');
const WARMUP = 200;

interface Run {
  setupMs: number;
  wallMs: number;
  qps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU per RPC (warm-up and measured) of this process, and of the sandbox's relay process. */
  runnerUs: number;
  relayUs: number;
}

const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const RELAY_CMDLINE = `${process.execPath}\0/run/scb-relay.mjs\0`;

/** CPU ms of the sandbox's relay process so far, or null while there is none. */
function relayCpuMs(): number | null {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(RELAY_CMDLINE)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / TICK) * 1000;
    } catch {}
  }
  return null;
}

async function once(client: Client, launch: DriverLaunch, sandboxed: boolean): Promise<Run> {
  const fake = await startFakeProcess(latencyMs);
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'scb-bench-sandbox-'));
  try {
    const cell = defaultCellOn(fake, client, { warmupOps: WARMUP, measuredOps }, concurrency);
    const t0 = performance.now();
    const reach = cellReach(cell);
    const sandbox = sandboxed ? await sandboxDriver(launch, { workDir, readOnly: [...driverReadOnly(client.language, launch), ...reach.readOnly], bridge: reach.bridge }) : null;
    const t1 = performance.now();
    // The relay's CPU, last read before it exits (polling costs this process a little on both sides).
    let relayMs = 0;
    const poll = setInterval(() => (relayMs = relayCpuMs() ?? relayMs), 50);
    const cpu = process.cpuUsage();
    try {
      const result = await runDriver(cell, sandbox?.launch ?? launch);
      const wallMs = performance.now() - t1;
      const used = process.cpuUsage(cpu);
      const rpcs = WARMUP + measuredOps;
      const s = summarize(decodeHistogram(result.histogram), result.elapsedMs);
      return {
        setupMs: t1 - t0,
        wallMs,
        qps: (result.count / result.elapsedMs) * 1000,
        p50Ms: s.p50Ms,
        p99Ms: s.p99Ms,
        runnerUs: (used.user + used.system) / rpcs,
        relayUs: (relayMs * 1000) / rpcs,
      };
    } finally {
      clearInterval(poll);
      await sandbox?.stop();
    }
  } finally {
    fake.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const f = (x: number, d = 1) => x.toFixed(d);

console.log(benchHeader());
const unavailable = await sandboxUnavailable();
if (unavailable) throw new Error(unavailable);

/** ms from spawn to exit. */
const timed = (command: string, args: string[]) =>
  new Promise<number>((resolve, reject) => {
    const t = performance.now();
    execFile(command, args, { env: { PATH: process.env.PATH! } }, (e) => (e ? reject(e) : resolve(performance.now() - t)));
  });
// Start-up: a program that does nothing, plainly and sandboxed (one bridge), alternated, 15 times each.
for (const [command, args] of [
  ['/bin/true', []],
  [process.execPath, ['-e', '']],
] as [string, string[]][]) {
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let i = 0; i < 15; i++) {
    plain.push(await timed(command, args));
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'scb-bench-sandbox-'));
    const sandbox = await sandboxDriver({ command, args, dir: workDir }, { workDir, readOnly: [], bridge: [{ host: '127.0.0.1', port: 9 }] });
    boxed.push(await timed(sandbox.launch.command, sandbox.launch.args));
    await sandbox.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
  console.log(`start-up of \`${[command, ...args].join(' ')}\`: median ${f(median(plain))} ms plain, ${f(median(boxed))} ms sandboxed`);
}

console.log(`# SELECT 1 at ${latencyMs} ms, C=${concurrency}, ${WARMUP} warm-up + ${measuredOps} measured operations; ${repeats} pairs per client, ABBA order`);
// Warms the page cache and the runtime's own caches (tsx's transform cache in a sandbox's fresh TMPDIR is cold every time: that is part of its cost).
for (const c of repeats > 0 ? CLIENTS : []) {
  const client = c as Client;
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  await once(client, launch, false);
  await once(client, launch, true);
  const pairs: { plain: Run; boxed: Run }[] = [];
  for (let i = 0; i < repeats; i++) {
    const order = i % 2 === 0 ? [false, true] : [true, false];
    const runs: Record<string, Run> = {};
    for (const sandboxed of order) runs[String(sandboxed)] = await once(client, launch, sandboxed);
    pairs.push({ plain: runs.false!, boxed: runs.true! });
  }
  console.log(`\n## ${client.language} ${client.version}`);
  console.log('pair | wall ms plain / sandboxed | qps plain / sandboxed | p50 ms plain / sandboxed | p99 ms plain / sandboxed | runner µs/RPC plain / sandboxed | relay µs/RPC | set-up ms');
  pairs.forEach(({ plain, boxed }, i) =>
    console.log(
      `${i + 1} | ${f(plain.wallMs, 0)} / ${f(boxed.wallMs, 0)} | ${f(plain.qps, 0)} / ${f(boxed.qps, 0)} | ${f(plain.p50Ms, 2)} / ${f(boxed.p50Ms, 2)} | ${f(plain.p99Ms, 2)} / ${f(boxed.p99Ms, 2)} | ${f(plain.runnerUs)} / ${f(boxed.runnerUs)} | ${f(boxed.relayUs)} | ${f(boxed.setupMs)}`,
    ),
  );
  const d = (k: keyof Run) => median(pairs.map((p) => p.boxed[k] - p.plain[k]));
  const r = (k: keyof Run) => median(pairs.map((p) => p.boxed[k] / p.plain[k]));
  console.log(
    `median paired difference: wall ${f(d('wallMs'), 0)} ms (×${f(r('wallMs'), 3)}), qps ${f(d('qps'), 0)} (×${f(r('qps'), 3)}), p50 ${f(d('p50Ms'), 3)} ms, p99 ${f(d('p99Ms'), 3)} ms, runner CPU +${f(d('runnerUs'))} µs/RPC, relay CPU ${f(median(pairs.map((p) => p.boxed.relayUs)))} µs/RPC; set-up median ${f(median(pairs.map((p) => p.boxed.setupMs)))} ms`,
  );
}
