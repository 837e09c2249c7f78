// Fake server child for bench/fake.ts: prints its port, then its CPU time whenever asked on stdin.
import { createInterface } from 'node:readline';
import { startFakeSpanner } from '../packages/fake-spanner/src/index';

const fake = await startFakeSpanner({ latencyMs: Number(process.argv[2] ?? 0) });
process.stdout.write(JSON.stringify({ port: fake.port }) + '\n');
createInterface({ input: process.stdin }).on('line', () => {
  const c = process.cpuUsage();
  process.stdout.write(JSON.stringify({ cpuMs: (c.user + c.system) / 1000, rpcs: fake.stats().totalRpcs }) + '\n');
});
