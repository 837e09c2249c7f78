// `npm run bench:driver-start`: the CPU one driver process costs, start to exit, on a small cell
// (SELECT 1 at C = 10 on the fake at 5 ms: 50 warm-up and 200 measured operations), for the Java driver
// with and without its class data sharing archive (packages/languages/src/java/class-sharing.ts) side
// by side, alternating, and for the Node, Go and Python drivers as they start today. CPU is user + system of
// the driver process and its children (/usr/bin/time), so other load on the machine does not count.
// BENCH_STARTS (5) starts per side; BENCH_JAVA (6.123.0), BENCH_NODE (9.0.0), BENCH_GO (1.96.1),
// BENCH_PYTHON (3.71.0); BENCH_OTHERS=0 leaves Node, Go and Python out. Node's start is also measured with
// and without its compile cache, alternating (BENCH_NODE_CACHE=0 leaves that out; BENCH_CLASS_SHARING=0 leaves
// Java's two sides out). Then Java's drivers with and without the runtime options `npm test` gives them
// (SHORT_CELL_OPTIONS), and Node's with and without BENCH_NODE_OPTIONS (--single-threaded-gc), alternating, on the small cell and on one of BENCH_LONG_OPS (3,000)
// measured operations (BENCH_DRIVER_OPTIONS=0 leaves that out). Every other start runs the runtimes'
// defaults: SCB_JAVA_DRIVER_OPTIONS and SCB_NODE_DRIVER_OPTIONS are ignored here. Prints figures; nothing
// is asserted.
import { execSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeSpanner } from '@scb/fake-spanner';
import { installContext, prepareDriver, SHORT_CELL_OPTIONS } from '@scb/languages';
import type { DriverLaunch } from '@scb/languages';
import type { DriverCell } from '@scb/shared';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { ensureJavaClient } from '../packages/languages/src/java/install';

// The defaults: options given to this process are not the drivers' here (the section below adds them).
delete process.env.SCB_JAVA_DRIVER_OPTIONS;
delete process.env.SCB_NODE_DRIVER_OPTIONS;

const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const JAVA = process.env.BENCH_JAVA ?? '6.123.0';
const OTHERS = [
  { language: 'node', version: process.env.BENCH_NODE ?? '9.0.0' },
  { language: 'go', version: process.env.BENCH_GO ?? '1.96.1' },
  { language: 'python', version: process.env.BENCH_PYTHON ?? '3.71.0' },
];

const fake = await startFakeSpanner({ latencyMs: 5 });
const cellOf = (client: { language: string; version: string }, measuredOps = 200): DriverCell => ({
  endpoint: { host: '127.0.0.1', port: fake.port, security: 'plaintext' },
  database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
  client,
  configuration: { label: 'default', grpcGcp: 'default' },
  load: { shape: 'closed', concurrency: 10, warmupOps: 50, measuredOps },
  operations: [{ kind: 'select1', weight: 1 }],
  deadlineMs: 120_000,
});

/** One driver process on the cell: its CPU seconds (user + system), or a thrown error without a result. */
function cpuOfStart(launch: DriverLaunch, cell: DriverCell): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn('/usr/bin/time', ['-f', 'CPU %U %S', launch.command, ...launch.args], {
      env: { ...process.env, METADATA_SERVER_DETECTION: 'none', SPANNER_DISABLE_BUILTIN_METRICS: 'true' },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', () => {
      const m = /^CPU ([\d.]+) ([\d.]+)$/m.exec(err);
      if (!m || !out.includes('"type":"result"')) return reject(new Error(`no result: ${err.slice(-1000)}`));
      resolve(Number(m[1]) + Number(m[2]));
    });
    p.stdin.end(JSON.stringify(cell));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `median ${median(xs).toFixed(2)} s (${xs.map((x) => x.toFixed(2)).join(', ')})`;

try {
  if (process.env.BENCH_CLASS_SHARING !== '0') {
    const ctx = installContext('java', { cacheDir: CACHE_DIR, log: (l) => console.log(`  ${l}`) });
    let java = await ensureJavaClient(JAVA, ctx);
    // The first start writes the class list, the next preparation turns it into the archive.
    if (!java.args.some((a) => a.startsWith('-XX:SharedArchiveFile='))) {
      console.log(`java ${JAVA}: no archive yet; one start to list the classes, then the dump`);
      await cpuOfStart(java, cellOf({ language: 'java', version: JAVA }));
      java = await ensureJavaClient(JAVA, ctx);
    }
    const archive = java.args.find((a) => a.startsWith('-XX:SharedArchiveFile='));
    if (!archive) throw new Error(`java ${JAVA}: the archive was not made (a .refused note in ${java.dir}/class-sharing says why)`);
    const without: DriverLaunch = { ...java, args: java.args.filter((a) => a !== archive) };
    const cell = cellOf({ language: 'java', version: JAVA });
    const off: number[] = [];
    const on: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      off.push(await cpuOfStart(without, cell));
      on.push(await cpuOfStart(java, cell));
    }
    console.log(`java ${JAVA} ${execSync('java -version 2>&1').toString().split('\n')[0]}`);
    console.log(`  without the archive: ${fmt(off)}`);
    console.log(`  with the archive:    ${fmt(on)}`);
    console.log(`  ratio with/without:  ${(median(on) / median(off)).toFixed(2)}`);
  }

  // Node with and without its compile cache (src/node/compile-cache.mjs), alternating: "without" runs the
  // driver on a copy of the client's folder whose .compile-cache is a file, so no cache is read or made.
  if (process.env.BENCH_NODE_CACHE !== '0') {
    const client = OTHERS[0]!;
    const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
    const copy = mkdtempSync(path.join(os.tmpdir(), 'scb-driver-start-'));
    try {
      cpSync(launch.dir, copy, { recursive: true, filter: (src) => !src.includes(`${path.sep}.compile-cache`) });
      writeFileSync(path.join(copy, '.compile-cache'), 'not a folder: no compile cache');
      const uncached: DriverLaunch = { ...launch, args: launch.args.map((a) => (a === launch.dir ? copy : a)), dir: copy };
      const cell = cellOf(client);
      await cpuOfStart(launch, cell); // the cache made, if it was not
      const off: number[] = [];
      const on: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        off.push(await cpuOfStart(uncached, cell));
        on.push(await cpuOfStart(launch, cell));
      }
      console.log(`node ${client.version}`);
      console.log(`  without the compile cache: ${fmt(off)}`);
      console.log(`  with the compile cache:    ${fmt(on)}`);
      console.log(`  ratio with/without:        ${(median(on) / median(off)).toFixed(2)}`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }

  // The options npm test gives its drivers, before the driver's arguments as the languages' launches put them.
  if (process.env.BENCH_DRIVER_OPTIONS !== '0') {
    const longOps = Number(process.env.BENCH_LONG_OPS ?? 3000);
    // Node's side: the option npm test tried for it (its collector on the main thread), measured here too.
    const sides = [
      { client: { language: 'java', version: JAVA }, options: SHORT_CELL_OPTIONS.SCB_JAVA_DRIVER_OPTIONS },
      { client: OTHERS[0]!, options: process.env.BENCH_NODE_OPTIONS ?? '--single-threaded-gc' },
    ];
    for (const { client, options } of sides) {
      const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
      const given: DriverLaunch = { ...launch, args: [...options.split(' '), ...launch.args] };
      for (const ops of [200, longOps]) {
        const cell = cellOf(client, ops);
        await cpuOfStart(given, cell); // Node's compile cache of these flags made, if it was not
        const off: number[] = [];
        const on: number[] = [];
        for (let i = 0; i < STARTS; i++) {
          off.push(await cpuOfStart(launch, cell));
          on.push(await cpuOfStart(given, cell));
        }
        console.log(`${client.language} ${client.version}, ${ops} measured operations`);
        console.log(`  defaults:           ${fmt(off)}`);
        console.log(`  ${options}: ${fmt(on)}`);
        console.log(`  ratio with/without: ${(median(on) / median(off)).toFixed(2)}`);
      }
    }
  }

  if (process.env.BENCH_OTHERS !== '0') {
    for (const client of OTHERS) {
      const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
      const cpu: number[] = [];
      for (let i = 0; i < STARTS; i++) cpu.push(await cpuOfStart(launch, cellOf(client)));
      console.log(`${client.language} ${client.version}: ${fmt(cpu)}`);
    }
  }
} finally {
  await fake.stop();
}
