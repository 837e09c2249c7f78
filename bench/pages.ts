// `npm run bench:pages`: do pages stay fast with many stored jobs? Seeds a fresh embedded PostgreSQL
// with 2,000 finished jobs (8 cells each, with results and channel stats), serves the production
// build against it, and prints server-side render times (the goal: under 300 ms).
import { median } from '@scb/shared/stats';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@scb/db';
import { migrate, startEmbeddedPostgres } from '@scb/db/setup';
import { encodeHistogram, loadLevels, newLatencyHistogram, parseJobSpec } from '@scb/shared';
import { freePort } from '../test/helpers/postgres';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JOBS = Number(process.env.BENCH_JOBS ?? 2000);
const SAMPLES = 15;

const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-bench-pages-'));
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort() });
await migrate(pg.url);
const db = createDb(pg.url);

const h = newLatencyHistogram();
for (let i = 0; i < 5000; i++) h.recordValue(65_000 + Math.round(Math.random() * 20_000));
const histogram = encodeHistogram(h);
const timeline = Array.from({ length: 10 }, (_, i) => ({ second: i + 1, count: 700, errors: 0, p99Ms: 80 }));
const versions = ['6.104.0', '6.105.0', '6.106.0', '6.107.0', '6.108.0', '6.111.0', '6.112.0', '6.113.0'];

const t0 = performance.now();
let lastId = '';
for (let j = 0; j < JOBS; j++) {
  const version = versions[j % versions.length];
  const parsed = parseJobSpec({
    name: `seeded ${j}`,
    clients: [{ language: 'java', version }],
    configurations: [
      { label: 'grpc-gcp on', grpcGcp: 'on' },
      { label: 'grpc-gcp off', grpcGcp: 'off' },
    ],
    concurrency: [50, 100, 200, 400],
    workload: { warmupOps: 500, measuredOps: 2000 },
    timeScale: 10,
  });
  if (!parsed.ok) throw new Error('bad seed spec');
  const id = `seed${String(j).padStart(6, '0')}`;
  lastId = id;
  const created = new Date(Date.now() - (JOBS - j) * 60_000);
  await db.job.create({
    data: {
      id,
      name: parsed.value.name,
      spec: parsed.value as object,
      cellsTotal: 8,
      status: 'running',
      createdAt: created,
      startedAt: created,
      finishedAt: created,
      environment: { host: 'seed', cores: 2, toolchains: { node: process.version, java: '17' }, commit: null },
      cells: {
        create: loadLevels(parsed.value).flatMap((c, ci) =>
          parsed.value.configurations.map((cfg, k) => ({
            index: ci * 2 + k,
            clientLanguage: 'java',
            clientVersion: version,
            configLabel: cfg.label,
            config: cfg,
            concurrency: c,
            repeat: 1,
            status: 'running' as const,
            result: {
              create: {
                count: 2000,
                errorCount: 0,
                errors: {},
                elapsedMs: 3000,
                qps: (c / 0.65) * (0.8 + Math.random() * 0.2),
                p50Ms: 660,
                p90Ms: 700,
                p99Ms: 750,
                p999Ms: 800,
                maxMs: 820,
                histogram,
                timeline,
                cpuMs: 900,
                serverRpcs: 2600,
              },
            },
            channels: { create: Array.from({ length: 8 }, (_, n) => ({ connection: n, peer: `127.0.0.1:${40000 + n}`, source: 'fake', rpcs: 300 + n, peakInFlight: 20 + n })) },
          })),
        ),
      },
    },
  });
  // Stored as a runner stores them: measured while running, then finished (finished rows never change).
  await db.$transaction([db.cell.updateMany({ where: { jobId: id }, data: { status: 'succeeded' } }), db.job.update({ where: { id }, data: { status: 'succeeded' } })]);
}
const seedMs = performance.now() - t0;
await db.$disconnect();

const web = path.join(ROOT, 'apps/web');
if (!existsSync(path.join(web, '.next/BUILD_ID'))) throw new Error('build the web app first: npm run build:web');
const port = await freePort();
const next = path.join(path.dirname(fileURLToPath(import.meta.resolve('next/package.json'))), 'dist/bin/next');
const server = spawn(process.execPath, [next, 'start', '-p', String(port)], { cwd: web, env: { ...process.env, DATABASE_URL: pg.url, NEXT_TELEMETRY_DISABLED: '1' }, stdio: 'ignore' });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 200));
}

async function time(urlPath: string) {
  const ms: number[] = [];
  await (await fetch(base + urlPath)).text(); // warm-up: first render compiles nothing, but fills caches
  for (let i = 0; i < SAMPLES; i++) {
    const s = performance.now();
    const res = await fetch(base + urlPath);
    await res.text();
    if (!res.ok) throw new Error(`${urlPath}: HTTP ${res.status}`);
    ms.push(performance.now() - s);
  }
  ms.sort((a, b) => a - b);
  const mid = median(ms);
  return { page: urlPath, 'median ms': Math.round(mid), 'max ms': Math.round(ms[SAMPLES - 1]), 'under 300 ms': mid < 300 ? 'yes' : 'NO' };
}
const rows = [];
for (const p of ['/', `/jobs/${lastId}`, `/api/jobs/${lastId}`, `/compare?jobs=seed000000,seed000001`, '/versions?language=java']) rows.push(await time(p));
server.kill();
await pg.stop();
rmSync(dir, { recursive: true, force: true });
console.log(`seeded ${JOBS} jobs (${JOBS * 8} cells with results and 8 connections each) in ${(seedMs / 1000).toFixed(1)} s`);
console.table(rows);
console.log(`${SAMPLES} requests per page after one warm-up; machine: ${os.availableParallelism()} cores`);
