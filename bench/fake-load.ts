// Load generator child for bench/fake.ts: raw grpc-js streams (no Spanner client) against the fake.
// argv: port concurrency connections seconds latencyMs. Prints one JSON line: {count, errors, elapsedMs, cpuMs}.
import * as grpc from '@grpc/grpc-js';
import { spannerService } from '../packages/fake-spanner/src/proto';
import { closedLoop } from './closed-loop';

const [port, concurrency, connections, seconds, latencyMs] = process.argv.slice(2).map(Number);
// The request is encoded once and replies are not decoded: the generator should spend its CPU on
// calls, not on protobuf. (The fake still decodes every request and encodes every reply.)
const method = spannerService().ExecuteStreamingSql;
const encoded = method.requestSerialize({ session: 'projects/p/instances/i/databases/d/sessions/bench', sql: 'SELECT 1' });
const Client = grpc.makeGenericClientConstructor({ ExecuteStreamingSql: { ...method, requestSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b } }, 'Spanner') as unknown as new (
  a: string,
  c: grpc.ChannelCredentials,
  o: object,
) => any;
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
const result = await closedLoop(concurrency, seconds, latencyMs, (i) => once(clients[i % connections]));
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(0);
