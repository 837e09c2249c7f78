// Load generator child for bench/fake.ts: raw grpc-js streams (no Spanner client) against the fake.
// argv: port concurrency connections seconds latencyMs. Prints one JSON line: {count, errors, elapsedMs, cpuMs}.
import * as grpc from '@grpc/grpc-js';
import { spannerService } from '../packages/fake-spanner/src/proto';
import { percentiles } from './percentiles';

const [port, concurrency, connections, seconds, latencyMs] = process.argv.slice(2).map(Number);
// The request is encoded once and replies are not decoded: the generator should spend its CPU on
// calls, not on protobuf. (The fake still decodes every request and encodes every reply.)
const method = spannerService().ExecuteStreamingSql;
const encoded = method.requestSerialize({ session: 'projects/p/instances/i/databases/d/sessions/bench', sql: 'SELECT 1' });
const Client = grpc.makeGenericClientConstructor(
  { ExecuteStreamingSql: { ...method, requestSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b } },
  'Spanner',
) as unknown as new (a: string, c: grpc.ChannelCredentials, o: object) => any;
const clients = Array.from({ length: connections }, () => new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 }));

function once(c: any): Promise<void> {
  return new Promise((resolve, reject) => {
    const call = c.ExecuteStreamingSql(encoded);
    call.on('data', () => {});
    call.on('error', reject);
    call.on('end', resolve);
  });
}

// Connect every client first so the measured window holds only queries.
await Promise.all(clients.map((c) => new Promise<void>((r, j) => c.waitForReady(Date.now() + 10_000, (e: Error | undefined) => (e ? j(e) : r())))));
const lat: number[] = [];
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
        const t = performance.now();
        await once(c);
        if (lat.length < 200000) lat.push(performance.now() - t);
        count++;
      } catch {
        errors++;
      }
    }
  }),
);
const elapsedMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ count, errors, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, ...percentiles(lat) }) + '\n');
process.exit(0);
