import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startFakeSpanner } from '@scb/fake-spanner';
import { decodeHistogram } from '@scb/shared';
const [v, conf, conc, lat] = [process.argv[2], JSON.parse(process.argv[3] ?? '{}'), Number(process.argv[4] ?? 20), Number(process.argv[5] ?? 20)];
const fake = await startFakeSpanner({ latencyMs: lat });
const cp = readFileSync(`/tmp/cp-${v}.txt`, 'utf8').trim();
const cell = { endpoint: { host: fake.host, port: fake.port }, projectId: 'p', instanceId: 'i', databaseId: 'd', client: { language: 'java', version: v },
  configuration: { label: 'x', grpcGcp: 'default', ...conf }, concurrency: conc, operation: 'select1', warmupOps: 100, durationMs: Number(process.env.DUR ?? 2000), deadlineMs: 60000 };
const t0 = Date.now();
const p = spawn('java', ['-cp', `/tmp/cls-${v}:${cp}`, 'bench.JavaDriver'], { env: { ...process.env, SPANNER_DISABLE_BUILTIN_METRICS: 'true' } });
p.stdin.end(JSON.stringify(cell));
let out = '';
p.stdout.on('data', (d) => (out += d));
p.stderr.on('data', (d) => process.stderr.write('[stderr] ' + d));
const code = await new Promise((r) => p.on('exit', r));
for (const l of out.trim().split('\n')) { const m = JSON.parse(l); if (m.type === 'result') { const h = decodeHistogram(m.histogram); console.log({ ...m, histogram: m.histogram.length, qps: m.count / m.elapsedMs * 1000, p50: h.getValueAtPercentile(50) / 1000, total: h.totalCount, timeline: m.timeline.length }); } else console.log(l); }
const s = fake.stats();
console.log('exit', code, 'wall', Date.now() - t0, 'conns', s.connections.map((c) => `${c.rpcs}/${c.peakInFlight}`).join(' '), s.rpcsByMethod);
await fake.stop();
