// test: alone — four gates judge the machine's timing of an injected wait; other files beside them would be noise.
// Candidate builds end to end (issue 37): the CI shell steps (examples/ci/build-candidate.sh and
// gate-candidate.sh) against `npm start`'s stack with uploads on. @google-cloud/spanner 9.0.0 from
// `npm pack`, unpacked and packed again unchanged, does not fail a gate against the published 9.0.0 (A/A); the
// same with a 40 ms wait added to Database.run fails it, naming p50; and so for Go's v1.96.1 module zip
// and a 40 ms sleep in Query. Each in its smallest decisive form (below): the injected waits are a third
// to two thirds of the queries' latency, far beyond the criteria, so 1 s cells decide. The full form, A/A runs and
// builds slowed by 1-10% of the p50 judged against the scenario's own gate, is `npm run bench:calibrate`
// (Node and Go). The uploads' refusals and records and a Java fragment's resolving, which do not judge
// the machine, are in artifact-uploads.test.ts beside other files; the Java fragment's A/A gate is
// `npm run bench:candidate-builds -- --from 6.104.0`.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { nodeDelaySnippet, prepareDriver, unpackArtifact } from '@scb/languages';
import { goEnv } from '../../packages/languages/src/go/install';
import { gateCli, TEST_GATE_POLL_ENV } from '../helpers/gate-cli';
import { startStack, type Stack } from '../helpers/stack';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
let stack: Stack;
let dir: string;
let published: string;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'scb-artifacts-'));
  // The published tarball, as npm serves it (from npm's cache after the first run).
  await run('npm', ['pack', '@google-cloud/spanner@9.0.0', '--silent', '--pack-destination', dir], { cwd: dir, maxBuffer: 1 << 24 });
  published = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
  stack = await startStack({ env: { SCB_ARTIFACTS: 'on' } });
});

after(async () => {
  if (stack) await stack.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The client's "checkout": the published package unpacked, as a built checkout of the Node client is. */
async function checkout(name: string): Promise<string> {
  const into = path.join(dir, name);
  mkdirSync(into);
  await run('tar', ['xzf', published, '-C', into]);
  return path.join(into, 'package');
}

function sh(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(ROOT, 'examples/ci', script), ...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// Small and decisive: 60 ms queries at C=8, 1 s cells, every driver sandboxed (a job with a build runs
// all its drivers so). Go's A/A gate runs 3 repeats a side, Node's 5 (NODE_AA): a cell left out as harness-bound leaves them
// inconclusive, which assertAaHolds accepts (never a FAIL). The slowed builds' gates run 5, so two cells
// left out of an arm still leave 3 to fail on (a CI run had one Node cell whose fake added 12% of its p99
// at 30 ms queries; beside npm test's idle cgroup, one had 2 of 4 baseline cells left out at 13%). At 60 ms the fake's own few ms of scheduling (its event loop shares the runner's with the
// bridges) are half the share of the client's p99 they were at 30 ms, where such cells were left out;
// C=8 keeps the 133 queries a second of 30 ms at C=4. The Node driver is one prebuilt bundle (nothing
// compiles in the sandbox): 80 warm-up operations keep the client's first calls out. Node's repeats of one
// build differ by up to 4% on p50 on a quiet machine, but beside npm test's idle cgroup two of five
// repeats of the unchanged build reached 76-79 ms against 68-73 (+3.0%, its 90% interval to +14%): it is
// allowed +15%. A 20 ms wait on a timer added a third there, but only +15% (85.2 -> 97.8 ms) on a slower
// machine whose client time at C=8 is 25 ms, where the other agents' work fills part of the wait: 40 ms.
// A 1 s cell has about 100 queries, so its p99 is nearly its slowest query and one stall moves a repeat's
// qps: a CI run's A/A had one candidate repeat at p99 125 ms against 83-93 ms (90% interval to +51%) and
// one at 100 qps against 107-112 (to −11%), inconclusive at +30% and −10%. The slowed builds are judged on
// p50, so p99 and qps are allowed what a stall does here.
const LATENCY_MS = 60;
const WAIT_MS = 40;
/** Go's sleep in Query, at its own 120 ms queries (below). */
const GO_SLEEP_MS = 40;
const GATE = {
  scenario: 'steady-select1',
  target: { kind: 'fake', latencyMs: LATENCY_MS },
  workload: { warmupOps: 80, durationSeconds: 1 },
  concurrency: [8],
  repeats: 3,
  timeScale: 1,
  criteria: { qpsDropPct: 20, p50RisePct: 15, p99RisePct: 60 },
};
/** The slowed builds' gates: two cells of an arm left out as harness-bound still leave 3 repeats to judge. */
const SLOWED = { repeats: 5 };
/**
 * Node's A/A gate: with 3 repeats a side, a CI run's unchanged build measured p50 71.2-76.4 ms against the
 * release's 68.5-72.1 (+4.6%, its 90% interval to +12%): inconclusive against +10% on chance alone.
 * Five narrow the interval of a median, as for the slowed gate.
 */
const NODE_AA = { repeats: 5 };

async function gate(build: string, label: string, over: Record<string, unknown> = {}) {
  const spec = path.join(dir, `gate-${label.replace(/\W+/g, '-')}.json`);
  writeFileSync(spec, JSON.stringify({ ...GATE, ...over }));
  const out = path.join(dir, `${label.replace(/\W+/g, '-')}.md`);
  const r = await sh('gate-candidate.sh', [], {
    SCB_SERVER: stack.baseUrl,
    LANGUAGE: 'node',
    BASELINE: '9.0.0',
    BUILD: build,
    LABEL: label,
    SCENARIOS: 'steady-select1',
    GATE_FLAGS: `--spec ${spec}`,
    OUT: out,
    ...TEST_GATE_POLL_ENV,
  });
  const markdown = readFileSync(out, 'utf8');
  // The verdict and its first reason, for whoever reads the test's output.
  console.log(`# ${label}: ${/\*\*Verdict: (\w+)\*\*/.exec(markdown)?.[1]}; ${/^- .*$/m.exec(markdown)?.[0] ?? ''}`);
  return { ...r, markdown };
}

test('the CI steps: an unchanged build does not fail a gate against its release, one with a 40 ms wait in Database.run fails naming p50', async () => {
  const same = await sh('build-candidate.sh', ['node', await checkout('same'), path.join(dir, 'same.tgz')], {});
  assert.equal(same.code, 0, same.stderr);
  const aa = await gate(path.join(dir, 'same.tgz'), 'PR 1 @ unchanged', NODE_AA);
  assertAaHolds(aa.code, aa.markdown, aa.stderr);
  assert.match(aa.markdown, /PR 1 @\u200b? unchanged \(build sha256:[0-9a-f]{12} of 9\.0\.0\)/, 'the Markdown names the build, never a release');

  const patched = await checkout('patched');
  const file = path.join(patched, 'build/src/database.js');
  const source = readFileSync(file, 'utf8');
  assert.ok(source.includes('    run(query, optionsOrCallback, cb) {\n'), 'Database.run is where 9.0.0 has it');
  // A wait on a timer (as bench:calibrate's slowed builds): the same 40 ms per query whatever the load,
  // where a busy loop on the driver's one event loop would queue the other agents behind it.
  writeFileSync(file, source + nodeDelaySnippet({ Database: ['run'] }, WAIT_MS));
  const built = await sh('build-candidate.sh', ['node', patched, path.join(dir, 'patched.tgz')], {});
  assert.equal(built.code, 0, built.stderr);
  const slow = await gate(path.join(dir, 'patched.tgz'), 'PR 2 @ slower', SLOWED);
  assert.equal(slow.code, 1, `the slower build fails:\n${slow.stderr}\n${slow.markdown}`);
  assert.match(slow.markdown, /\*\*Verdict: FAIL\*\*/);
  assert.match(slow.markdown, /p50 at C=8 rose [\d.]+%/);

  // The build's record lists the gate's job; the job's cells carry the build.
  const id = /build (sha256:[0-9a-f]{64})/.exec(slow.stderr)![1]!;
  const record = (await (await fetch(`${stack.baseUrl}/api/artifacts/${id}`)).json()) as { label: string; jobs: { url: string; gate?: string }[] };
  assert.equal(record.label, 'PR 2 @ slower');
  assert.equal(record.jobs.length, 1);
  assert.ok(record.jobs[0]!.gate, 'the job is a gate');
  const cells = ((await (await fetch(`${stack.baseUrl}/api/jobs/${record.jobs[0]!.url.split('/').pop()}`)).json()) as { cells: { arm: string; client: { artifact?: string; label?: string } }[] })
    .cells;
  assert.deepEqual(
    cells.filter((c) => c.arm === 'candidate').map((c) => c.client.artifact),
    Array.from({ length: SLOWED.repeats }, () => id),
  );
  assert.ok(cells.filter((c) => c.arm === 'baseline').every((c) => c.client.artifact === undefined));
});

/**
 * An unchanged build against its release: PASS, or INCONCLUSIVE, never FAIL (only a FAIL is a false alarm)
 * and never a metric beyond its limit. INCONCLUSIVE because a cell was left out as harness-bound (whole, or
 * at p99 only) and too few repeats remained to judge (3 a side for Go here: one left out leaves 2; two of
 * three CI runs had one such Go cell at 30 ms queries), or because a metric was too noisy to rule out its
 * limit: Node's repeats here vary by about 14% on the slower machine, where a run's A/A had p50 +4.5%,
 * its interval to +17% against 15% (the scenario's own A/A gates: 4 of 20 inconclusive, none failed,
 * docs/findings/gate-calibration.md). The slowed builds' gates are what must fail.
 */
function assertAaHolds(code: number | null, markdown: string, stderr: string): void {
  const why = `A/A holds:\n${stderr}\n${markdown}`;
  if (code === 0) {
    assert.match(markdown, /\*\*Verdict: PASS\*\*/, why);
    return;
  }
  assert.equal(code, 2, why);
  assert.match(markdown, /\*\*Verdict: INCONCLUSIVE\*\*/, why);
  // Left out whole (every metric), or at p99 only (the fake's own wake-up a tenth of the client's p99): either way too few remain; or a metric too noisy.
  assert.match(markdown, /too few repeats (remain )?to judge|too noisy to rule out more than the allowed/, why);
  assert.doesNotMatch(markdown, / fell | rose /, why);
}

const CACHE_DIR = path.resolve(process.env.SCB_CACHE_DIR ?? path.join(ROOT, '.cache'));

/** A gate through `npm run gate` with a candidate build; the Markdown on stdout, progress on stderr. */
async function gateWithBuild(language: string, baseline: string, build: string, label: string, over: Record<string, unknown> = {}) {
  const spec = path.join(dir, `gate-${language}-${label.replace(/\W+/g, '-')}.json`);
  writeFileSync(spec, JSON.stringify({ ...GATE, ...over }));
  const r = await gateCli(['--server', stack.baseUrl, '--language', language, '--baseline', baseline, '--candidate-artifact', build, '--label', label, '--spec', spec]);
  console.log(`# ${label}: ${/\*\*Verdict: (\w+)\*\*/.exec(r.stdout)?.[1]}; ${/^- .*$/m.exec(r.stdout)?.[0] ?? ''}`);
  return r;
}

test('go: the v1.96.1 module zip unchanged does not fail against 1.96.1; built from its folder with a 40 ms sleep in Query it fails naming p50', async () => {
  // The module zip as the proxy serves it, from the product's module cache (which a runner's cache cap
  // may have emptied since the published version's driver was built: go fetches it again then).
  await prepareDriver({ language: 'go', version: '1.96.1' }, { cacheDir: CACHE_DIR, log: () => {} });
  const downloaded = await promisify(execFile)('go', ['mod', 'download', '-json', 'cloud.google.com/go/spanner@v1.96.1'], { cwd: dir, env: goEnv(CACHE_DIR) });
  const zip = (JSON.parse(downloaded.stdout) as { Zip: string }).Zip;
  // Go's repeats differ by about 1% on p50: judged against 4%, which a 40 ms sleep (+33% at 120 ms) is far
  // beyond. Its p99 is so close to its p50 that the fake's own few ms can be a tenth of it: at 60 ms
  // queries a quiet CI run left 2 of the slowed gate's 4 baseline cells out so (inconclusive), hence 120 ms
  // at C=16 (the same queries a second) and 5 repeats for the slowed gate. One slow repeat moves its p99
  // (61 ms beside 35-38 at 30 ms in a run by hand): the pair is about p50. So is qps: one candidate cell
  // of a packed CI run (2026-11-28) measured 115 qps beside five at 128-129 in its second of 1 s, and 3
  // repeats of that are too noisy to rule out 10%.
  const tight = { criteria: { qpsDropPct: 30, p50RisePct: 4, p99RisePct: 100 }, target: { kind: 'fake', latencyMs: 2 * LATENCY_MS }, concurrency: [16] };
  const same = await gateWithBuild('go', '1.96.1', zip, 'go unchanged', tight);
  assertAaHolds(same.code, same.stdout, same.stderr);
  assert.match(same.stdout, /go unchanged \(build sha256:[0-9a-f]{12} of 1\.96\.1\)/);

  const folder = path.join(dir, 'go-module');
  unpackArtifact('go', readFileSync(zip), folder);
  const file = path.join(folder, 'transaction.go');
  const source = readFileSync(file, 'utf8');
  const at = 'func (t *txReadOnly) Query(ctx context.Context, statement Statement) *RowIterator {\n';
  assert.ok(source.includes(at), 'txReadOnly.Query is where v1.96.1 has it');
  writeFileSync(file, source.replace(at, `${at}\ttime.Sleep(${GO_SLEEP_MS} * time.Millisecond)\n`));
  const built = await sh('build-candidate.sh', ['go', folder, path.join(dir, 'go-slow.tar.gz')], {});
  assert.equal(built.code, 0, built.stderr);
  const slow = await gateWithBuild('go', '1.96.1', path.join(dir, 'go-slow.tar.gz'), 'go slower', { ...tight, repeats: 5 });
  assert.equal(slow.code, 1, `the slower build fails:\n${slow.stderr}\n${slow.stdout}`);
  assert.match(slow.stdout, /p50 at C=16 rose [\d.]+%/);
});
