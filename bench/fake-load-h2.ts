// Lean load generator child for bench/fake.ts: gRPC calls written directly on node:http2 (no
// grpc-js channel machinery), for when grpc-js itself is the bottleneck on 2 cores.
// argv: port concurrency connections seconds latencyMs. Prints {count, errors, elapsedMs, cpuMs}.
import http2 from 'node:http2';
import { spannerService } from '../packages/fake-spanner/src/proto';
import { closedLoop } from './closed-loop';

const [port, concurrency, connections, seconds, latencyMs] = process.argv.slice(2).map(Number);
const method = spannerService().ExecuteStreamingSql;
const message = method.requestSerialize({ session: 'projects/p/instances/i/databases/d/sessions/bench', sql: 'SELECT 1' });
// gRPC framing: 1 byte "not compressed", 4 bytes length, then the message.
const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), message]);
frame.writeUInt32BE(message.length, 1);
const headers = { ':method': 'POST', ':path': method.path, 'content-type': 'application/grpc', te: 'trailers' };

const sessions = await Promise.all(
  Array.from(
    { length: connections },
    () =>
      new Promise<http2.ClientHttp2Session>((resolve, reject) => {
        const s = http2.connect(`http://127.0.0.1:${port}`);
        s.once('connect', () => resolve(s));
        s.once('error', reject);
      }),
  ),
);

function once(s: http2.ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = s.request(headers);
    let status: string | undefined;
    req.on('trailers', (t) => (status = String(t['grpc-status'])));
    req.on('response', (h) => {
      if (h['grpc-status'] !== undefined) status = String(h['grpc-status']);
    });
    req.on('data', () => {});
    req.on('end', () => (status === '0' ? resolve() : reject(new Error(`grpc-status ${status}`))));
    req.on('error', reject);
    req.end(frame);
  });
}

const result = await closedLoop(concurrency, seconds, latencyMs, (i) => once(sessions[i % connections]));
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(0);
