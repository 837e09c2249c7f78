// The emulator target, every part real: the official Cloud Spanner emulator binary started per cell
// and provisioned through the admin API, Node 9.0.0 and Java 6.123.0 drivers, the runner's queue and
// PostgreSQL. The machines we run on have the emulator at the Cloud SDK path; without it this file fails
// with the runner's one-sentence message rather than skipping. The job below runs its smallest form
// (C = 10, 1 s: the emulator answers as fast as the client asks, so every measured second is two busy
// cores); the former one, C = 10 and 50 at 2 s, is `npm run bench:verdicts -- bench/specs/emulator-grpc-gcp.json`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { parseJobSpec, planCells } from '@scb/shared';
import { grpc } from 'google-gax';

// The runner reads its policy once, when it is loaded: set it first. The emulatorHost test names
// loopback port 1, which the operator must list (any other loopback port is refused).
process.env.SCB_EMULATOR_PORTS = '1';
const { emulatorVersion, findEmulatorBinary, missingEmulatorMessage } = await import('../../packages/targets/src/emulator/binary');
const { startEmulatorProcess } = await import('../../packages/targets/src/emulator/process');
const { provision } = await import('../../packages/targets/src/emulator/provision');
const { missingTables } = await import('../../packages/targets/src/spanner/tables');
const { countedBy, useRunner } = await import('../helpers/jobs');

const stack = useRunner();
const { logs, runSpec } = stack;

test('bad emulator targets are refused field by field; Node in multiplexed mode is refused, unset runs with regular sessions', () => {
  const base = { clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [10], workload: { durationSeconds: 1 } };
  const bad = parseJobSpec({ ...base, target: { kind: 'emulator', emulatorHost: 'localhost', port: 1, network: { maxConcurrentStreams: 0, jitterMs: 3 } } });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.issues.map((i) => i.path).sort(), ['target.emulatorHost', 'target.network.jitterMs', 'target.network.maxConcurrentStreams', 'target.port']);
  assert.match(bad.issues.find((i) => i.path === 'target.emulatorHost')!.message, /host:port/);
  const multiplexed = parseJobSpec({ ...base, configurations: [{ label: 'a', multiplexedSessions: true }], target: { kind: 'emulator' } });
  assert.ok(!multiplexed.ok);
  assert.equal(multiplexed.issues[0]!.path, 'configurations.0.multiplexedSessions');
  assert.match(multiplexed.issues[0]!.message, /emulator hands out no multiplexed session/);
  const java = parseJobSpec({ ...base, clients: [{ language: 'java', version: '6.123.0' }], configurations: [{ label: 'a', multiplexedSessions: true }], target: { kind: 'emulator' } });
  assert.ok(java.ok, 'Java runs its multiplexed session on the emulator');
  const unset = parseJobSpec({ ...base, target: { kind: 'emulator' } });
  assert.ok(unset.ok);
  assert.equal(planCells(unset.value)[0]!.configuration.multiplexedSessions, false, 'the stated adjustment is in the planned (and stored) configuration');
});

test('Node 9.0.0 and Java 6.123.0 against a fresh emulator per cell, grpc-gcp on and off', { timeout: 900_000 }, async () => {
  const job = await runSpec(
    {
      clients: [
        { language: 'node', version: '9.0.0' },
        { language: 'java', version: '6.123.0' },
      ],
      configurations: [
        { label: 'grpc-gcp on', grpcGcp: 'on' },
        { label: 'grpc-gcp off', grpcGcp: 'off' },
      ],
      concurrency: [10],
      target: { kind: 'emulator' },
      workload: { warmupOps: 50, durationSeconds: 1 },
    },
    840_000,
  );
  assert.equal(job.status, 'succeeded', `job error: ${job.error}; log:\n${logs.join('\n')}`);
  assert.equal(job.cells.length, 4);
  for (const cell of job.cells) {
    const what = `${cell.clientLanguage} ${cell.configLabel} C=${cell.concurrency}`;
    assert.equal(cell.status, 'succeeded', `${what}: ${cell.error}`);
    const r = cell.result!;
    assert.ok(r.count > 0 && r.qps > 0, `${what}: ${r.count} operations`);
    assert.equal(r.errorCount, 0, `${what}: ${JSON.stringify(r.errors)}`);
    assert.ok(r.p99Ms >= r.p50Ms && r.p50Ms > 0);
    // The tap counted every RPC the driver made through it, per connection; the emulator models no latency.
    assert.ok(r.serverRpcs !== null && r.serverRpcs >= r.count + 50, `${what}: tap saw ${r.serverRpcs} RPCs for ${r.count} + 50 warm-up`);
    const tap = countedBy(cell.channels, 'tap');
    assert.equal(tap.rpcs, r.serverRpcs, 'connections add up to the RPCs');
    // The client's count ends with its result; a session pool's DeleteSession calls on close come after.
    const mine = countedBy(cell.channels, 'client').rpcs;
    assert.ok(mine <= r.serverRpcs && mine >= r.count + 50, `${what}: the client counted ${mine} RPCs, the tap ${r.serverRpcs}`);
    assert.ok(tap.channels.some((c) => c.peakInFlight >= 1));
    assert.equal(r.targetAddedP50Ms, null);
    assert.ok(r.targetCpuShare !== null && r.targetCpuShare > 0 && r.targetCpuShare <= 1, `${what}: the emulator's CPU ${r.targetCpuShare}`);
    if (cell.clientLanguage === 'node') assert.equal((cell.config as { multiplexedSessions?: boolean }).multiplexedSessions, false, 'stored with its adjustment');
  }
});

test('an emulatorHost where nothing listens fails its cells with a readable message', { timeout: 300_000 }, async () => {
  const job = await runSpec(
    {
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'default' }],
      concurrency: [10],
      target: { kind: 'emulator', emulatorHost: '127.0.0.1:1' },
      workload: { warmupOps: 10, durationSeconds: 1 },
    },
    240_000,
  );
  const [cell] = job.cells;
  assert.equal(cell!.status, 'failed');
  assert.match(cell!.error ?? '', /^the emulator at 127\.0\.0\.1:1 could not be provisioned: .*(ECONNREFUSED|UNAVAILABLE|No connection)/);
});

test('the emulator binary is found where the Cloud SDK puts it, and a missing one is named with how to install it', () => {
  const probe = (env: Record<string, string>) =>
    execFileSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./packages/targets/src/emulator/binary.ts').then((m) => console.log(JSON.stringify([m.findEmulatorBinary(), m.missingEmulatorMessage()])))"],
      {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      },
    );
  const [found] = JSON.parse(probe({ SCB_EMULATOR_BIN: '' })) as [string | null, string];
  assert.ok(found && /emulator_main$/.test(found), `this machine has the emulator: ${found}`);
  // The Cloud SDK's component snapshot names its version: jobs record it, /compare warns on a change.
  if (found.includes('/google-cloud-sdk/')) assert.match(emulatorVersion(found) ?? 'none', /^\d+\.\d+\.\d+$/);
  const [none, message] = JSON.parse(probe({ SCB_EMULATOR_BIN: '/nonexistent/emulator_main' })) as [string | null, string];
  assert.equal(none, null);
  assert.match(
    message,
    /^SCB_EMULATOR_BIN=\/nonexistent\/emulator_main is not an executable file: install the Cloud Spanner emulator: `gcloud components install cloud-spanner-emulator`, or the Debian\/apt package/,
  );
});

test("the Cloud Spanner target's table check names the tables a database lacks (run against the emulator's information schema)", { timeout: 120_000 }, async () => {
  const binary = findEmulatorBinary();
  assert.ok(binary, missingEmulatorMessage());
  const emulator = await startEmulatorProcess(binary);
  try {
    const names = { projectId: 'p1-project', instanceId: 'tables', databaseId: 'tables-db' };
    await provision('127.0.0.1', emulator.port, names, 0);
    const options = { projectId: names.projectId, servicePath: '127.0.0.1', port: emulator.port, sslCreds: grpc.credentials.createInsecure() };
    const path = `projects/${names.projectId}/instances/${names.instanceId}/databases/${names.databaseId}`;
    assert.deepEqual(await missingTables(options, path, ['Players', 'Scores', 'Orders']), ['Orders']);
    assert.deepEqual(await missingTables(options, path, []), [], 'no tables asked, nothing read');
  } finally {
    await emulator.stop();
  }
});
