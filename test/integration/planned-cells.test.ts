// test: yields
// Cells are planned once, when the job is created: the runner runs the stored rows, not a new plan of
// the spec, and a stored row that no longer parses fails the job naming the field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createJob } from '@scb/db';
import { parseJobSpec } from '@scb/shared';
import { runJob } from '../../apps/runner/src/job';
import { waitForJob } from '../helpers/jobs';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();
const logs: string[] = [];

async function storedJob() {
  const parsed = parseJobSpec({
    clients: [{ language: 'node', version: '9.0.0' }],
    configurations: [{ label: 'default' }],
    concurrency: [1],
    target: { kind: 'fake', latencyMs: 20 },
    workload: { warmupOps: 0, measuredOps: 80 },
  });
  assert.ok(parsed.ok);
  // Queued, but no runner serves this database: runJob below is the runner.
  return createJob(t.db, t.url, parsed.value);
}

test('the runner runs the stored cell rows, not a new plan of the spec', { timeout: 600_000 }, async () => {
  const id = await storedJob();
  // The spec says C=1; the stored row says 4, and a label of its own.
  await t.db.cell.updateMany({ where: { jobId: id }, data: { concurrency: 4, configLabel: 'as stored', config: { label: 'as stored' } } });
  await runJob(t.db, id, { log: (l) => logs.push(l) });
  const job = await waitForJob(t.db, id, 10_000, logs);
  assert.equal(job.status, 'succeeded', `${job.error}\n${logs.join('\n')}`);
  const fake = job.cells[0]!.channels.filter((c) => c.source === 'fake');
  const peak = Math.max(...fake.map((c) => c.peakInFlight));
  assert.ok(peak >= 4, `the fake saw at most ${peak} RPCs in flight: the cell ran at the spec's C=1, not the stored 4`);
  assert.ok(
    logs.some((l) => l.includes('as stored, C=4')),
    logs.join('\n'),
  );
});

test('a stored cell row that no longer parses fails the job, naming the field', { timeout: 600_000 }, async () => {
  const id = await storedJob();
  await t.db.cell.updateMany({ where: { jobId: id }, data: { clientVersion: 'latest; rm -rf /', config: { grpcGcp: 'sometimes' } } });
  await runJob(t.db, id, { log: (l) => logs.push(l) });
  const job = await waitForJob(t.db, id, 10_000, logs);
  assert.equal(job.status, 'failed');
  assert.match(job.error ?? '', /cells\[0\]\.client\.version/);
  assert.match(job.error ?? '', /cells\[0\]\.config\.label/);
  assert.ok(job.cells.every((c) => c.status !== 'succeeded' && c.result === null));
});
