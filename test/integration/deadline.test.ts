// test: waits
// The runner enforces a cell's time: a driver that does not end by itself is killed at the hard
// deadline and the cell says so; on a target that costs money the deadline follows the cost cap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEADLINE_GRACE_MS, driverDeadlineMs, runDriver } from '@scb/languages';
import { parseJobSpec, type DriverCell } from '@scb/shared';

test('a driver that ignores its deadline is killed by the runner, and the cell says why', { timeout: 60_000 }, async () => {
  // A process that speaks no protocol and never exits: only the runner can end it.
  const launch = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], dir: process.cwd() };
  const t0 = Date.now();
  await assert.rejects(runDriver({ deadlineMs: 1000 } as DriverCell, launch), /the runner killed the driver at the cell's hard deadline \(16 s\): it had not ended by itself/);
  const took = Date.now() - t0;
  assert.ok(took >= 1000 + DEADLINE_GRACE_MS - 100, `killed after ${took} ms, not before its deadline and grace`);
});

test("a Cloud Spanner cell's deadline follows its cost cap; the fake's its workload", () => {
  const base = { clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [10], workload: { warmupOps: 100, measuredOps: 5000 } };
  const fake = parseJobSpec(base);
  const spanner = parseJobSpec({ ...base, target: { kind: 'spanner', projectId: 'my-project', instanceId: 'inst', databaseId: 'db1', maxOpsPerCell: 6000, maxSecondsPerCell: 30 } });
  assert.ok(fake.ok && spanner.ok);
  // Without a modeled latency a second per operation is allowed: 510 s; the cap allows 30 s and a minute to start.
  assert.equal(driverDeadlineMs(spanner.value, 10), 90_000);
  assert.ok(driverDeadlineMs(fake.value, 10) > 90_000);
});
