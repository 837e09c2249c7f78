// PostgreSQL stopped and started again while a job runs: the runner keeps the cell it was measuring,
// stores its result once the database is back, and finishes the job. The error a query meets while
// the database is down is the one the web app answers 503 for and the runner retries on.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createDb, createJob, isDatabaseUnreachable, releaseQueue } from '@scb/db';
import { migrate, startEmbeddedPostgres, type EmbeddedDb } from '@scb/db/setup';
import { parseJobSpec } from '@scb/shared';
import { startRunner } from '../apps/runner/src/worker';
import { waitForJob } from './helpers/jobs';
import { freePort } from './helpers/postgres';

test('PostgreSQL restarted during a job: the job finishes, every cell stored once', { timeout: 600_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-restart-pg-'));
  const options = { dataDir: path.join(dir, 'data'), port: await freePort(), database: 'bench_test' };
  let pg: EmbeddedDb = await startEmbeddedPostgres(options);
  await migrate(pg.url);
  const db = createDb(pg.url);
  const logs: string[] = [];
  const runner = await startRunner(db, pg.url, (l) => logs.push(l));
  try {
    const spec = parseJobSpec({
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'default' }],
      concurrency: [5, 6, 7],
      workload: { warmupOps: 20, durationSeconds: 4 },
      target: { kind: 'fake', latencyMs: 5 },
    });
    assert.ok(spec.ok);
    const id = await createJob(db, pg.url, spec.value);
    for (;;) {
      const c = await db.cell.findFirst({ where: { jobId: id, index: 1 } });
      if (c?.status === 'running' && (c.progress as { phase?: string } | null)?.phase === 'measure') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await pg.stop();
    const down = await db.job.findUnique({ where: { id } }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(down && isDatabaseUnreachable(down), `a query while the database is down fails as unreachable: ${(down as Error)?.message}`);
    // Down for longer than the cell has left to measure: its result waits for the database.
    await new Promise((r) => setTimeout(r, 6000));
    pg = await startEmbeddedPostgres(options);
    const job = await waitForJob(db, id, 300_000, logs);
    assert.equal(job.status, 'succeeded', `${job.error}\n${logs.join('\n')}`);
    assert.deepEqual(
      job.cells.map((c) => [c.status, c.attempts]),
      [
        ['succeeded', 1],
        ['succeeded', 1],
        ['succeeded', 1],
      ],
    );
    assert.ok(
      logs.some((l) => /stored after the database came back/.test(l)),
      logs.join('\n'),
    );
  } finally {
    await runner.stop();
    await releaseQueue();
    await db.$disconnect();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
