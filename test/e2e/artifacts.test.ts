// test: alone — two gates judge the machine's timing of a 2 ms wait; other files beside them would be noise.
// Candidate builds end to end (issue 37): the CI shell steps (examples/ci/build-candidate.sh and
// gate-candidate.sh) against `npm start`'s stack with uploads on. @google-cloud/spanner 9.0.0 from
// `npm pack`, unpacked and packed again unchanged, passes a gate against the published 9.0.0 (A/A); the
// same with a 2 ms synchronous wait added to Database.run fails it, naming p50. The uploads' refusals,
// their records and the pages' words for a build come with them.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { makeMavenFragment, prepareDriver, unpackArtifact } from '@scb/languages';
import { gateCli } from '../helpers/gate-cli';
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
  stack = await startStack({ env: { SCB_ARTIFACTS: 'on', SCB_MAX_ARTIFACT_MB: '40' } });
});

after(async () => {
  if (stack) await stack.stop();
});

const upload = (bytes: Buffer, query: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.baseUrl}/api/artifacts?${query}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body: new Uint8Array(bytes) });

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

// Small and decisive: 30 ms queries at C=4, 4 repeats per arm of 2 s each (a cell left out as
// harness-bound still leaves 3: a CI run had one Node cell whose fake added 12% of its p99), every driver sandboxed
// (a job with a build runs all its drivers so). At 5 or 12 ms the fake's own scheduling (its event
// loop shares the runner's with the bridges) was a tenth of the p99, and such cells are left out as
// harness-bound. The Node driver is one prebuilt bundle (nothing compiles in the sandbox): 80 warm-up
// operations keep the client's first calls out. Node's repeats of one build differ by up to 4%
// on p50 here, so it is allowed +10%; a 2 ms synchronous wait on its event loop costs more than that.
const GATE = {
  scenario: 'steady-select1',
  target: { kind: 'fake', latencyMs: 30 },
  workload: { warmupOps: 80, durationSeconds: 2 },
  concurrency: [4],
  repeats: 4,
  timeScale: 1,
  criteria: { p50RisePct: 10, p99RisePct: 30 },
};

async function gate(build: string, label: string) {
  const spec = path.join(dir, `gate-${label.replace(/\W+/g, '-')}.json`);
  writeFileSync(spec, JSON.stringify(GATE));
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
  });
  const markdown = readFileSync(out, 'utf8');
  // The verdict and its first reason, for whoever reads the test's output.
  console.log(`# ${label}: ${/\*\*Verdict: (\w+)\*\*/.exec(markdown)?.[1]}; ${/^- .*$/m.exec(markdown)?.[0] ?? ''}`);
  return { ...r, markdown };
}

test('uploads: content-addressed, the version read from the build, refused naming why', async () => {
  const bytes = readFileSync(published);
  const first = await upload(bytes, 'language=node&label=published%209.0.0');
  assert.equal(first.status, 201, await first.clone().text());
  const a = (await first.json()) as { id: string; language: string; module: string; version: string; label: string; bytes: number; url: string };
  assert.equal(a.id, `sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  assert.deepEqual([a.language, a.module, a.version, a.label, a.bytes], ['node', '@google-cloud/spanner', '9.0.0', 'published 9.0.0', bytes.length]);
  const again = await upload(bytes, 'language=node&label=other');
  assert.equal(again.status, 200, 'the same bytes are the same build');
  assert.equal(((await again.json()) as { id: string; label: string }).label, 'published 9.0.0');
  const record = (await (await fetch(a.url)).json()) as { uploadedBy: string; jobs: unknown[]; version: string };
  assert.equal(record.version, '9.0.0');
  assert.match(record.uploadedBy, /\S/);
  assert.deepEqual(record.jobs, []);

  const refusals: [Response, number, RegExp][] = [
    [await upload(bytes, 'language=java'), 400, /not a java client build/],
    [await upload(bytes, 'language=cobol'), 400, /invalid upload/],
    [await upload(Buffer.from('not a tarball'), 'language=node'), 400, /not a node client build/],
    [await upload(Buffer.alloc(41 * 1024 * 1024), 'language=node'), 400, /larger than this server's limit of 40 MB \(SCB_MAX_ARTIFACT_MB\)/],
    [await fetch(`${stack.baseUrl}/api/artifacts?language=node`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: bytes }), 415, /content-type: application\/octet-stream/],
    [await fetch(`${stack.baseUrl}/api/artifacts/sha256:${'0'.repeat(64)}`), 404, /no build/],
  ];
  for (const [res, status, message] of refusals) {
    const body = (await res.json()) as { error: string };
    assert.equal(res.status, status, body.error);
    assert.match(body.error, message);
  }
  // A job naming a build that was never uploaded, or another language's, is refused naming the field.
  const job = (clients: unknown[]) =>
    fetch(`${stack.baseUrl}/api/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clients, workload: { measuredOps: 10 } }) });
  const unknown = (await (await job([{ language: 'node', artifact: `sha256:${'1'.repeat(64)}` }])).json()) as { issues: { path: string; message: string }[] };
  assert.deepEqual(
    unknown.issues.map((i) => i.path),
    ['clients.0.artifact'],
  );
  const wrong = (await (await job([{ language: 'go', artifact: a.id }])).json()) as { issues: { path: string; message: string }[] };
  assert.match(wrong.issues[0]!.message, /is a node build, not a go one/);
});

test('the CI steps: an unchanged build passes a gate against its release, one with a 2 ms wait in Database.run fails naming p50', async () => {
  const same = await sh('build-candidate.sh', ['node', await checkout('same'), path.join(dir, 'same.tgz')], {});
  assert.equal(same.code, 0, same.stderr);
  const aa = await gate(path.join(dir, 'same.tgz'), 'PR 1 @ unchanged');
  assertAaHolds(aa.code, aa.markdown, aa.stderr);
  assert.match(aa.markdown, /PR 1 @\u200b? unchanged \(build sha256:[0-9a-f]{12} of 9\.0\.0\)/, 'the Markdown names the build, never a release');

  const patched = await checkout('patched');
  const file = path.join(patched, 'build/src/database.js');
  const source = readFileSync(file, 'utf8');
  const at = '    run(query, optionsOrCallback, cb) {\n';
  assert.ok(source.includes(at), 'Database.run is where 9.0.0 has it');
  writeFileSync(file, source.replace(at, `${at}        { const until = Date.now() + 2; while (Date.now() < until) { /* 2 ms */ } }\n`));
  const built = await sh('build-candidate.sh', ['node', patched, path.join(dir, 'patched.tgz')], {});
  assert.equal(built.code, 0, built.stderr);
  const slow = await gate(path.join(dir, 'patched.tgz'), 'PR 2 @ slower');
  assert.equal(slow.code, 1, `the slower build fails:\n${slow.stderr}\n${slow.markdown}`);
  assert.match(slow.markdown, /\*\*Verdict: FAIL\*\*/);
  assert.match(slow.markdown, /p50 at C=4 rose [\d.]+%/);

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
    [id, id, id, id],
  );
  assert.ok(cells.filter((c) => c.arm === 'baseline').every((c) => c.client.artifact === undefined));
});

/**
 * An unchanged build against its release: PASS, or INCONCLUSIVE only because a cell was left out as
 * harness-bound and too few repeats remained to judge (3 a side here: one left out leaves 2; two of three
 * CI runs had one such Go cell). Never FAIL, never a metric beyond its limit or too noisy.
 */
function assertAaHolds(code: number | null, markdown: string, stderr: string): void {
  const why = `A/A holds:\n${stderr}\n${markdown}`;
  if (code === 0) {
    assert.match(markdown, /\*\*Verdict: PASS\*\*/, why);
    return;
  }
  assert.equal(code, 2, why);
  assert.match(markdown, /cells? were harness-bound and left out .*; too few repeats remain to judge/, why);
  assert.doesNotMatch(markdown, /too noisy| fell | rose /, why);
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

test('go: the v1.96.1 module zip unchanged passes against 1.96.1; built from its folder with a 2 ms sleep in Query it fails naming p50', async () => {
  // The module zip as the proxy serves it (installing the published version puts it in the product's module cache).
  await prepareDriver({ language: 'go', version: '1.96.1' }, { cacheDir: CACHE_DIR, log: () => {} });
  const zip = path.join(CACHE_DIR, 'go/mod/cache/download/cloud.google.com/go/spanner/@v/v1.96.1.zip');
  // Go's repeats differ by about 1% on p50: a 2 ms sleep (+7% at 30 ms) is judged against 4%. Its p99 is
  // so close to its p50 that the fake's own few ms can be a tenth of it, and such a cell is left out as
  // harness-bound (one of six in a CI run): 4 repeats a side, so 3 remain.
  // Its p99 is what one slow repeat moves (61 ms beside 35-38 in a run by hand): the pair is about p50.
  const tight = { criteria: { p50RisePct: 4, p99RisePct: 100 }, repeats: 4 };
  const same = await gateWithBuild('go', '1.96.1', zip, 'go unchanged', tight);
  assertAaHolds(same.code, same.stdout, same.stderr);
  assert.match(same.stdout, /go unchanged \(build sha256:[0-9a-f]{12} of 1\.96\.1\)/);

  const folder = path.join(dir, 'go-module');
  unpackArtifact('go', readFileSync(zip), folder);
  const file = path.join(folder, 'transaction.go');
  const source = readFileSync(file, 'utf8');
  const at = 'func (t *txReadOnly) Query(ctx context.Context, statement Statement) *RowIterator {\n';
  assert.ok(source.includes(at), 'txReadOnly.Query is where v1.96.1 has it');
  writeFileSync(file, source.replace(at, `${at}\ttime.Sleep(2 * time.Millisecond)\n`));
  const built = await sh('build-candidate.sh', ['go', folder, path.join(dir, 'go-slow.tar.gz')], {});
  assert.equal(built.code, 0, built.stderr);
  const slow = await gateWithBuild('go', '1.96.1', path.join(dir, 'go-slow.tar.gz'), 'go slower', tight);
  assert.equal(slow.code, 1, `the slower build fails:\n${slow.stderr}\n${slow.stdout}`);
  assert.match(slow.stdout, /p50 at C=4 rose [\d.]+%/);
});

test('java: a fragment of 6.104.0 relabelled 6.104.1-SNAPSHOT (spanner and its sibling modules) resolves from the fragment and passes against 6.104.0', async () => {
  // The release's jars in the local Maven repository, as any Java cell of it puts them there.
  await prepareDriver({ language: 'java', version: '6.104.0' }, { cacheDir: CACHE_DIR, log: () => {} });
  const fragment = path.join(dir, 'java-6.104.1-SNAPSHOT.tar.gz');
  writeFileSync(fragment, makeMavenFragment({ from: '6.104.0', to: '6.104.1-SNAPSHOT' }));
  // A JVM's repeats differ more than 4% on p50 in their first seconds: the default 20%.
  const r = await gateWithBuild('java', '6.104.0', fragment, 'java 6.104.0 relabelled', { criteria: { p50RisePct: 20, p99RisePct: 30 } });
  assertAaHolds(r.code, r.stdout, r.stderr);
  assert.match(r.stdout, /java 6\.104\.0 relabelled \(build sha256:[0-9a-f]{12} of 6\.104\.1-SNAPSHOT\)/);
});
