// Load generator child for bench/fake.ts: raw grpc-js streams (no Spanner client) against the fake.
// argv: port concurrency connections seconds latencyMs. Prints one JSON line: {count, errors, elapsedMs, cpuMs}.
import * as grpc from '@grpc/grpc-js';
import { spannerService } from '../packages/fake-spanner/src/proto';

const [port, concurrency, connections, seconds, latencyMs] = process.argv.slice(2).map(Number);
const Client = grpc.makeClientConstructor(spannerService(), 'Spanner') as unknown as new (a: string, c: grpc.ChannelCredentials, o: object) => any;
const clients = Array.from({ length: connections }, () => new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 }));
const request = { session: 'projects/p/instances/i/databases/d/sessions/bench', sql: 'SELECT 1' };

function once(c: any): Promise<void> {
  return new Promise((resolve, reject) => {
    const call = c.ExecuteStreamingSql(request);
    call.on('data', () => {});
    call.on('error', reject);
    call.on('end', resolve);
  });
}

// Connect every client first so the measured window holds only queries.
await Promise.all(clients.map((c) => new Promise<void>((r, j) => c.waitForReady(Date.now() + 10_000, (e: Error | undefined) => (e ? j(e) : r())))));
let count = 0;
let errors = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const end = t0 + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async (_, i) => {
    const c = clients[i % connections];
    // Closed-loop workers started together stay in lock-step (every reply lands at once); spread
    // their first calls over one latency period, as independent clients would be.
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, (i * latencyMs) / concurrency));
    while (performance.now() < end) {
      try {
        await once(c);
        count++;
      } catch {
        errors++;
      }
    }
  }),
);
const elapsedMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ count, errors, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 }) + '\n');
process.exit(0);
