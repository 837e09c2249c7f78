// The connection tap: a TCP relay between a driver and a plaintext HTTP/2 target (the emulator, the
// fake) that reads only the 9-byte frame headers going by and counts, per client connection, the
// streams (RPCs) opened and the peak in flight, the same ChannelStats the fake counts itself.
import net from 'node:net';
import type { ChannelStats } from './target';

const PREFACE = 24; // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const END_STREAM = 0x1;

interface Connection {
  connection: number;
  peer: string;
  rpcs: number;
  peakInFlight: number;
  open: Set<number>;
  lastStream: number;
}

/** Walks frame headers across chunk boundaries; `onFrame` sees type, flags and stream id of each. */
function frameReader(skipFirst: number, onFrame: (type: number, flags: number, stream: number) => void) {
  let skip = skipFirst; // payload (or preface) bytes still to pass
  const header = Buffer.alloc(9);
  let have = 0; // header bytes gathered
  return (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      const n = Math.min(9 - have, chunk.length - i);
      chunk.copy(header, have, i, i + n);
      have += n;
      i += n;
      if (have < 9) break;
      have = 0;
      skip = header.readUIntBE(0, 3);
      onFrame(header[3]!, header[4]!, header.readUInt32BE(5) & 0x7fffffff);
    }
  };
}

export interface Tap {
  host: string;
  port: number;
  /** Every RPC seen so far, by client connection in the order they connected. */
  stats(): ChannelStats;
  stop(): Promise<void>;
}

/** Starts a tap on a free port of 127.0.0.1 in front of `upstream`. */
export async function startTap(upstream: { host: string; port: number }): Promise<Tap> {
  const connections: Connection[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const c: Connection = { connection: connections.length, peer: `${client.remoteAddress}:${client.remotePort}`, rpcs: 0, peakInFlight: 0, open: new Set(), lastStream: 0 };
    connections.push(c);
    const target = net.connect(upstream);
    for (const s of [client, target]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        target.destroy();
      });
    }
    const close = (stream: number) => c.open.delete(stream);
    const fromClient = frameReader(PREFACE, (type, _flags, stream) => {
      // A client HEADERS frame on a stream id above every earlier one starts an RPC.
      if (type === HEADERS && stream > c.lastStream) {
        c.lastStream = stream;
        c.rpcs++;
        c.open.add(stream);
        c.peakInFlight = Math.max(c.peakInFlight, c.open.size);
      } else if (type === RST_STREAM) close(stream);
    });
    const fromServer = frameReader(0, (type, flags, stream) => {
      if (((type === DATA || type === HEADERS) && flags & END_STREAM) || type === RST_STREAM) close(stream);
    });
    client.on('data', (d: Buffer) => {
      fromClient(d);
      if (!target.write(d)) client.pause();
    });
    target.on('data', (d: Buffer) => {
      fromServer(d);
      if (!client.write(d)) target.pause();
    });
    target.on('drain', () => client.resume());
    client.on('drain', () => target.resume());
    client.on('end', () => target.end());
    target.on('end', () => client.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    stats: () => ({
      totalRpcs: connections.reduce((a, c) => a + c.rpcs, 0),
      connections: connections.map(({ connection, peer, rpcs, peakInFlight }) => ({ connection, peer, rpcs, peakInFlight })),
    }),
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
