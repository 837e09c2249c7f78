// `npm run bench:fake`: how fast is the fake Spanner server? A raw grpc-js load generator (no Spanner
// client) drives ExecuteStreamingSql `SELECT 1`; server and generators are separate processes so the
// fake's own CPU is measured. grpc-js rows use two generator processes (one tops out near a core). Prints figures; goals from issue #3 are printed beside them.
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

/** `processes` generator processes share the connections and streams (one Node process tops out near 1 core). */
async function scenario(name: string, generator: 'grpc-js' | 'http2', latencyMs: number, concurrency: number, connections: number, processes = 1) {
  const server = child('fake-server.ts', [latencyMs]);
  const { port } = await server.next();
  server.p.stdin!.write('\n');
  const before = await server.next();
  const loads = Array.from({ length: processes }, () =>
    child(generator === 'http2' ? 'fake-load-h2.ts' : 'fake-load.ts', [port, concurrency / processes, connections / processes, SECONDS, latencyMs]),
  );
  const results = await Promise.all(loads.map((l) => l.next()));
  server.p.stdin!.write('\n');
  const after = await server.next();
  server.p.kill();
  const count = results.reduce((a, r) => a + r.count, 0);
  const elapsedMs = Math.max(...results.map((r) => r.elapsedMs));
  const qps = (count * 1000) / elapsedMs;
  const serverCpuMs = after.cpuMs - before.cpuMs;
  const ideal = latencyMs > 0 ? (concurrency * 1000) / latencyMs : Infinity;
  return {
    scenario: name,
    qps: Math.round(qps),
    'ideal qps': Number.isFinite(ideal) ? Math.round(ideal) : '-',
    '% of ideal': Number.isFinite(ideal) ? `${((100 * qps) / ideal).toFixed(1)}%` : '-',
    'fake cores': (serverCpuMs / elapsedMs).toFixed(2),
    'fake CPU ms / 1000 RPCs': ((serverCpuMs * 1000) / (after.rpcs - before.rpcs)).toFixed(1),
    'generator cores': (results.reduce((a, r) => a + r.cpuMs, 0) / elapsedMs).toFixed(2),
    'client p50 / p99 ms': `${results[0].p50Ms} / ${results[0].p99Ms}`,
    errors: results.reduce((a, r) => a + r.errors, 0),
  };
}

const rows = [];
rows.push(await scenario('0 ms, 64 streams / 4 conns, grpc-js', 'grpc-js', 0, 64, 4, 2));
rows.push(await scenario('65 ms, 400 streams / 4 conns, grpc-js', 'grpc-js', 65, 400, 4, 2));
// The same calls written straight on node:http2: shows how much of the gap is grpc-js's client.
rows.push(await scenario('0 ms, 64 streams / 4 conns, http2', 'http2', 0, 64, 4, 2));
rows.push(await scenario('65 ms, 400 streams / 4 conns, http2', 'http2', 65, 400, 4, 1));
console.table(rows);
console.log(`machine: ${(await import('node:os')).availableParallelism()} cores; ${SECONDS} s per scenario`);
console.log('goals: >= 6000 qps at 0 ms with the fake on <= 1 core; >= 95% of ideal (6154 qps) at 65 ms x 400 streams');
