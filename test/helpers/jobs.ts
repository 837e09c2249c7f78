import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createDb, createJob, releaseQueue, type Db } from '@scb/db';
import { judgeCell, parseJobSpec, verdictReasons, type SaturationFigures } from '@scb/shared';
import { startRunner, type RunnerHandle } from '../../apps/runner/src/worker';
import { startTestDatabase, type TestDatabase } from './postgres';

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

/** A test database with a runner taking its jobs, for one test file: started before its tests, stopped after them. */
export function useRunner() {
  let pg: TestDatabase;
  let db: Db;
  let runner: RunnerHandle;
  const logs: string[] = [];
  before(async () => {
    pg = await startTestDatabase();
    db = createDb(pg.url);
    runner = await startRunner(db, pg.url, (l) => logs.push(l));
  });
  after(async () => {
    await runner?.stop();
    await releaseQueue();
    await db?.$disconnect();
    await pg?.stop();
  });
  return {
    get db() {
      return db;
    },
    get databaseUrl() {
      return pg.url;
    },
    logs,
    /** Validates a spec as the API does, queues it and waits for the runner to finish it. */
    runSpec: (input: unknown, timeoutMs: number) => runSpec(db, pg.url, input, timeoutMs, logs),
  };
}

/** A cell's connections as one source counted them (fake, tap or client), and their RPCs in all. */
export function countedBy<C extends { source: string; rpcs: number }>(channels: C[], source: 'fake' | 'tap' | 'client') {
  const mine = channels.filter((c) => c.source === source);
  return { channels: mine, rpcs: mine.reduce((a, c) => a + c.rpcs, 0) };
}

/**
 * Throughput against the ideal C/L: never above it, and at least `floor` of it only where the verdict
 * says the cell measured the client (a busy machine is named in the log instead of failing the test).
 * Keep the floor low: Node 9.0.0 at C=50 reaches 55-81% of the ideal here depending on the day, judged
 * clean each time; a driver that serialised its calls would sit at 1/C.
 */
export function assertThroughput(what: string, r: SaturationFigures & { qps: number }, ideal: number, cores: number, floor: number) {
  assert.ok(r.qps <= 1.05 * ideal, `${what}: qps ${r.qps.toFixed(0)} above the ideal ${ideal.toFixed(0)}`);
  const verdict = judgeCell(r, cores);
  if (verdict.kind === 'clean') assert.ok(r.qps >= floor * ideal, `${what}: qps ${r.qps.toFixed(0)} under ${floor * 100}% of the ideal ${ideal.toFixed(0)}, judged clean`);
  else console.log(`# ${what}: qps ${r.qps.toFixed(0)} of ${ideal.toFixed(0)}, ${verdict.kind}: ${verdictReasons(verdict)}`);
}
