// `npm run bench:reproductions -- [id ...]`: runs reproductions (all, or those named) as their Run it button
// does, through a throw-away embedded stack, and prints each one's expectations met or not with their
// figures, each cell's status and error, and the commit. Nothing is asserted: the entries' `status` and
// `seen` are written from this output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPRODUCTIONS, reproductionJobSpec } from '@scb/shared/reproductions';
import { freePort } from '../apps/runner/src/net';
import { startEmbeddedStack } from '../scripts/gate-client';

type Job = {
  status: string;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  cells: {
    status: string;
    error: string | null;
    client: { language: string; version: string; grpcVersion?: string };
    result: { qps: number; count: number; errorCount: number; p50Ms: number; p99Ms: number; maxMs: number } | null;
  }[];
  expectations: { met: boolean | null; outcomes: { met: boolean | null; text: string; expectation: { says?: string } }[] } | null;
};

const ids = process.argv.slice(2);
const chosen = ids.length ? REPRODUCTIONS.filter((r) => ids.includes(r.id)) : REPRODUCTIONS;
if (chosen.length !== (ids.length || REPRODUCTIONS.length)) {
  console.error(`usage: npm run bench:reproductions -- [id ...]; the reproductions: ${REPRODUCTIONS.map((r) => r.id).join(', ')}`);
  process.exit(2);
}
const word = (met: boolean | null) => (met === true ? 'met' : met === false ? 'NOT MET' : 'undecided');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scb-bench-repro-'));
const stack = await startEmbeddedStack({ ...process.env, SCB_DATA_DIR: dataDir, PORT: String(await freePort()), SCB_PG_PORT: String(await freePort()) });
const commit = execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
console.log(`# commit ${commit}, ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`);
try {
  for (const r of chosen) {
    const res = await fetch(`${stack.base}/api/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(reproductionJobSpec(r)) });
    if (res.status !== 201) throw new Error(`${r.id}: POST /api/jobs answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    let job: Job;
    for (;;) {
      job = (await (await fetch(`${stack.base}/api/jobs/${id}`)).json()) as Job;
      if (!['queued', 'running'].includes(job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const took = job.startedAt && job.finishedAt ? `${Math.round((Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000)} s` : '?';
    console.log(`\n## ${r.id}: expectations ${word(job.expectations?.met ?? null)} (job ${job.status}${job.error ? `: ${job.error}` : ''}, ${took})`);
    for (const o of job.expectations?.outcomes ?? []) console.log(`- ${word(o.met)}: ${o.expectation.says ? `${o.expectation.says}. ` : ''}${o.text}`);
    for (const c of job.cells) {
      const who = `${c.client.language} ${c.client.version}${c.client.grpcVersion ? ` (grpc ${c.client.grpcVersion})` : ''}`;
      const f = c.result;
      console.log(
        `  ${who}: ${c.status}${f ? `, ${f.count} ops, ${f.errorCount} errors, ${f.qps.toFixed(0)} ops/s, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(0)} ms` : ''}${c.error ? `: ${c.error.slice(0, 300)}` : ''}`,
      );
    }
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
