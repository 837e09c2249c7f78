import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  artifactIssues,
  backfillLimitRefusal,
  DEFAULT_LIMITS,
  isLoopbackHost,
  limitIssues,
  policyFromEnv,
  policyIssues,
  policyRefusal,
  targetPolicy,
  queueLimitRefusal,
  watchLimitRefusal,
  webhookIssues,
  webhookUrl,
  type Policy,
} from '../../src/policy/policy';
import { estimateJobSeconds } from '../../src/job/estimate';
import { DEFAULT_SPANNER_CEILINGS, emulatorHostAllowed, spannerEndpointAllowed, type EmulatorPolicy, type SpannerPolicy } from '../../src/targets/index';
import { PRESETS } from '../../src/job/presets';
import { parseJobSpec } from '../../src/job/spec';

const read = (env: Record<string, string>): Policy => {
  const r = policyFromEnv(env);
  assert.ok(r.ok, !r.ok ? r.error : '');
  return r.policy;
};
const spanner = (over: object = {}) => ({ kind: 'spanner' as const, projectId: 'my-project', instanceId: 'inst', databaseId: 'db1', maxOpsPerCell: 10, maxSecondsPerCell: 10, ...over });

test('Cloud Spanner targets are off until the operator lists databases', () => {
  const off = read({});
  assert.deepEqual(
    policyIssues(off, spanner()).map((i) => i.path),
    ['target.kind'],
  );
  assert.match(policyIssues(off, spanner())[0]!.message, /SCB_SPANNER_DATABASES/);
  const on = read({ SCB_SPANNER_DATABASES: 'my-project/inst/db1, other-project/*/*' });
  assert.deepEqual(policyIssues(on, spanner()), []);
  assert.deepEqual(policyIssues(on, spanner({ projectId: 'other-project', instanceId: 'x1', databaseId: 'anything' })), []);
  assert.deepEqual(
    policyIssues(on, spanner({ databaseId: 'db2' })).map((i) => i.path),
    ['target.databaseId'],
  );
  assert.deepEqual(
    policyIssues(on, spanner({ instanceId: 'inst2' })).map((i) => i.path),
    ['target.databaseId'],
  );
});

test("endpoints default to Google's own; a host that merely contains one is not one", () => {
  const p = read({ SCB_SPANNER_DATABASES: 'my-project/inst/db1' });
  for (const ok of ['spanner.googleapis.com:443', 'us-central1-spanner.googleapis.com:443', 'spanner.us-central1.rep.googleapis.com:443', 'SPANNER.googleapis.com:443'])
    assert.ok(spannerEndpointAllowed(p, ok), ok);
  for (const bad of [
    'spanner.googleapis.com:80',
    'spanner.googleapis.com.evil.example:443',
    'evil.example:443',
    'x.spanner.googleapis.com:443',
    'a.b-spanner.googleapis.com:443',
    '127.0.0.1:443',
    'spanner.x.y.rep.googleapis.com:443',
  ])
    assert.ok(!spannerEndpointAllowed(p, bad), bad);
  assert.deepEqual(
    policyIssues(p, spanner({ endpoint: 'evil.example:443' })).map((i) => i.path),
    ['target.endpoint'],
  );
  const own = read({ SCB_SPANNER_DATABASES: 'my-project/inst/db1', SCB_SPANNER_ENDPOINTS: 'private.example:8443' });
  assert.ok(spannerEndpointAllowed(own, 'private.example:8443'));
  assert.ok(!spannerEndpointAllowed(own, 'spanner.googleapis.com:443'), "the operator's list replaces the default");
  // The refusal names the rule, never the host.
  assert.ok(!policyIssues(p, spanner({ endpoint: 'evil.example:443' }))[0]!.message.includes('evil'));
});

test('emulator hosts: loopback at the ports SCB_EMULATOR_PORTS lists, or listed in SCB_EMULATOR_HOSTS', () => {
  const none = read({});
  assert.deepEqual(targetPolicy<EmulatorPolicy>(none, 'emulator')?.ports, [], 'no loopback port by default');
  for (const bad of ['127.0.0.1:9010', 'localhost:1', '127.0.0.1:5432']) assert.ok(!emulatorHostAllowed(none, bad), bad);
  const p = read({ SCB_EMULATOR_HOSTS: 'emulator.internal:9010', SCB_EMULATOR_PORTS: '9010, 9020-9030' });
  assert.deepEqual(targetPolicy<EmulatorPolicy>(p, 'emulator')?.ports, [
    { from: 9010, to: 9010 },
    { from: 9020, to: 9030 },
  ]);
  for (const ok of ['127.0.0.1:9010', 'localhost:9020', 'LOCALHOST:9030', '127.1.2.3:9025', 'emulator.internal:9010']) assert.ok(emulatorHostAllowed(p, ok), ok);
  for (const bad of [
    '127.0.0.1:9011',
    '127.0.0.1:9019',
    '127.0.0.1:9031',
    'localhost:5432',
    '169.254.169.254:80',
    '169.254.169.254:9010',
    'emulator.internal:9011',
    '127.0.0.1.nip.io:9010',
    'localhost.evil.example:9010',
    '128.0.0.1:9010',
    '127.0.0.256:9010',
  ])
    assert.ok(!emulatorHostAllowed(p, bad), bad);
  assert.ok(isLoopbackHost('127.0.0.1') && !isLoopbackHost('0.0.0.0'));
  const refused = policyIssues(p, { kind: 'emulator', emulatorHost: '127.0.0.1:5432' });
  assert.deepEqual(
    refused.map((i) => i.path),
    ['target.emulatorHost'],
  );
  assert.match(refused[0]!.message, /SCB_EMULATOR_PORTS.*SCB_EMULATOR_HOSTS/);
  assert.ok(!refused[0]!.message.includes('5432'), 'the rule, not the refused port');
  assert.deepEqual(policyIssues(none, { kind: 'emulator' }), [], 'a fresh emulator per cell is always allowed');
  // The runner refuses a stored job by the same rule.
  assert.match(
    policyRefusal(none, { target: { kind: 'emulator', emulatorHost: '127.0.0.1:9010' }, clients: [] }) ?? '',
    /^this runner's policy refuses the job: target\.emulatorHost: .*SCB_EMULATOR_PORTS/,
  );
});

test('Cloud Spanner cost caps: a spec may lower the ceilings (SCB_SPANNER_MAX_OPS, SCB_SPANNER_MAX_SECONDS), never raise them', () => {
  const p = read({ SCB_SPANNER_DATABASES: 'my-project/inst/db1' });
  assert.equal(targetPolicy<SpannerPolicy>(p, 'spanner')?.maxOpsPerCell, DEFAULT_SPANNER_CEILINGS.maxOpsPerCell);
  assert.equal(targetPolicy<SpannerPolicy>(p, 'spanner')?.maxSecondsPerCell, DEFAULT_SPANNER_CEILINGS.maxSecondsPerCell);
  assert.deepEqual(policyIssues(p, spanner({ maxOpsPerCell: 100_000, maxSecondsPerCell: 300 })), [], 'at the defaults');
  assert.deepEqual(policyIssues(p, spanner({ maxOpsPerCell: 100_001, maxSecondsPerCell: 301 })), [
    { path: 'target.maxOpsPerCell', message: "must be at most 100000, this server's ceiling of operations per cell (SCB_SPANNER_MAX_OPS; see /settings)" },
    { path: 'target.maxSecondsPerCell', message: "must be at most 300, this server's ceiling of seconds per cell (SCB_SPANNER_MAX_SECONDS; see /settings)" },
  ]);
  const low = read({ SCB_SPANNER_DATABASES: 'my-project/inst/db1', SCB_SPANNER_MAX_OPS: '1000', SCB_SPANNER_MAX_SECONDS: '30', SCB_MAX_CELLS_PER_JOB: '10' });
  assert.deepEqual(policyIssues(low, spanner({ maxOpsPerCell: 1000, maxSecondsPerCell: 30, maxOpsPerJob: 10_000 })), []);
  assert.deepEqual(
    policyIssues(low, spanner({ maxOpsPerCell: 1001, maxSecondsPerCell: 30.5, maxOpsPerJob: 10_001 })).map((i) => i.path),
    ['target.maxOpsPerCell', 'target.maxSecondsPerCell', 'target.maxOpsPerJob'],
  );
  assert.match(policyIssues(low, spanner({ maxOpsPerJob: 10_001 }))[0]!.message, /at most 10000, .*SCB_SPANNER_MAX_OPS operations per cell × SCB_MAX_CELLS_PER_JOB cells/);
  assert.match(policyRefusal(low, { target: spanner({ maxOpsPerCell: 5000 }), clients: [] }) ?? '', /target\.maxOpsPerCell: must be at most 1000/, 'the runner refuses a stored job too');
  for (const [env, error] of [
    [{ SCB_SPANNER_MAX_OPS: '0' }, /^SCB_SPANNER_MAX_OPS: "0" is not a whole number of at least 1/],
    [{ SCB_SPANNER_MAX_SECONDS: '1e3' }, /^SCB_SPANNER_MAX_SECONDS: "1e3" is not a whole number/],
  ] as const) {
    const r = policyFromEnv(env);
    assert.ok(!r.ok && error.test(r.error), !r.ok ? r.error : 'accepted');
  }
});

test('webhooks are looked up by their own names only: "constructor", "__proto__" and "toString" name none', () => {
  const p = read({ SCB_WEBHOOKS: 'ci=http://127.0.0.1:9/hook' });
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    assert.equal(webhookUrl(p, name), undefined, name);
    assert.deepEqual(
      webhookIssues(p, [name]).map((i) => i.path),
      ['webhooks.0'],
      name,
    );
  }
  assert.equal(webhookUrl(p, 'ci'), 'http://127.0.0.1:9/hook');
  assert.deepEqual(webhookIssues(read({}), ['constructor']), [{ path: 'webhooks.0', message: '"constructor" is not one of this server\'s webhooks (SCB_WEBHOOKS lists none)' }]);
  // An operator's webhook may be called "constructor": it is named once, and found.
  const own = read({ SCB_WEBHOOKS: 'constructor=https://hooks.example/c' });
  assert.equal(webhookUrl(own, 'constructor'), 'https://hooks.example/c');
  assert.deepEqual(webhookIssues(own, ['constructor']), []);
});

test('a malformed policy variable is named with its entry', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ SCB_SPANNER_DATABASES: 'projects/p' }, /^SCB_SPANNER_DATABASES: "projects\/p" is not project\/instance\/database/],
    [{ SCB_SPANNER_ENDPOINTS: 'no-port' }, /^SCB_SPANNER_ENDPOINTS: "no-port" is not host:port/],
    [{ SCB_EMULATOR_HOSTS: 'a:99999' }, /^SCB_EMULATOR_HOSTS: "a:99999" is not host:port/],
    [{ SCB_EMULATOR_HOSTS: '*.internal:9010' }, /^SCB_EMULATOR_HOSTS: list exact/],
    [{ SCB_EMULATOR_PORTS: '9010,abc' }, /^SCB_EMULATOR_PORTS: "abc" is not a port or a range of ports/],
    [{ SCB_EMULATOR_PORTS: '9020-9010' }, /^SCB_EMULATOR_PORTS: "9020-9010" is not a port or a range/],
    [{ SCB_EMULATOR_PORTS: '0' }, /^SCB_EMULATOR_PORTS: "0" is not/],
    [{ SCB_EMULATOR_PORTS: '65536' }, /^SCB_EMULATOR_PORTS: "65536" is not/],
  ];
  for (const [env, error] of cases) {
    const r = policyFromEnv(env);
    assert.ok(!r.ok);
    assert.match(r.error, error);
  }
});

/** A parsed spec stretched to n clients, m configurations, k concurrencies and r repeats (a limit is checked before parsing such a size would be). */
function sized(n: number, m: number, k: number, r: number, pairing: 'cross' | 'zip' = 'cross') {
  const p = parseJobSpec({
    clients: Array.from({ length: Math.min(n, 2) }, () => ({ language: 'node', version: '9.0.0' })),
    configurations: [{ label: 'a' }, { label: 'b' }].slice(0, Math.min(m, 2)),
    concurrency: [10],
    workload: { durationSeconds: 3 },
    ...(pairing === 'zip' ? { pairing, configurations: [{ label: 'a' }, { label: 'b' }].slice(0, Math.min(n, 2)) } : {}),
  });
  assert.ok(p.ok, JSON.stringify(!p.ok && p.issues));
  const s = p.value;
  return { ...s, clients: new Array(n).fill(s.clients[0]), configurations: new Array(pairing === 'zip' ? n : m).fill(s.configurations[0]), concurrency: new Array(k).fill(10), repeats: r };
}

test("limits: cells per job counted without planning, defaults and the operator's own", () => {
  const p = read({});
  assert.deepEqual(p.limits, DEFAULT_LIMITS);
  const issues = limitIssues(p, sized(20, 20, 20, 50));
  assert.equal(issues.length, 1);
  assert.match(issues[0]!.message, /plans 400000 cells .* more than this server's limit of 500 \(SCB_MAX_CELLS_PER_JOB\)/);
  assert.deepEqual(limitIssues(p, sized(20, 1, 1, 1)), []);
  assert.deepEqual(limitIssues(read({ SCB_MAX_CELLS_PER_JOB: '20' }), sized(20, 20, 1, 1, 'zip')), []);
  assert.equal(limitIssues(read({ SCB_MAX_CELLS_PER_JOB: '19' }), sized(20, 20, 1, 1, 'zip')).length, 1);
  const bad = policyFromEnv({ SCB_MAX_BODY_BYTES: '1kb' });
  assert.ok(!bad.ok && /SCB_MAX_BODY_BYTES: "1kb" is not a whole number/.test(bad.error));
});

test('limits: the estimated run time, every preset within the default, and queued jobs per identity', () => {
  const p = read({});
  // 400 Node cells of 3 s against the fake at 65 ms: (5 s start + 1 s fake + 1.3 s warm-up + 3 s) each.
  const long = sized(20, 20, 1, 1);
  assert.equal(estimateJobSeconds(long), Math.ceil(400 * (5 + 1 + 0.065 * 20 + 3)));
  assert.deepEqual(limitIssues(p, long), [], `${estimateJobSeconds(long)} s is within 240 minutes`);
  const hour = { ...long, workload: { ...long.workload, durationSeconds: 60 } };
  const refused = limitIssues(p, hour);
  assert.equal(refused.length, 1);
  assert.equal(refused[0]!.path, 'workload.durationSeconds');
  assert.match(refused[0]!.message, /estimated to run 449 minutes, more than this server's limit of 240 \(SCB_MAX_JOB_MINUTES\)/);
  assert.deepEqual(limitIssues(read({ SCB_MAX_JOB_MINUTES: '449' }), hour), []);
  // Go starts faster than Node; think time and the emulator's set-up count.
  const go = { ...long, clients: long.clients.map(() => ({ language: 'go' as const, version: '1.96.1' })) };
  assert.ok(estimateJobSeconds(go) < estimateJobSeconds(long));
  assert.ok(estimateJobSeconds({ ...long, target: { kind: 'emulator' } as typeof long.target }) > estimateJobSeconds(long), 'a fresh emulator per cell');
  assert.ok(estimateJobSeconds({ ...long, workload: { ...long.workload, thinkTime: { ms: 100, distribution: 'fixed' } } }) > estimateJobSeconds(long));
  for (const preset of PRESETS) {
    const parsed = parseJobSpec(preset.spec);
    assert.ok(parsed.ok);
    const minutes = estimateJobSeconds(parsed.value) / 60;
    console.log(`# preset ${preset.id}: estimated ${minutes.toFixed(1)} min`);
    assert.ok(minutes * 3 < DEFAULT_LIMITS.jobMinutes, `preset ${preset.id}: ${minutes.toFixed(1)} min`);
  }
  assert.equal(queueLimitRefusal(p, 19), null);
  assert.match(queueLimitRefusal(p, 20) ?? '', /20 jobs queued or running, this server's limit per identity is 20 \(SCB_MAX_QUEUED_JOBS\)/);
  assert.equal(queueLimitRefusal(read({ SCB_MAX_QUEUED_JOBS: '100' }), 20), null);
});

test("limits: watches per identity and a watch's backfill against the queue limit", () => {
  const p = read({});
  assert.equal(p.limits.watchesPerIdentity, 5);
  assert.equal(watchLimitRefusal(p, 4), null);
  assert.match(watchLimitRefusal(p, 5) ?? '', /5 watches, this server's limit per identity is 5 \(SCB_MAX_WATCHES\)/);
  assert.equal(watchLimitRefusal(read({ SCB_MAX_WATCHES: '6' }), 5), null);
  const bad = policyFromEnv({ SCB_MAX_WATCHES: '0' });
  assert.ok(!bad.ok && /SCB_MAX_WATCHES: "0" is not a whole number of at least 1/.test(bad.error));
  const three = read({ SCB_MAX_QUEUED_JOBS: '3' });
  assert.equal(backfillLimitRefusal(three, 3), null);
  assert.match(backfillLimitRefusal(three, 4) ?? '', /queues 4 gates at once, more than this server's limit of 3 .*\(SCB_MAX_QUEUED_JOBS\)/);
  assert.equal(queueLimitRefusal(three, 1, 2), null);
  assert.match(queueLimitRefusal(three, 1, 3) ?? '', /you have 1 jobs queued or running and this queues 3 more, this server's limit per identity is 3 \(SCB_MAX_QUEUED_JOBS\)/);
});

test('uploaded builds: off until SCB_ARTIFACTS=on, then on the fake and emulator only unless SCB_ARTIFACTS_ON_SPANNER=on', () => {
  const artifact = `sha256:${'ab'.repeat(32)}`;
  const clients = [
    { language: 'node', version: '9.0.0' },
    { language: 'node', version: '9.0.0', artifact },
  ];
  const fake = { kind: 'fake' as const, latencyMs: 65 };
  const off = read({});
  assert.equal(off.artifacts.enabled, false);
  assert.equal(off.artifacts.maxBytes, 200 * 1024 * 1024, 'SCB_MAX_ARTIFACT_MB defaults to 200');
  assert.deepEqual(
    artifactIssues(off, { target: fake, clients }).map((i) => i.path),
    ['clients.1.artifact'],
  );
  assert.match(artifactIssues(off, { target: fake, clients })[0]!.message, /SCB_ARTIFACTS/);
  const on = read({ SCB_ARTIFACTS: 'on', SCB_MAX_ARTIFACT_MB: '5', SCB_SPANNER_DATABASES: 'my-project/inst/db1' });
  assert.equal(on.artifacts.maxBytes, 5 * 1024 * 1024);
  assert.deepEqual(artifactIssues(on, { target: fake, clients }), []);
  assert.deepEqual(artifactIssues(on, { target: { kind: 'emulator' }, clients }), []);
  const onSpanner = artifactIssues(on, { target: spanner(), clients });
  assert.deepEqual(
    onSpanner.map((i) => i.path),
    ['clients.1.artifact'],
  );
  assert.match(onSpanner[0]!.message, /SCB_ARTIFACTS_ON_SPANNER/);
  assert.match(policyRefusal(on, { target: spanner(), clients }) ?? '', /clients\.1\.artifact/, 'a runner refuses a stored job too');
  assert.deepEqual(artifactIssues(read({ SCB_ARTIFACTS: 'on', SCB_ARTIFACTS_ON_SPANNER: 'on' }), { target: spanner(), clients }), []);
  const bad = policyFromEnv({ SCB_ARTIFACTS: 'yes' });
  assert.ok(!bad.ok && /SCB_ARTIFACTS: "yes" is not on or off/.test(bad.error));
});
