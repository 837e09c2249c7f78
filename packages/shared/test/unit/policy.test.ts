import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  backfillLimitRefusal,
  DEFAULT_LIMITS,
  emulatorHostAllowed,
  isLoopbackHost,
  limitIssues,
  policyFromEnv,
  policyIssues,
  queueLimitRefusal,
  spannerEndpointAllowed,
  watchLimitRefusal,
  type Policy,
} from '../../src/policy/policy';
import { estimateJobSeconds } from '../../src/job/estimate';
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

test('emulator hosts are loopback unless listed', () => {
  const p = read({ SCB_EMULATOR_HOSTS: 'emulator.internal:9010' });
  for (const ok of ['127.0.0.1:9010', 'localhost:1', '127.1.2.3:9010', 'emulator.internal:9010']) assert.ok(emulatorHostAllowed(p, ok), ok);
  for (const bad of ['169.254.169.254:80', 'emulator.internal:9011', '127.0.0.1.nip.io:9010', 'localhost.evil.example:9010', '128.0.0.1:9010', '127.0.0.256:1'])
    assert.ok(!emulatorHostAllowed(p, bad), bad);
  assert.ok(isLoopbackHost('127.0.0.1') && !isLoopbackHost('0.0.0.0'));
  assert.deepEqual(
    policyIssues(p, { kind: 'emulator', emulatorHost: '169.254.169.254:80' }).map((i) => i.path),
    ['target.emulatorHost'],
  );
  assert.deepEqual(policyIssues(p, { kind: 'emulator' }), [], 'a fresh emulator per cell is always allowed');
});

test('a malformed policy variable is named with its entry', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ SCB_SPANNER_DATABASES: 'projects/p' }, /^SCB_SPANNER_DATABASES: "projects\/p" is not project\/instance\/database/],
    [{ SCB_SPANNER_ENDPOINTS: 'no-port' }, /^SCB_SPANNER_ENDPOINTS: "no-port" is not host:port/],
    [{ SCB_EMULATOR_HOSTS: 'a:99999' }, /^SCB_EMULATOR_HOSTS: "a:99999" is not host:port/],
    [{ SCB_EMULATOR_HOSTS: '*.internal:9010' }, /^SCB_EMULATOR_HOSTS: list exact/],
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
