// `npm run bench:fake`: how fast is the fake Spanner server? A raw grpc-js load generator (no Spanner
// client) drives ExecuteStreamingSql `SELECT 1`; server and generator are separate processes so the
// fake's own CPU is measured. Prints figures; goals from issue #3 are printed beside them.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

function child(script: string, args: (string | number)[]) {
  const p = spawn(process.execPath, ['--import', 'tsx', path.join(here, script), ...args.map(String)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string);
  return { p, next };
}

async function scenario(name: string, latencyMs: number, concurrency: number, connections: number) {
  const server = child('fake-server.ts', [latencyMs]);
  const { port } = await server.next();
  server.p.stdin!.write('\n');
  const before = await server.next();
  const load = child('fake-load.ts', [port, concurrency, connections, SECONDS, latencyMs]);
  const r = await load.next();
  server.p.stdin!.write('\n');
  const after = await server.next();
  server.p.kill();
  const qps = (r.count * 1000) / r.elapsedMs;
  const serverCpuMs = after.cpuMs - before.cpuMs;
  const ideal = latencyMs > 0 ? (concurrency * 1000) / latencyMs : Infinity;
  return {
    scenario: name,
    qps: Math.round(qps),
    'ideal qps': Number.isFinite(ideal) ? Math.round(ideal) : '-',
    '% of ideal': Number.isFinite(ideal) ? `${((100 * qps) / ideal).toFixed(1)}%` : '-',
    'fake cores': (serverCpuMs / r.elapsedMs).toFixed(2),
    'fake CPU ms / 1000 RPCs': ((serverCpuMs * 1000) / (after.rpcs - before.rpcs)).toFixed(1),
    'generator cores': (r.cpuMs / r.elapsedMs).toFixed(2),
    errors: r.errors,
  };
}

const rows = [];
if (process.env.BENCH_EXTRA) { rows.push(await scenario('65 ms, 400 / 8 conns', 65, 400, 8)); rows.push(await scenario('65 ms, 200 / 4 conns', 65, 200, 4)); }
rows.push(await scenario('0 ms, 64 streams / 4 connections', 0, 64, 4));
rows.push(await scenario('65 ms, 400 streams / 4 connections', 65, 400, 4));
console.table(rows);
console.log(`machine: ${(await import('node:os')).availableParallelism()} cores; ${SECONDS} s per scenario`);
console.log('goals: >= 6000 qps at 0 ms with the fake on <= 1 core; >= 95% of ideal (6154 qps) at 65 ms x 400 streams');
