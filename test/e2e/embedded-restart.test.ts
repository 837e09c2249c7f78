// test: yields
// The embedded start keeps its PostgreSQL alive as it keeps its runner alive: the postmaster killed
// with SIGKILL while a job runs is restarted (crash recovery keeps what was committed), /api/health
// answers 200 again, and the runner's retried writes land so the job finishes with every cell.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startStack } from '../helpers/stack';

const JSON_POST = { method: 'POST', headers: { 'content-type': 'application/json' } } as const;

test('the embedded PostgreSQL killed mid-job comes back; the job finishes with every cell', { timeout: 600_000 }, async () => {
  const stack = await startStack({ embedded: true });
  try {
    const api = (p: string, init?: RequestInit) => fetch(stack.baseUrl + p, init);
    const res = await api('/api/jobs', {
      ...JSON_POST,
      body: JSON.stringify({
        name: 'postgres killed',
        clients: [{ language: 'node', version: '9.0.0' }],
        configurations: [{ label: 'default' }],
        concurrency: [5, 6, 7],
        workload: { warmupOps: 20, durationSeconds: 2 },
        target: { kind: 'fake', latencyMs: 5 },
      }),
    });
    assert.equal(res.status, 201);
    const { id } = (await res.json()) as { id: string };
    type Job = { status: string; cells: { index: number; status: string; progress: { phase?: string } | null }[] };
    for (;;) {
      const job = (await (await api(`/api/jobs/${id}`)).json()) as Job;
      if (job.cells[1]?.status === 'running' && job.cells[1].progress?.phase === 'measure') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The postmaster's pid is the first line of its lock file.
    const pidFile = path.join(stack.env.SCB_DATA_DIR!, 'postgres', 'postmaster.pid');
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    let sawDown = false;
    for (;;) {
      const health = await api('/api/health').catch(() => null);
      if (health?.status === 503) sawDown = true;
      if (health?.status === 200 && sawDown) break;
      assert.ok(Date.now() - killedAt < 120_000, `/api/health not back 2 minutes after the kill:\n${stack.output.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const backMs = Date.now() - killedAt;
    console.log(`# /api/health 200 again ${backMs} ms after the postmaster was killed`);
    assert.ok(stack.output.some((l) => /embedded PostgreSQL exited \(SIGKILL\); restarting it/.test(l)));
    let job: Job;
    for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
      job = (await (await api(`/api/jobs/${id}`)).json()) as Job;
      if (!['queued', 'running'].includes(job.status)) break;
      assert.ok(Date.now() - t0 < 300_000, `job still ${job.status}:\n${stack.output.slice(-20).join('\n')}`);
    }
    assert.equal(job.status, 'succeeded', stack.output.slice(-20).join('\n'));
    assert.deepEqual(
      job.cells.map((c) => c.status),
      ['succeeded', 'succeeded', 'succeeded'],
    );
  } finally {
    assert.equal(await stack.stop(), 0);
  }
});
