// Many runners on one queue, as separate runner processes on one real PostgreSQL: they share the
// queued jobs without running one twice, never measure at the same time on one host, and a runner
// killed with SIGKILL in the middle of a cell has its job resumed by another from that cell, the
// cells already stored left exactly as they were.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { cancelJob, createJob, enqueueJobIn, listRunners, storeArtifact } from '@scb/db';
import { artifactId } from '@scb/languages';
import { parseJobSpec, placementFlags, placementProblem } from '@scb/shared';
import { waitForJob } from '../helpers/jobs';
import { useTestDatabase } from '../helpers/postgres';
import { nodeArgs } from '../../scripts/test-sources.mjs';

const t = useTestDatabase();
const HEARTBEAT_MS = 500;

interface RunnerProcess {
  child: ChildProcess;
  lines: string[];
  /** Resolves when a line matches. */
  waitFor(re: RegExp, timeoutMs: number): Promise<string>;
}

function startRunnerProcess(name: string, env: Record<string, string> = {}): RunnerProcess {
  const child = spawn(process.execPath, nodeArgs('apps/runner/src/main.ts'), {
    env: { ...process.env, DATABASE_URL: t.url, SCB_HEARTBEAT_MS: String(HEARTBEAT_MS), SCB_RUNNER_LABELS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  for (const s of [child.stdout!, child.stderr!]) {
    createInterface({ input: s }).on('line', (l) => {
      lines.push(`${name}: ${l}`);
      for (const w of waiters.filter((w) => w.re.test(l))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    });
  }
  return {
    child,
    lines,
    waitFor: (re, timeoutMs) =>
      new Promise((resolve, reject) => {
        const found = lines.find((l) => re.test(l));
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error(`${name}: no line like ${re} within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      }),
  };
}

async function stopRunner(r: RunnerProcess): Promise<void> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return;
  const exited = new Promise((resolve) => r.child.once('exit', resolve));
  r.child.kill('SIGTERM');
  await exited;
}

/**
 * Two runners on one host, shared by the three tests below in their order (a runner's start costs
 * seconds of CPU): they share jobs, then hand a job back with a third beside them, and last one of them
 * is killed mid-cell (that test stops both).
 */
let pair: [RunnerProcess, RunnerProcess] | undefined;
async function runnerPair(): Promise<[RunnerProcess, RunnerProcess]> {
  pair ??= [startRunnerProcess('A'), startRunnerProcess('B')];
  await Promise.all(pair.map((r) => r.waitFor(/waiting for jobs/, 60_000)));
  return pair;
}
// Where the last of them did not run (a --test-name-pattern), the pair is stopped at the end.
after(async () => {
  if (pair) await Promise.all(pair.map(stopRunner));
});

// What these jobs run is not under test, only who runs them: the fake at 50 ms and a few operations a
// cell keep each Node driver's work (and so the suite's CPU) small. `seconds`: a measured phase that long
// instead (a test that must catch a cell while it measures).
const nodeJob = (name: string, cells: number, seconds?: number) => {
  const p = parseJobSpec({
    name,
    clients: [{ language: 'node', version: '9.0.0' }],
    configurations: [{ label: 'default' }],
    concurrency: Array.from({ length: cells }, (_, i) => 5 + i),
    workload: seconds === undefined ? { warmupOps: 5, measuredOps: 10 } : { warmupOps: 20, durationSeconds: seconds },
    target: { kind: 'fake', latencyMs: 50 },
  });
  assert.ok(p.ok);
  return p.value;
};

test('two runners on one database share the queued jobs: none runs twice, none is lost, and they never measure at once on one host', { timeout: 600_000 }, async () => {
  const [a, b] = await runnerPair();
  // Three jobs: each runner takes one (a runner takes one job at a time, then waits for the host) and
  // the third waits in the queue while both are busy, for whichever is free first. A fourth (as there
  // were) asked nothing more, and was a Node cell of about a second and a half of CPU.
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await createJob(t.db, t.url, nodeJob(`shared ${i}`, 1)));
  const jobs = [];
  for (const id of ids) jobs.push(await waitForJob(t.db, id, 300_000, [...a.lines, ...b.lines]));
  for (const j of jobs) {
    assert.equal(j.status, 'succeeded', j.error ?? '');
    assert.deepEqual(
      j.cells.map((c) => c.attempts),
      [1],
    );
  }
  const runnersUsed = new Set(jobs.map((j) => j.runnerId));
  assert.equal(runnersUsed.size, 2, `both runners took jobs: ${[...runnersUsed].join(', ')}`);
  // One host: the jobs' cells ran one after another, never overlapping.
  const spans = jobs.map((j) => [j.cells[0]!.startedAt!.getTime(), j.cells[0]!.finishedAt!.getTime()] as const).sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < spans.length; i++) assert.ok(spans[i]![0] >= spans[i - 1]![1], `cells overlapped on one host: ${JSON.stringify(spans)}`);
  // A generous window: a heartbeat late on a loaded machine must not drop a runner that is up (as below).
  const alive = (await listRunners(t.db, 30_000)).filter((r) => r.alive);
  assert.ok(alive.length >= 2);
  assert.ok(alive.every((r) => r.languages.includes('node') && r.cores > 0));
});

test('placement: a job requiring a label goes to the runner that has it, even one handed to another; one no runner can take says why and waits', { timeout: 300_000 }, async () => {
  // The two runners of the tests above, neither labelled.
  const plain = await runnerPair();
  const lines = () => plain.flatMap((r) => r.lines);
  let lab: RunnerProcess | undefined;
  try {
    const spec = (requirements: object) => {
      const p = parseJobSpec({ ...nodeJob('placed', 1), requirements });
      assert.ok(p.ok, JSON.stringify(!p.ok && p.issues));
      return p.value;
    };
    // A queue entry without the job's flags (as when a job is queued between a runner reading its
    // forbidden flags and taking one): the runner that lacks the label gives it back.
    const strayed = await createJob(t.db, t.url, spec({ labels: ['perf-lab'] }));
    await t.db.$transaction((tx) => enqueueJobIn(tx, strayed, [], `job:${strayed}:stray`));
    // And one queued as any job is, with its flags, while no runner with the label is up: the two
    // without it sit idle beside it until that runner has started and run the job handed back (seconds),
    // every chance to take it. (One such job rather than three after that runner is up: each is a Node
    // cell, about a second of CPU.)
    const placed = await createJob(t.db, t.url, spec({ labels: ['perf-lab'] }));
    const handedBack = new RegExp(`job ${strayed}: this runner lacks the label perf-lab; handed back to the queue`);
    await Promise.any(plain.map((r) => r.waitFor(handedBack, 60_000)));
    for (const id of [strayed, placed]) assert.equal((await t.db.job.findUniqueOrThrow({ where: { id } })).status, 'queued');
    lab = startRunnerProcess('lab', { SCB_RUNNER_LABELS: 'perf-lab' });
    await lab.waitFor(/waiting for jobs/, 60_000);
    const labId = (await lab.waitFor(/registered as runner/, 1000)).split(' ').pop();
    const handed = await waitForJob(t.db, strayed, 120_000, [...lines(), ...lab.lines]);
    assert.equal(handed.status, 'succeeded', handed.error ?? '');
    assert.equal(handed.runnerId, labId, 'the runner with the label ran the job handed back');
    assert.deepEqual(
      handed.cells.map((c) => c.attempts),
      [1],
    );
    const job = await waitForJob(t.db, placed, 120_000, [...lines(), ...lab.lines]);
    assert.equal(job.status, 'succeeded', job.error ?? '');
    assert.equal(job.runnerId, labId, 'only the runner with the label took it');
    const huge = await createJob(t.db, t.url, spec({ minCores: 1024 }));
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal((await t.db.job.findUniqueOrThrow({ where: { id: huge } })).status, 'queued', 'no runner took it');
    // The three runners are up: a generous window, so that a heartbeat late on a loaded CI machine (one
    // ran 2 s late there) does not drop one. The placement sentence is under test here, not the heartbeat.
    const alive = (await listRunners(t.db, 30_000)).filter((r) => r.alive);
    assert.match(placementProblem(placementFlags(spec({ minCores: 1024 })), alive) ?? '', /no alive runner can take this job: the closest one \(of 3\) lacks at least 1024 cores/);
    assert.equal(await cancelJob(t.db, huge), 'cancelled');
  } finally {
    // The pair goes on to the next test, the runner with the label does not.
    if (lab) await stopRunner(lab);
  }
});

test('a runner killed mid-cell: another resumes its job from that cell; stored cells do not change; the cell ran again', { timeout: 600_000 }, async () => {
  const runners = await runnerPair();
  try {
    const idOf = await Promise.all(runners.map(async (r) => (await r.waitFor(/registered as runner/, 1000)).split(' ').pop()!));
    const id = await createJob(t.db, t.url, nodeJob('resume me', 3, 2));
    // The runner that took the job is killed while its second cell measures; the other takes over.
    for (;;) {
      const c = await t.db.cell.findFirst({ where: { jobId: id, index: 1 } });
      if (c?.status === 'running' && (c.progress as { phase?: string } | null)?.phase === 'measure') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { runnerId } = await t.db.job.findUniqueOrThrow({ where: { id } });
    const [a, b] = idOf[0] === runnerId ? runners : [runners[1], runners[0]];
    const stored = await t.db.cell.findFirstOrThrow({ where: { jobId: id, index: 0 }, include: { result: true, channels: true } });
    assert.equal(stored.status, 'succeeded');
    a!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await b!.waitFor(new RegExp(`job ${id}: runner \\S+ stopped heartbeating`), 30_000);
    const noticedMs = Date.now() - killedAt;
    await b!.waitFor(new RegExp(`job ${id}: running 2 cells \\(resumed: 1 already finished\\)`), 30_000);
    const resumedMs = Date.now() - killedAt;
    const job = await waitForJob(t.db, id, 300_000, [...a!.lines, ...b!.lines]);
    console.log(`# SIGKILL to the lapse noticed: ${noticedMs} ms; to the job running again: ${resumedMs} ms (heartbeat ${HEARTBEAT_MS} ms, lapse 4 beats)`);
    assert.equal(job.status, 'succeeded', job.error ?? '');
    assert.ok(
      job.cells.every((c) => c.status === 'succeeded'),
      JSON.stringify(job.cells.map((c) => [c.status, c.error])),
    );
    assert.equal(job.resumes, 1);
    assert.deepEqual(
      job.cells.map((c) => c.attempts),
      [1, 2, 1],
      'the interrupted cell ran twice, the others once',
    );
    const after = await t.db.cell.findFirstOrThrow({ where: { jobId: id, index: 0 }, include: { result: true, channels: true } });
    assert.deepEqual(after, stored, 'the cell stored before the kill is exactly as it was');
    const registered = await listRunners(t.db, HEARTBEAT_MS * 4);
    const dead = registered.find((r) => r.id === runnerId);
    assert.ok(dead && !dead.alive && dead.stopReason === 'its heartbeat lapsed', JSON.stringify(registered));
    // The lapse the test configured (4 beats of 500 ms), not the default's 20 s, noticed it: within a
    // few lapses, however busy the machine.
    assert.ok(noticedMs < 4 * (HEARTBEAT_MS * 4), `noticed after ${noticedMs} ms`);
  } finally {
    await Promise.all(runners.map(stopRunner));
  }
});

test('an uploaded build on two machines: runners with their own SCB_MACHINE and install cache each fetch it from PostgreSQL and run it sandboxed', { timeout: 600_000 }, async () => {
  // The build: the published package as npm pack writes it (npm's cache serves it after the first run).
  const packDir = mkdtempSync(path.join(os.tmpdir(), 'scb-runners-pack-'));
  execFileSync('npm', ['pack', '@google-cloud/spanner@9.0.0', '--silent', '--pack-destination', packDir], { cwd: packDir });
  const bytes = readFileSync(path.join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!));
  const id = artifactId(bytes);
  await storeArtifact(t.db, {
    id,
    language: 'node',
    module: '@google-cloud/spanner',
    version: '9.0.0',
    format: 'npm-pack',
    label: 'two machines',
    bytes: bytes.length,
    contents: null,
    uploadedBy: 'token:test',
    content: bytes,
  });
  const own = (name: string) => ({ SCB_MACHINE: `machine-${name}`, SCB_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), `scb-runner-${name}-cache-`)), SCB_ARTIFACTS: 'on' });
  const a = startRunnerProcess('A', own('a'));
  const b = startRunnerProcess('B', own('b'));
  try {
    await Promise.all([a.waitFor(/waiting for jobs/, 60_000), b.waitFor(/waiting for jobs/, 60_000)]);
    const spec = (n: number) => {
      const p = parseJobSpec({ ...nodeJob(`build ${n}`, 1), clients: [{ language: 'node', version: '9.0.0', artifact: id, label: 'two machines' }] });
      assert.ok(p.ok, JSON.stringify(!p.ok && p.issues));
      return p.value;
    };
    const ids = [await createJob(t.db, t.url, spec(1)), await createJob(t.db, t.url, spec(2))];
    const jobs = [];
    for (const j of ids) jobs.push(await waitForJob(t.db, j, 400_000, [...a.lines, ...b.lines]));
    for (const j of jobs) {
      assert.equal(j.status, 'succeeded', `${j.error ?? ''} ${j.cells.map((c) => c.error).join(' ')}`);
      assert.match(String((j.environment as { builds?: string } | null)?.builds), /^sandboxed/, 'the job records how its drivers ran');
    }
    assert.equal(new Set(jobs.map((j) => j.runnerId)).size, 2, 'each runner ran one');
    for (const r of [a, b])
      assert.ok(
        r.lines.some((l) => l.includes(`installing the uploaded build ${id.slice(0, 19)}`)),
        `${r.lines[0]?.split(':')[0]} installed the build from the database`,
      );
  } finally {
    await Promise.all([stopRunner(a), stopRunner(b)]);
  }
});
