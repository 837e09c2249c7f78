// `npm test`: lint, then every test file of three tiers chosen by folder, in one schedule with one
// PostgreSQL cluster for the whole run. A file that measures timing or judges the machine (`// test:
// alone` in its source) runs with nothing beside it but the files that mostly wait and, in an idle
// cgroup, those that judge no timing (`// test: yields`, every unit file); the others, longest first by
// the times of the last run on this machine (kept in the client cache, SCB_CACHE_DIR), run SCB_TEST_LANES (default 2) at a
// time, and more while the CPU they used in that run leaves cores free: most files wait on latencies,
// timers, drivers or the browser (`// test: waits` marks one that mostly waits before it has been
// measured). The tiers overlap: an e2e file starts once the web app is built, not after the last
// integration file.
// - unit: `test/unit/` folders, no processes of their own (scripts/cpu-probe.mjs makes starting one throw);
// - integration: `test/integration/` folders: PostgreSQL, the fake, the drivers;
// - e2e: `test/e2e/`: the browser and the start command.
// `npm test -- unit` (or integration, e2e) runs one tier.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureQueue, releaseQueue } from '@scb/db';
import { migrate, startEmbeddedPostgres } from '@scb/db/setup';
import { CACHE_DIR, createIdleCgroup, freePort, idleCgroupsCpuMs, SHORT_CELL_OPTIONS, type IdleCgroup } from '@scb/languages/local';
import { TEST_CLUSTER_ENV, TEST_TEMPLATE } from '../test/helpers/postgres';
import { bundleTestFiles } from './test-bundles';
import { BUNDLED_ENV, COMPILE_CACHE_PRELOAD, TEST_BUNDLES } from './test-sources.mjs';
import { markWebBuilt, NEXT_BIN, restoreCachedWebBuild, WEB, webBuildIsStale } from './web-build';

const TIERS = ['unit', 'integration', 'e2e'] as const;
type Tier = (typeof TIERS)[number];

function testFiles(): Map<Tier, string[]> {
  const byTier = new Map<Tier, string[]>(TIERS.map((t) => [t, []]));
  const stray: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.ts')) {
        const tier = TIERS.find((t) => p.split(path.sep).includes(t));
        if (tier) byTier.get(tier)!.push(p);
        else stray.push(p);
      }
    }
  };
  for (const root of ['packages', 'apps', 'test']) walk(root);
  if (stray.length) {
    console.error(`test files outside a tier folder (test/unit, test/integration or test/e2e): ${stray.join(', ')}`);
    process.exit(1);
  }
  for (const files of byTier.values()) files.sort();
  return byTier;
}

function lint(): void {
  // Biome is an optional dependency for linux-x64 (the registry serves no other platform's binary).
  const biome = path.join('node_modules', '@biomejs', `cli-${process.platform}-${process.arch}`, 'biome');
  if (!existsSync(biome)) {
    console.log(`lint skipped: no Biome binary for ${process.platform}-${process.arch} installed`);
    return;
  }
  const r = spawnSync(biome, ['ci', '--colors=off', '.'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('lint or format check failed: `npm run format` fixes what it can');
    process.exit(r.status ?? 1);
  }
}

interface TierRun {
  tier: Tier;
  files: number;
  pass: number;
  fail: number;
  skipped: number;
  seconds: number;
  status: number;
  /** Each file's wall time in ms, by absolute path. */
  fileMs: Record<string, number>;
  /** Each file's CPU time in ms (its process and those it waited for: drivers, stacks), by absolute path. */
  fileCpuMs: Record<string, number>;
}

/** A file that measures timing or judges the machine says so in its source: it runs with no other file beside it but those that wait. */
const ALONE = /^\/\/ test: alone\b/m;
/**
 * An alone file that judges how much of the machine other processes used (`// test: alone, quiet`) runs
 * before the yielding files and the waiting ones start: the kernel's work for an idle group (its I/O, its network) is done
 * outside the group and counted as other processes' (verdict.test.ts's C=300 cell saw 33% beside them,
 * its limit 25%).
 */
const QUIET = /^\/\/ test: alone, quiet\b/m;
/**
 * A file whose time is mostly waiting on timers (a cell held to its deadline, a keepalive's 40 s) says
 * `// test: waits`: such files start first (after the quiet ones, below), beside the files that must run
 * alone, which they leave a nearly idle machine (reproductions-waits.test.ts: 18 s of CPU in 186 s).
 */
const WAITS = /^\/\/ test: waits\b/m;

/**
 * A file that judges no timing and not the machine, and so may run starved, says `// test: yields` (every
 * unit file does, by the tier's rules): while the files that must run alone run, up to YIELDING_LANES
 * such files run beside them in an idle cgroup (cpu.idle 1: the kernel preempts them as soon as any
 * other process wakes), on the cores the alone files leave idle, with a PostgreSQL cluster of their own
 * in that group. A runner leaves idle groups' CPU out of the machine's load (apps/runner/src/machine.ts),
 * so the alone files still judge a quiet machine. The group goes on yielding beside the packed files
 * (they judge timing beside each other, and leave about a quarter of the cores idle: 1.55 of 2 busy in a
 * run where the group had stopped yielding), and stops when they are done; the yielding files left then
 * run MAX_LANES at a time. Where no cgroup can be made (not Linux, not root), they are packed with the others.
 */
const YIELDS = /^\/\/ test: yields\b/m;
const YIELDING_LANES = 3;

/** Each file's wall time in the last run on this machine (relative path → ms): longest first keeps lanes even. */
const TIMES_FILE = path.join(CACHE_DIR, 'test-times.json');
/** Each file's CPU time in the last run on this machine (relative path → ms). */
const CPU_FILE = path.join(CACHE_DIR, 'test-cpu.json');

function lastTimes(file = TIMES_FILE): Record<string, number> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    return {}; // first run here: file order
  }
}

function saveTimes(runs: TierRun[]): void {
  mkdirSync(CACHE_DIR, { recursive: true });
  for (const [file, key] of [
    [TIMES_FILE, 'fileMs'],
    [CPU_FILE, 'fileCpuMs'],
  ] as const) {
    const times = lastTimes(file);
    for (const r of runs) for (const [f, ms] of Object.entries(r[key])) times[path.relative(process.cwd(), f)] = Math.round(ms);
    writeFileSync(file, `${JSON.stringify(times, null, 1)}\n`);
  }
}

/**
 * Runs the tiers' files as one schedule, so that no tier waits for the slowest file of the one before:
 * first the files that must run alone, one at a time (the e2e ones last, once `web` is ready), with only
 * the files that mostly wait on timers (`// test: waits`: they leave the machine nearly idle) and, in an
 * idle cgroup, those that yield (`// test: yields`; once a web build there has ended) beside them, on
 * through the next step. Then every other file of every tier, packed by the CPU it used in the last run here (most wait on latencies, drivers or the browser, not on the cores): at least `lanes` at a
 * time, and more while the running files' CPU (cores on average: CPU time over wall time) leaves a core's
 * worth free, echoing the runner's output; e2e files only once the web app is built. A tier's seconds
 * run from its first file's start to its last one's end.
 */
async function runTiers(byTier: [Tier, string[]][], env: NodeJS.ProcessEnv, lanes: number, web: Web, yieldingGroup?: YieldingGroup): Promise<TierRun[]> {
  const tierOf = new Map<string, Tier>(byTier.flatMap(([tier, files]) => files.map((f) => [f, tier] as const)));
  const runs = new Map<Tier, TierRun & { start?: number; end?: number }>(
    byTier.map(([tier, files]) => [tier, { tier, files: files.length, pass: 0, fail: 0, skipped: 0, seconds: 0, status: 0, fileMs: {}, fileCpuMs: {} }]),
  );
  const longestFirst = byTier.flatMap(([, files]) => files).sort((a, b) => (LAST_WALL[b] ?? 0) - (LAST_WALL[a] ?? 0));
  const isAlone = (f: string) => ALONE.test(readFileSync(f, 'utf8'));
  const runOne = async (files: string[], tier: Tier, group?: YieldingGroup): Promise<void> => {
    const run = runs.get(tier)!;
    run.start ??= Date.now();
    const started = Date.now();
    const r = await runFiles(files, 1, { ...(group?.env ?? env), SCB_TEST_TIER: tier }, group?.cgroup, tier === 'unit' && files.length > 1);
    TIMELINE.push({ files: files.map((f) => path.relative(process.cwd(), f)), startS: (started - T0) / 1000, endS: (Date.now() - T0) / 1000, idle: Boolean(group) });
    for (const k of ['pass', 'fail', 'skipped'] as const) run[k] += r[k];
    run.status ||= r.status;
    Object.assign(run.fileMs, r.fileMs);
    Object.assign(run.fileCpuMs, r.fileCpuMs);
    run.end = Date.now();
  };
  const waits = longestFirst.filter((f) => !isAlone(f) && WAITS.test(readFileSync(f, 'utf8')));
  // The e2e files wait for the web app; a build that fails fails them, saying why once.
  let webReady = false;
  let webFailed = false;
  const built = web.ready.then((ok) => {
    webReady = true;
    webFailed = !ok;
    return ok;
  });
  /** Runs `files` of `tier` once the web app is built, if the tier is e2e; not at all when the build failed. */
  const whenBuilt = (tier: Tier, go: () => Promise<void>) => (tier === 'e2e' ? built.then((ok) => (ok ? go() : undefined)) : go());
  const aloneStart = Date.now();
  const [busy0, idle0] = [busyCpuMs(), idleCgroupsCpuMs()];
  const isQuiet = (f: string) => QUIET.test(readFileSync(f, 'utf8'));
  const runAlone = async (which: (f: string) => boolean) => {
    for (const [tier] of byTier) {
      const alone = longestFirst.filter((f) => tierOf.get(f) === tier && isAlone(f) && which(f));
      if (alone.length) await whenBuilt(tier, () => runOne(alone, tier));
    }
  };
  const quietPhase = runAlone(isQuiet);
  // After the files that judge how much of the machine others use: a waiting file's bursts (deadline.test.ts
  // starts a driver that runs past its deadline) made verdict.test.ts's quiet cell harness-bound, other
  // processes at 74% of the machine.
  const waiting = waits.map((f) => ({ f, done: quietPhase.then(() => runOne([f], tierOf.get(f)!)) }));
  const alonePhase = quietPhase.then(() => runAlone((f) => !isQuiet(f)));
  const mayYield = (f: string) => !isAlone(f) && !waits.includes(f) && (tierOf.get(f) === 'unit' || YIELDS.test(readFileSync(f, 'utf8')));
  // The group yields until the packed files are done too: they judge timing beside each other, and a
  // yielding file takes only the cores they leave idle.
  let packedDone: () => void = () => {};
  const packedPhase = new Promise<void>((r) => (packedDone = r));
  const yielding = new Set(yieldingGroup ? longestFirst.filter(mayYield) : []);
  const yielded = new Set<string>();
  // The unit files from their bundles go as one batch, in one process (unitTogether); any other, on its
  // own, as does a unit file that registers a language or target kind (the registries are the process's).
  const unitFiles = [...yielding].filter((f) => tierOf.get(f) === 'unit' && BUNDLES.has(f) && !REGISTERS.test(readFileSync(f, 'utf8')));
  const together = unitFiles.length > 1 ? unitFiles : [];
  const batches = [...(together.length ? [together] : []), ...[...yielding].filter((f) => !together.includes(f)).map((f) => [f])];
  const yieldingEnded = yieldingGroup
    ? runYielding(
        batches,
        // A web build in the idle group has it to itself first (beside the type check): the e2e files
        // that must run alone wait for it at the end of the alone phase.
        Promise.all([quietPhase, built]).then(() => {}),
        packedPhase,
        (batch) =>
          whenBuilt(tierOf.get(batch[0]!)!, () => runOne(batch, tierOf.get(batch[0]!)!, yieldingGroup)).finally(() => {
            for (const f of batch) yielded.add(f);
          }),
        () => yieldingGroup.cgroup.release(),
      )
    : Promise.resolve();
  await alonePhase;
  const idleShare = (since: Map<string, number>, seconds: number) => {
    const group = [...idleCgroupsCpuMs()].find(([g]) => g.endsWith(`scb-test-${process.pid}`));
    return group ? (group[1] - (since.get(group[0]) ?? 0)) / 1000 / seconds : 0;
  };
  if (yieldingGroup) {
    const s = (Date.now() - aloneStart) / 1000;
    console.log(
      `\n# the alone files took ${s.toFixed(0)} s, the machine ${((busyCpuMs() - busy0) / 1000 / s).toFixed(2)} cores busy, ${idleShare(idle0, s).toFixed(2)} of them the idle cgroup's; in it ${yielded.size} of ${yielding.size} yielding files ended`,
    );
  }
  const packed = longestFirst.filter((f) => !isAlone(f) && !waits.includes(f) && !yielding.has(f));
  const [packedStart, packedBusy0, packedIdle0] = [Date.now(), busyCpuMs(), idleCgroupsCpuMs()];
  const started = [web.beside, ...waiting.map(({ f, done }) => ({ cores: demandOf(f), done }))];
  await runPacked(
    packed,
    lanes,
    (f) => tierOf.get(f) !== 'e2e' || webReady,
    built,
    (f) => runOne([f], tierOf.get(f)!),
    (f) => tierOf.get(f) === 'e2e' && webFailed,
    started,
  );
  await Promise.all([built, ...waiting.map((w) => w.done)]);
  const packedS = (Date.now() - packedStart) / 1000;
  console.log(
    `\n# the packed files took ${packedS.toFixed(0)} s after them, the machine ${((busyCpuMs() - packedBusy0) / 1000 / packedS).toFixed(2)} cores busy, ${idleShare(packedIdle0, packedS).toFixed(2)} of them the idle cgroup's; ${yielding.size - yielded.size} yielding files had yet to end`,
  );
  packedDone();
  await yieldingEnded;
  if (webFailed) runs.get('e2e')!.status ||= 1;
  return [...runs.values()].map(({ start, end, ...run }) => ({ ...run, seconds: start && end ? (end - start) / 1000 : 0 }));
}

/** Every core's busy time so far (ms), from the kernel's counters. */
const busyCpuMs = () => os.cpus().reduce((a, c) => a + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);

/** Work beside the test files (a waiting file, the web app's build): the cores it takes until it ends. */
interface Beside {
  cores: number;
  done: Promise<unknown>;
}

/** The web app the e2e files start: `ready` settles true once it is built (or was), false when its build failed; `beside` is its build where that takes cores from the files. */
interface Web {
  ready: Promise<boolean>;
  beside?: Beside;
}

/** The most files at once, however little CPU they use (each holds PostgreSQL databases, ports, memory). */
const MAX_LANES = 4;
/**
 * The least a file counts for, in cores: a file's CPU comes in bursts (a JVM's start, a stack's), which
 * its average hides, and a run on a busy machine stretches its wall time and so understates its cores.
 * At 0.6 two cores take three such files at once (at 0.45, four: the schedule was no shorter, the
 * packed files having become CPU-bound, and a Python open loop beside them fell behind its arrivals).
 */
const MIN_DEMAND = 0.6;

/**
 * The tests check what drivers do, not how fast their runtimes' optimizing compilers make them: their Java
 * drivers run with the JVM options an operator may give (SCB_JAVA_DRIVER_OPTIONS) set to those that cost a
 * short cell the least CPU (SHORT_CELL_OPTIONS: a 3,000-operation cell's about halves). One given to
 * `npm test` stays; an empty one runs the runtime's defaults.
 */
const TEST_DRIVER_OPTIONS: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(SHORT_CELL_OPTIONS).map(([name, value]) => [name, process.env[name] ?? value]));

/** What the yielding files run in: an idle cgroup, and their environment (a PostgreSQL cluster of their own in that group, so that their queries yield too). */
interface YieldingGroup {
  cgroup: IdleCgroup;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs the batches of files (longest first, each batch one run) from when `after` settles, YIELDING_LANES at a time; when `phase` settles,
 * calls `over` (the group stops yielding) and runs the rest MAX_LANES at a time. Settles when all ended.
 */
function runYielding(files: string[][], after: Promise<void>, phase: Promise<void>, run: (batch: string[]) => Promise<void>, over: () => void): Promise<void> {
  let lanes = YIELDING_LANES;
  let running = 0;
  const queue = [...files];
  let allEnded: () => void;
  const ended = new Promise<void>((r) => (allEnded = r));
  const next = () => {
    if (!queue.length && !running) return allEnded();
    while (queue.length && running < lanes) {
      const f = queue.shift()!;
      running++;
      void run(f).finally(() => {
        running--;
        next();
      });
    }
  };
  void after.then(next);
  void phase.finally(() => {
    over();
    lanes = MAX_LANES;
    next();
  });
  return ended;
}

/**
 * The cores a file used on average in the last run here (CPU time over wall time), at least MIN_DEMAND; a
 * file not yet measured counts MIN_DEMAND if it mostly waits on timers (`// test: waits`), else a whole core.
 */
function demandOf(f: string): number {
  const rel = path.relative(process.cwd(), f);
  const [ms, cpuMs] = [LAST_WALL[rel], LAST_CPU[rel]];
  const cores = os.availableParallelism();
  if (ms && cpuMs !== undefined) return Math.min(cores, Math.max(MIN_DEMAND, cpuMs / ms));
  return WAITS.test(readFileSync(f, 'utf8')) ? MIN_DEMAND : 1;
}
/** When each run of test files started and ended (seconds from T0), kept in the cache after a run to see how the schedule packed. */
const TIMELINE: { files: string[]; startS: number; endS: number; idle: boolean }[] = [];
const T0 = Date.now();
const TIMELINE_FILE = path.join(CACHE_DIR, 'test-timeline.json');
/** Each test file's bundle, by the file's path as testFiles() gives it; made once per run in main(). */
let BUNDLES = new Map<string, string>();
const LAST_WALL = lastTimes();
const LAST_CPU = lastTimes(CPU_FILE);

/**
 * The files, longest first, each in a runner of its own: at least `lanes` at a time; another starts
 * while the cores the running ones used on average in the last run (at least MIN_DEMAND each; a file
 * that mostly waits on timers, `// test: waits`, counts that least until measured, any other unmeasured
 * one a whole core) plus its own stay within the machine's cores; a shorter file goes before a longer
 * one that does not fit only if it should end first (java-driver.test.ts, passed over so, ended a run
 * alone for its last 40 s). A file waits until `ready` says so
 * (checked again when `readyLater` settles); one that `dropped` says may not run is left out.
 */
function runPacked(
  files: string[],
  lanes: number,
  ready: (f: string) => boolean,
  readyLater: Promise<unknown>,
  run: (f: string) => Promise<void>,
  dropped: (f: string) => boolean,
  beside: (Beside | undefined)[],
): Promise<void> {
  const cores = os.availableParallelism();
  const besides = beside.filter((b) => b !== undefined);
  let besideCores = besides.reduce((a, b) => a + b.cores, 0);
  for (const b of besides)
    void b.done.finally(() => {
      besideCores -= b.cores;
      next();
    });
  void readyLater.finally(() => next());
  let queue = [...files];
  const running = new Map<string, { cores: number; endsAt: number }>();
  const lastWall = (f: string) => LAST_WALL[path.relative(process.cwd(), f)] ?? 0;
  let finish: () => void;
  const done = new Promise<void>((r) => (finish = r));
  function next() {
    queue = queue.filter((f) => !dropped(f));
    if (!queue.length && !running.size) return finish();
    while (queue.length && running.size < MAX_LANES) {
      const busy = besideCores + [...running.values()].reduce((a, b) => a + b.cores, 0);
      const fits = (f: string) => running.size < lanes || busy + demandOf(f) <= cores;
      // The longest ready one if it fits (below `lanes` files, regardless). If not, a shorter one only
      // where it should end before the first running file does: a long file that needs more cores than
      // are left waits for them, instead of being passed over until it ends the schedule alone.
      const head = queue.findIndex(ready);
      if (head < 0) break;
      const slack = Math.min(...[...running.values()].map((r) => r.endsAt)) - Date.now();
      const i = fits(queue[head]!) ? head : queue.findIndex((f) => ready(f) && fits(f) && lastWall(f) <= slack);
      if (i < 0) break;
      const [f] = queue.splice(i, 1) as [string];
      running.set(f, { cores: demandOf(f), endsAt: Date.now() + lastWall(f) });
      void run(f).then(() => {
        running.delete(f);
        next();
      });
    }
  }
  next();
  return done;
}

/** A call that adds to a process-wide registry (packages/shared/src/registry.ts, the runner's plug-ins). */
const REGISTERS = /\bregister(Language|TargetKind|LanguagePlugin|TargetPlugin)\(/;

/** What the unit tier's files run as together: named as a unit file of its own (scripts/cpu-probe.mjs applies the tier's rule to it). */
const UNIT_TOGETHER = path.join(TEST_BUNDLES, 'test', 'unit', 'unit-tier.test.mjs');

/**
 * Writes UNIT_TOGETHER, a module that imports the unit files' `bundles`, and returns its path: their tests
 * run one file after another in one process. Each file's own process cost about 0.5 s of CPU beside its
 * tests (38 files: about 20 s a run), and a unit file starts no process, so none needs one of its own.
 */
function unitTogether(bundles: string[]): string {
  writeFileSync(UNIT_TOGETHER, `${bundles.map((b) => `import ${JSON.stringify(pathToFileURL(b).href)};`).join('\n')}\n`);
  return UNIT_TOGETHER;
}

/**
 * One run of node's test runner over `files`, `concurrency` files at a time: its counts and each file's
 * time. `together` (unit files from their bundles): in one process, from one module that imports them all
 * (unitTogether), its time and CPU under UNIT_TOGETHER's name.
 */
function runFiles(
  files: string[],
  concurrency: number,
  env: NodeJS.ProcessEnv,
  cgroup?: IdleCgroup,
  together = false,
): Promise<Pick<TierRun, 'pass' | 'fail' | 'skipped' | 'status' | 'fileMs' | 'fileCpuMs'>> {
  const counts = { pass: 0, fail: 0, skipped: 0 };
  const timesFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'scb-test-times-')), 'times.json');
  const cpuFile = path.join(path.dirname(timesFile), 'cpu.jsonl');
  // From their bundles where every file has one (scripts/test-bundles.ts), else from the sources through tsx.
  const bundled = files.every((f) => BUNDLES.has(f));
  const args = [
    '--import',
    COMPILE_CACHE_PRELOAD,
    ...(bundled ? ['--enable-source-maps'] : ['--import', 'tsx']),
    '--import',
    path.resolve('scripts/cpu-probe.mjs'),
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.resolve('scripts/file-times.mjs')}`,
    `--test-reporter-destination=${timesFile}`,
    ...(bundled ? (together ? [unitTogether(files.map((f) => BUNDLES.get(f)!))] : files.map((f) => BUNDLES.get(f)!)) : files),
  ];
  const [command, commandArgs] = cgroup ? cgroup.wrap([process.execPath, ...args]) : [process.execPath, args];
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, SCB_TEST_CPU_FILE: cpuFile } });
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop()!;
    // Whole lines only: two runs may write beside each other.
    if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
    for (const line of lines) {
      const m = /^ℹ (pass|fail|skipped) (\d+)$/.exec(line.trim());
      if (m) counts[m[1] as keyof typeof counts] = Number(m[2]);
    }
  });
  child.stdout.on('end', () => rest && process.stdout.write(`${rest}\n`));
  return new Promise((resolve) =>
    // After its output has ended, not only its process.
    child.on('close', (code) => {
      let fileMs: Record<string, number> = {};
      const fileCpuMs: Record<string, number> = {};
      try {
        fileMs = JSON.parse(readFileSync(timesFile, 'utf8'));
        for (const line of readFileSync(cpuFile, 'utf8').split('\n').filter(Boolean)) {
          const { file, cpuMs } = JSON.parse(line) as { file: string; cpuMs: number };
          fileCpuMs[file] = cpuMs;
        }
      } catch {
        // No times when the runner died early (or no CPU times off Linux): the summary still counts the run.
      }
      rmSync(path.dirname(timesFile), { recursive: true, force: true });
      resolve({ ...counts, status: code ?? 1, fileMs, fileCpuMs });
    }),
  );
}

/** `next build`, its output kept apart (it runs beside test files) and shown only if it fails. */
function buildWebApp(env: NodeJS.ProcessEnv, cgroup?: IdleCgroup): Promise<void> {
  const t0 = Date.now();
  console.log(`\n== building the web app (${cgroup ? 'in the idle cgroup, from the start' : 'beside the test files'})`);
  const argv: [string, ...string[]] = [process.execPath, NEXT_BIN, 'build'];
  const [command, args] = cgroup ? cgroup.wrap(argv) : [argv[0], argv.slice(1)];
  const child = spawn(command, args, { cwd: WEB, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const s of [child.stdout, child.stderr]) s.on('data', (c: Buffer) => (output += c.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`next build failed with code ${code}:\n${output}`));
      markWebBuilt();
      console.log(`\n# web app built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      resolve();
    }),
  );
}

/**
 * `tsc` over the workspace and over the web app (npm run typecheck), in `cgroup` where there is one; its
 * output is shown only when it fails.
 */
function typecheck(cgroup?: IdleCgroup): Promise<boolean> {
  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  const check = (project: string) =>
    new Promise<boolean>((resolve) => {
      // Incremental from the last run's build info (kept in the client cache): files unchanged since it
      // are not checked again. It lives in the checkout while tsc runs, its paths relative to it.
      const name = `${project.replace(/\W+/g, '-')}.tsbuildinfo`;
      const [kept, info] = [path.join(CACHE_DIR, 'tsc', name), path.resolve('node_modules/.cache/tsc', name)];
      mkdirSync(path.dirname(info), { recursive: true });
      if (existsSync(kept)) copyFileSync(kept, info);
      const argv: [string, ...string[]] = [process.execPath, tsc, '-p', project, '--incremental', '--tsBuildInfoFile', info];
      const [command, args] = cgroup ? cgroup.wrap(argv) : [argv[0], argv.slice(1)];
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      for (const s of [child.stdout, child.stderr]) s.on('data', (c: Buffer) => (output += c.toString('utf8')));
      child.on('close', (code) => {
        if (code !== 0) console.error(`\n# type check of ${project} failed (code ${code}):\n${output}`);
        if (existsSync(info)) {
          mkdirSync(path.dirname(kept), { recursive: true });
          copyFileSync(info, kept);
        }
        resolve(code === 0);
      });
    });
  const t0 = Date.now();
  return check('tsconfig.json')
    .then(async (ok) => (await check('apps/web/tsconfig.json')) && ok)
    .then((ok) => {
      if (ok) console.log(`\n# types checked in ${((Date.now() - t0) / 1000).toFixed(0)} s${cgroup ? ' (in the idle cgroup)' : ''}`);
      return ok;
    });
}

/**
 * One embedded cluster for the run, with the migrated template every test database is copied from; with
 * `cgroup`, its processes (and the backends it starts later) in that group.
 */
async function startCluster(cgroup?: IdleCgroup) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-test-cluster-'));
  // Up to six files at once, each with its databases, runners and stacks' pools: more than 100 connections.
  const db = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort(), database: TEST_TEMPLATE, maxConnections: 600 });
  await migrate(db.url);
  // graphile-worker's schema too: each copy's runner would install it again.
  await ensureQueue(db.url);
  await releaseQueue();
  // postmaster.pid's first line: the server's process, which forks every backend.
  const pid = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  cgroup?.enterTree(pid);
  return {
    adminUrl: db.url.replace(new RegExp(`/${TEST_TEMPLATE}$`), '/postgres'),
    async stop() {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => a !== '--');
  const lanesOf = (name: string, fallback: number) => {
    const n = Number(process.env[name] ?? fallback);
    if (Number.isInteger(n) && n >= 1 && n <= 8) return n;
    console.error(`${name}: "${process.env[name]}" is not a whole number from 1 to 8 (test files run side by side)`);
    process.exit(2);
  };
  const lanes = lanesOf('SCB_TEST_LANES', 2);
  const unknown = only.filter((a) => !(TIERS as readonly string[]).includes(a));
  if (unknown.length) {
    console.error(`unknown tier ${unknown.join(', ')}: the tiers are ${TIERS.join(', ')}`);
    process.exit(2);
  }
  lint();
  const files = testFiles();
  BUNDLES = await bundleTestFiles([...files.values()].flat());
  const tiers = TIERS.filter((t) => !only.length || only.includes(t));
  // Built already (here, or in another checkout whose build the client cache kept): the e2e files that
  // must run alone run with the others that must, first.
  const webBuilt = (): boolean => {
    if (!tiers.includes('e2e') || !webBuildIsStale()) return true;
    if (!restoreCachedWebBuild()) return false;
    console.log('\n# the web app of these sources, as built in another checkout (the client cache)');
    return true;
  };
  const cgroup = createIdleCgroup(`scb-test-${process.pid}`);
  // The type check of a whole run judges no timing: in the idle group it takes only idle cores. The web
  // app's types include its build's (.next/types): a build of these sources in the cache is restored first.
  webBuilt();
  const typechecked = only.length ? Promise.resolve(true) : typecheck(cgroup);
  if (!cgroup && !(await typechecked)) process.exit(1);
  const t0 = Date.now();
  const cluster = await startCluster();
  // One after the other: the queue's schema is installed through one shared pool (releaseQueue).
  const yieldingCluster = cgroup && (await startCluster(cgroup));
  console.log(`# one PostgreSQL cluster for the run${yieldingCluster ? ' and one in an idle cgroup for the yielding files' : ''}, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', [TEST_CLUSTER_ENV]: cluster.adminUrl, ...TEST_DRIVER_OPTIONS };
  // The commands the files start run from their bundles too (nodeArgs).
  if (BUNDLES.size) env[BUNDLED_ENV] = TEST_BUNDLES;
  // A yielding file's drivers get what the others leave, a tenth of a core at times: a Java cell's start
  // outlasted a minute there (artifact-uploads' Java job), so they may take five.
  const yieldingGroup = cgroup && yieldingCluster && { cgroup, env: { ...env, [TEST_CLUSTER_ENV]: yieldingCluster.adminUrl, SCB_DRIVER_START_MS: '300000' } };
  const runs: TierRun[] = [];
  let scheduleSeconds = 0;
  // The e2e files start the product side by side: its web build, when stale, is made once before them,
  // from the start, in the idle cgroup (the files that must run alone and the packed ones give it only
  // the cores they leave; the e2e files wait for it). Building renders the static pages, which read the
  // web app's environment: any database will do.
  const web = ((): Web => {
    if (!tiers.includes('e2e') || !webBuildIsStale()) return { ready: Promise.resolve(true) };
    const ready = buildWebApp({ ...env, DATABASE_URL: cluster.adminUrl }, cgroup).then(
      () => true,
      (e: Error) => {
        console.error(`\n${e.message}`);
        return false;
      },
    );
    // Without an idle cgroup next build keeps about a core and a half busy beside the files.
    return { ready, ...(!cgroup && { beside: { cores: 1.5, done: ready } }) };
  })();
  try {
    const order = tiers.map((t) => `${t} ${files.get(t)!.length}`).join(', ');
    console.log(`\n== ${order} files, in one schedule: ${lanes} at a time and more while the cores allow (e2e once the web app is built)`);
    const started = Date.now();
    runs.push(
      ...(await runTiers(
        tiers.map((t) => [t, files.get(t)!]),
        env,
        lanes,
        web,
        yieldingGroup,
      )),
    );
    scheduleSeconds = (Date.now() - started) / 1000;
  } finally {
    await Promise.all([cluster.stop(), yieldingCluster?.stop()]);
    cgroup?.remove();
  }
  saveTimes(runs);
  writeFileSync(TIMELINE_FILE, `${JSON.stringify(TIMELINE)}\n`);
  console.log('\n# tier         files  passed  failed  skipped  seconds (first file start to last file end)');
  for (const r of runs) {
    console.log(
      `# ${r.tier.padEnd(12)} ${String(r.files).padStart(5)} ${String(r.pass).padStart(7)} ${String(r.fail).padStart(7)} ${String(r.skipped).padStart(8)} ${r.seconds.toFixed(0).padStart(8)}`,
    );
  }
  // Where the time went: each tier's CPU over its span (tiers overlap), the whole schedule's, and the
  // ten slowest files with their CPU.
  const cpuOf = (r: TierRun) => Object.values(r.fileCpuMs).reduce((a, b) => a + b, 0) / 1000;
  for (const r of runs) if (cpuOf(r)) console.log(`# ${r.tier}: ${cpuOf(r).toFixed(0)} s of CPU over ${r.seconds.toFixed(0)} s`);
  const cpu = runs.reduce((a, r) => a + cpuOf(r), 0);
  if (cpu && scheduleSeconds) console.log(`# every tier: ${cpu.toFixed(0)} s of CPU in ${scheduleSeconds.toFixed(0)} s (${(cpu / scheduleSeconds).toFixed(2)} cores on average)`);
  const slowest = runs
    .flatMap((r) => Object.entries(r.fileMs).map(([f, ms]) => ({ f, ms, cpuMs: r.fileCpuMs[f] })))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  if (slowest.length) console.log('# the ten slowest files (wall, CPU):');
  for (const { f, ms, cpuMs } of slowest)
    console.log(`#   ${(ms / 1000).toFixed(0).padStart(4)} s ${cpuMs === undefined ? '' : `${(cpuMs / 1000).toFixed(0).padStart(4)} s`}  ${path.relative(process.cwd(), f)}`);
  const sum = (k: 'pass' | 'fail' | 'skipped') => runs.reduce((a, r) => a + r[k], 0);
  // A tier whose runner failed without a failing test (a file that did not load) still fails the run.
  const failed = sum('fail') + runs.filter((r) => r.status !== 0 && r.fail === 0).length + ((await typechecked) ? 0 : 1);
  console.log(`${sum('pass')} passed, ${failed} failed, ${sum('skipped')} skipped`);
  process.exit(failed > 0 ? 1 : 0);
}

await main();
