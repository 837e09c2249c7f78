// `npm run bench:preset -- <preset id> [seconds]`: runs a preset as the launch form offers it (or with
// its measured phase set to `seconds`) through a throw-away embedded stack, the way a user's job runs,
// and prints each cell's figures per operation kind with the commit. Nothing is asserted.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRESETS } from '@scb/shared/presets';
import { formatLevel } from '@scb/shared/job';
import { freePort } from '../apps/runner/src/net';
import { startEmbeddedStack } from '../scripts/gate-client';

type Summary = { count: number; p50Ms: number; p99Ms: number; maxMs: number };
type Cell = {
  status: string;
  error: string | null;
  concurrency: number;
  arrivalRate: number | null;
  client: { language: string; version: string; grpcVersion?: string };
  configuration: { label: string };
  result: {
    qps: number;
    p50Ms: number;
    p99Ms: number;
    errorCount: number;
    uncorrected: { p50Ms: number; p99Ms: number } | null;
    outstandingCapWaits: number | null;
    scheduleLagP99Ms: number | null;
    operations: Record<string, Summary>;
    verdict: { kind: string; limits: { name: string; value: number }[]; held?: string };
    ceiling: { qps: number; limit: string; noLimitsQps: number } | null;
  } | null;
};

const args = process.argv.slice(2);
const at = args.indexOf('--language');
const language = at >= 0 ? args.splice(at, 2)[1] : undefined;
const [id, seconds] = args;
const preset = PRESETS.find((p) => p.id === id);
if (!preset || (at >= 0 && !preset.spec.clients.some((c) => c.language === language))) {
  console.error(`usage: npm run bench:preset -- <id> [seconds] [--language <one of the preset's languages>]; the presets: ${PRESETS.map((p) => p.id).join(', ')}`);
  process.exit(2);
}
const spec = structuredClone(preset.spec);
if (seconds) spec.workload = { ...spec.workload, measuredOps: undefined, durationSeconds: Number(seconds) };
if (language) {
  const kept = spec.clients.flatMap((c, i) => (c.language === language ? [i] : []));
  if (spec.pairing === 'zip' && spec.configurations) spec.configurations = kept.map((i) => spec.configurations![i]!);
  spec.clients = kept.map((i) => spec.clients[i]!);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scb-bench-preset-'));
const stack = await startEmbeddedStack({ ...process.env, SCB_DATA_DIR: dataDir, PORT: String(await freePort()), SCB_PG_PORT: String(await freePort()) });
try {
  const res = await fetch(`${stack.base}/api/jobs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
  if (res.status !== 201) throw new Error(`POST /api/jobs answered ${res.status}: ${await res.text()}`);
  const { id: jobId } = (await res.json()) as { id: string };
  let job: { status: string; error: string | null; cells: Cell[] };
  for (;;) {
    job = (await (await fetch(`${stack.base}/api/jobs/${jobId}`)).json()) as typeof job;
    if (!['queued', 'running'].includes(job.status)) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const commit = execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
  console.log(`# preset ${preset.id}, commit ${commit}, ${os.availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}: job ${job.status}${job.error ? ` (${job.error})` : ''}`);
  for (const c of job.cells) {
    const level = formatLevel(c.concurrency, c.arrivalRate !== null);
    const who = `${c.client.language} ${c.client.version}${c.client.grpcVersion ? ` (grpc-go ${c.client.grpcVersion})` : ''} ${level}`;
    if (!c.result) {
      console.log(`${who}: ${c.status} ${c.error ?? ''}`);
      continue;
    }
    const kinds = Object.entries(c.result.operations).map(([k, s]) => `${k} p50 ${s.p50Ms.toFixed(0)} ms, p99 ${s.p99Ms.toFixed(0)} ms, max ${s.maxMs.toFixed(0)} ms`);
    const ceiling = c.result.ceiling ? `; ceiling ${c.result.ceiling.qps.toFixed(0)} ops/s (${c.result.ceiling.limit}; no limits ${c.result.ceiling.noLimitsQps.toFixed(0)})` : '';
    const v = c.result.verdict;
    const why = v.held ?? v.limits.map((l) => `${l.name} ${l.value.toFixed(2)}`).join(', ');
    const r = c.result;
    const open = r.uncorrected
      ? `; p50 ${r.p50Ms.toFixed(0)} ms, p99 ${r.p99Ms.toFixed(0)} ms from the intended start, uncorrected p50 ${r.uncorrected.p50Ms.toFixed(0)} ms, p99 ${r.uncorrected.p99Ms.toFixed(0)} ms; ${r.outstandingCapWaits} waited for the cap; lag p99 ${r.scheduleLagP99Ms?.toFixed(2)} ms`
      : '';
    console.log(`${who} ${c.configuration.label}: ${r.qps.toFixed(0)} ops/s, ${r.errorCount} errors${ceiling}; ${v.kind}${why ? ` (${why})` : ''}${open}; ${kinds.join('; ')}`);
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
