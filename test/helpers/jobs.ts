import assert from 'node:assert/strict';
import { createJob, type Db } from '@scb/db';
import { parseJobSpec } from '@scb/shared';

/** Waits until a job has ended and returns it with its cells, results and channels; fails with the runner's log after the time. */
export async function waitForJob(db: Db, id: string, timeoutMs: number, logs: string[]) {
  const t0 = Date.now();
  for (;;) {
    const job = await db.job.findUniqueOrThrow({
      where: { id },
      include: { cells: { orderBy: { index: 'asc' }, include: { result: true, channels: { orderBy: { connection: 'asc' } } } } },
    });
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    if (Date.now() - t0 > timeoutMs) assert.fail(`job ${id} still ${job.status} after ${timeoutMs} ms; log:\n${logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Validates a spec as the API does, queues it and waits for the runner to finish it. */
export async function runSpec(db: Db, databaseUrl: string, input: unknown, timeoutMs: number, logs: string[]) {
  const parsed = parseJobSpec(input);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  return waitForJob(db, await createJob(db, databaseUrl, parsed.value), timeoutMs, logs);
}
