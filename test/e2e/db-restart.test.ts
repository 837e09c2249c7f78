// test: yields
// PostgreSQL stopped and started again while a job runs, under the README's start command pointed at it
// with DATABASE_URL: the runner keeps the cell it was measuring, stores its result once the database is
// back and finishes the job; the web app answers 503 with a JSON error while the database is down and
// 200 again without a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createDb, createJob, isDatabaseUnreachable } from '@scb/db';
import { migrate, startEmbeddedPostgres, type EmbeddedDb } from '@scb/db/setup';
import { parseJobSpec } from '@scb/shared';
import { waitForJob } from '../helpers/jobs';
import { freePort } from '../helpers/postgres';
import { startStack, type Stack } from '../helpers/stack';

/** Status and JSON body of a GET; the body is null when it is not JSON. */
async function get(url: string): Promise<{ status: number; body: { error?: string; status?: string } | null }> {
  const res = await fetch(url);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: null };
  }
}

test('PostgreSQL restarted during a job: the job finishes, every cell stored once; the API answers 503, then 200', { timeout: 900_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-restart-pg-'));
  const options = { dataDir: path.join(dir, 'data'), port: await freePort(), database: 'bench_test' };
  let pg: EmbeddedDb = await startEmbeddedPostgres(options);
  await migrate(pg.url);
  const db = createDb(pg.url);
  let stack: Stack | undefined;
  try {
    stack = await startStack({ databaseUrl: pg.url, timeoutMs: 600_000 });
    const base = stack.baseUrl;
    assert.equal((await get(`${base}/api/health`)).status, 200);
    const spec = parseJobSpec({
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'default' }],
      concurrency: [5, 6, 7],
      workload: { warmupOps: 20, durationSeconds: 2 },
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
    // The API while the database is down: 503 with a JSON error, never a 500 or an empty body.
    for (const url of [`${base}/api/health`, `${base}/api/jobs/${id}`, `${base}/api/jobs`, `${base}/api/runners`]) {
      const r = await get(url);
      assert.equal(r.status, 503, `${url} while the database is down: ${r.status}`);
      assert.ok(r.body && typeof r.body.error === 'string' && r.body.error.length > 0, `${url}: ${JSON.stringify(r.body)}`);
    }
    // Down for longer than the cell has left to measure: its result waits for the database.
    await new Promise((r) => setTimeout(r, 3000));
    pg = await startEmbeddedPostgres(options);
    const job = await waitForJob(db, id, 300_000, stack.output);
    assert.equal(job.status, 'succeeded', `${job.error}\n${stack.output.join('\n')}`);
    assert.deepEqual(
      job.cells.map((c) => [c.status, c.attempts]),
      [
        ['succeeded', 1],
        ['succeeded', 1],
        ['succeeded', 1],
      ],
    );
    assert.ok(
      stack.output.some((l) => /stored after the database came back/.test(l)),
      stack.output.join('\n'),
    );
    // The web app recovered by itself: same process, database answering again.
    assert.equal((await get(`${base}/api/health`)).status, 200);
    const after = await get(`${base}/api/jobs/${id}`);
    assert.equal(after.status, 200);
    assert.equal(after.body?.status, 'succeeded');
  } finally {
    await stack?.stop();
    await db.$disconnect();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
