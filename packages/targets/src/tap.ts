// The connection tap: a TCP relay between a driver and a plaintext HTTP/2 target (the emulator, the
// fake) that reads only the 9-byte frame headers going by and counts, per client connection, the
// streams (RPCs) opened and the peak in flight, the same ChannelStats the fake counts itself. It can
// also stand for the network and front end in front of any plaintext target (TapBehaviour).
import net from 'node:net';
import { newLatencyHistogram, type CellEvent, type Network } from '@scb/shared';
import type { ChannelStats } from '@scb/shared/target-plugin';

const PREFACE = 24; // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const GOAWAY = 0x7;
const END_STREAM = 0x1;
const ACK = 0x1;
const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;

/** What the tap does to the traffic it relays; ms after the job's time scale. Unset: nothing. */
export interface TapBehaviour {
  /** Added to every chunk in each direction (so a round trip gains twice this). */
  oneWayLatencyMs?: number;
  /** A connection is reset (both sockets destroyed) at this age. */
  maxConnectionAgeMs?: number;
  /** A new connection reaches the target only after this long. */
  acceptDelayMs?: number;
  /** Written into the target's first SETTINGS frame, as Spanner's front end announces 100. */
  maxConcurrentStreams?: number;
  /**
   * This long after `markMeasuring`, every connection open then goes silent: its bytes are read and
   * dropped both ways, and it is never closed (TCP stays up, HTTP/2 frames vanish, PINGs go unanswered).
   */
  blackholeAtMs?: number;
  /**
   * This long after `markMeasuring`, the tap tells the client of every connection open then that the
   * server is going away (GOAWAY, no error, the last stream the client opened), between two frames of
   * whatever is in flight; the server knows nothing and finishes those streams.
   */
  goawayAtMs?: number;
}

/** A target's network as the tap plays it: durations after the job's time scale. */
export function tapBehaviour(n: Network | undefined, timeScale: number): TapBehaviour {
  const scaled = (ms: number | undefined) => (ms === undefined ? undefined : ms * timeScale);
  return {
    oneWayLatencyMs: scaled(n?.oneWayLatencyMs),
    maxConnectionAgeMs: scaled(n?.maxConnectionAgeMs),
    acceptDelayMs: scaled(n?.acceptDelayMs),
    maxConcurrentStreams: n?.maxConcurrentStreams,
    blackholeAtMs: scaled(n?.blackholeAtMs),
    goawayAtMs: scaled(n?.goawayAtMs),
  };
}

interface Connection {
  connection: number;
  peer: string;
  rpcs: number;
  peakInFlight: number;
  open: Set<number>;
  lastStream: number;
  /** Per stream: when the request's last frame (END_STREAM) went by towards the target, until its answer's first frame came back. */
  requestEnded: Map<number, number>;
  /** Blackholed: nothing passes either way any more. */
  silent: boolean;
  /** A GOAWAY is due at the next frame boundary of the server's bytes. */
  goawayPending: boolean;
  /** Sends the client a GOAWAY as soon as the server's bytes allow (set once relayed). */
  goAway: (() => void) | null;
  closed: boolean;
}

/**
 * The target's time per RPC as the wire shows it: from the request's last frame passing the tap to the
 * response's first frame passing it back, ms. Everything the target spends on the RPC is in it, its
 * HTTP/2 framing and socket reads and writes included, which a server's own clock around its handler
 * misses.
 */
export interface WireTimes {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Walks frame headers across chunk boundaries; `onFrame` sees type, flags and stream id of each. Returns
 * the offsets in each chunk where a frame begins (or the chunk ends between frames): where a frame of
 * the tap's own may go in; `between()` says whether the stream is between frames now.
 */
function frameReader(skipFirst: number, onFrame: (type: number, flags: number, stream: number) => void) {
  let skip = skipFirst; // payload (or preface) bytes still to pass
  const header = Buffer.alloc(9);
  let have = 0; // header bytes gathered
  const read = (chunk: Buffer): number[] => {
    const boundaries: number[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (skip === 0 && have === 0) boundaries.push(i);
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
    if (skip === 0 && have === 0) boundaries.push(chunk.length);
    return boundaries;
  };
  return Object.assign(read, { between: () => skip === 0 && have === 0 });
}

/** A GOAWAY frame: no error, the last stream the sender will still serve. */
export function goawayFrame(lastStream: number): Buffer {
  const f = Buffer.alloc(9 + 8);
  f.writeUIntBE(8, 0, 3);
  f[3] = GOAWAY;
  f.writeUInt32BE(lastStream & 0x7fffffff, 9);
  return f;
}

/**
 * Rewrites the server's first frame, its SETTINGS, to announce `limit` concurrent streams; every
 * later byte passes unchanged. Returns a function from received bytes to bytes to forward.
 */
export function settingsRewriter(limit: number): (chunk: Buffer) => Buffer {
  let pending: Buffer | null = Buffer.alloc(0);
  return (chunk) => {
    if (pending === null) return chunk;
    pending = Buffer.concat([pending, chunk]);
    if (pending.length < 9) return Buffer.alloc(0);
    const length = pending.readUIntBE(0, 3);
    const type = pending[3]!;
    if (type !== SETTINGS || pending[4]! & ACK) {
      // Not the server preface we expect: forward untouched from here on.
      const all = pending;
      pending = null;
      return all;
    }
    if (pending.length < 9 + length) return Buffer.alloc(0);
    const entries: Buffer[] = [];
    for (let at = 9; at < 9 + length; at += 6) if (pending.readUInt16BE(at) !== SETTINGS_MAX_CONCURRENT_STREAMS) entries.push(pending.subarray(at, at + 6));
    const entry = Buffer.alloc(6);
    entry.writeUInt16BE(SETTINGS_MAX_CONCURRENT_STREAMS, 0);
    entry.writeUInt32BE(limit, 2);
    entries.push(entry);
    const header = Buffer.from(pending.subarray(0, 9));
    header.writeUIntBE(entries.length * 6, 0, 3);
    const out = Buffer.concat([header, ...entries, pending.subarray(9 + length)]);
    pending = null;
    return out;
  };
}

/** Writes chunks to `to` after `delayMs`, in order; `end` ends `to` once every chunk is written. */
function delayedWriter(to: net.Socket, delayMs: number, onBackpressure: () => void) {
  const queue: { due: number; data: Buffer }[] = [];
  let scheduled = false;
  let ending = false;
  const put = (data: Buffer) => {
    if (!to.destroyed && !to.writableEnded && !to.write(data)) onBackpressure();
  };
  const flush = () => {
    scheduled = false;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.due <= now) put(queue.shift()!.data);
    if (queue.length > 0) {
      scheduled = true;
      setTimeout(flush, queue[0]!.due - now);
    } else if (ending) to.end();
  };
  return {
    write(data: Buffer) {
      if (delayMs <= 0) return put(data);
      queue.push({ due: performance.now() + delayMs, data });
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, delayMs);
      }
    },
    end() {
      ending = true;
      if (queue.length === 0) to.end();
    },
  };
}

export interface Tap {
  host: string;
  port: number;
  /** Every RPC seen so far, by client connection in the order they connected. */
  stats(): ChannelStats;
  /** The target's time per RPC on the wire since the tap started (or the last `resetWire`). */
  wire(): WireTimes;
  resetWire(): void;
  /** The measured phase begins: a blackhole's clock starts, and the bytes to the client count from here. */
  markMeasuring(): void;
  /** Bytes the target sent the clients through the tap (TCP payload) since `markMeasuring`; null before. */
  wireBytes(): number | null;
  /** What the tap did to the connections, ms into the measured phase (a blackhole and the connections it caught). */
  events(): CellEvent[];
  /** Each GOAWAY the tap sent: to which connection, naming which last stream, with how many streams in flight. */
  goaways(): { connection: number; lastStream: number; inFlight: number }[];
  /** Connections the blackhole silenced, and how many connected after it. */
  blackhole(): { atMs: number; silenced: number; openedAfter: number } | null;
  stop(): Promise<void>;
}

/** Starts a tap on a free port of 127.0.0.1 in front of `upstream`. */
export async function startTap(upstream: { host: string; port: number }, behaviour: TapBehaviour = {}): Promise<Tap> {
  const connections: Connection[] = [];
  const sockets = new Set<net.Socket>();
  let wire = newLatencyHistogram();
  let goawayAtMs: number | null = null;
  let hole: { atMs: number; silenced: number; connections: number } | null = null;
  const goaways: { connection: number; lastStream: number; inFlight: number }[] = [];
  const timers: NodeJS.Timeout[] = [];
  let bytesToClients: number | null = null;
  const server = net.createServer((client) => {
    const c: Connection = {
      connection: connections.length,
      peer: `${client.remoteAddress}:${client.remotePort}`,
      rpcs: 0,
      peakInFlight: 0,
      open: new Set(),
      lastStream: 0,
      requestEnded: new Map(),
      silent: false,
      closed: false,
      goawayPending: false,
      goAway: null,
    };
    client.on('close', () => (c.closed = true));
    connections.push(c);
    // Held back for the accept delay: bytes the client sends meanwhile wait in its socket.
    if (behaviour.acceptDelayMs) {
      client.pause();
      sockets.add(client);
      client.on('error', () => client.destroy());
      setTimeout(() => {
        if (!client.destroyed) relay(client, c);
      }, behaviour.acceptDelayMs);
    } else relay(client, c);
  });
  const relay = (client: net.Socket, c: Connection) => {
    const target = net.connect(upstream);
    if (behaviour.maxConnectionAgeMs) {
      const reset = setTimeout(() => {
        client.destroy();
        target.destroy();
      }, behaviour.maxConnectionAgeMs);
      client.on('close', () => clearTimeout(reset));
    }
    for (const s of [client, target]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        target.destroy();
      });
    }
    const close = (stream: number) => {
      c.open.delete(stream);
      c.requestEnded.delete(stream);
    };
    const fromClient = frameReader(PREFACE, (type, flags, stream) => {
      // A client HEADERS frame on a stream id above every earlier one starts an RPC.
      if (type === HEADERS && stream > c.lastStream) {
        c.lastStream = stream;
        c.rpcs++;
        c.open.add(stream);
        c.peakInFlight = Math.max(c.peakInFlight, c.open.size);
      } else if (type === RST_STREAM) close(stream);
      if ((type === DATA || type === HEADERS) && flags & END_STREAM && c.open.has(stream)) c.requestEnded.set(stream, performance.now());
    });
    const fromServer = frameReader(0, (type, flags, stream) => {
      const ended = c.requestEnded.get(stream);
      if (ended !== undefined && (type === HEADERS || type === DATA)) {
        wire.recordValue(Math.max(1, Math.round((performance.now() - ended) * 1000)));
        c.requestEnded.delete(stream);
      }
      if (((type === DATA || type === HEADERS) && flags & END_STREAM) || type === RST_STREAM) close(stream);
    });
    const rewrite = behaviour.maxConcurrentStreams ? settingsRewriter(behaviour.maxConcurrentStreams) : (d: Buffer) => d;
    const toTarget = delayedWriter(target, behaviour.oneWayLatencyMs ?? 0, () => client.pause());
    const toClient = delayedWriter(client, behaviour.oneWayLatencyMs ?? 0, () => target.pause());
    client.on('data', (d: Buffer) => {
      if (c.silent) return;
      fromClient(d);
      toTarget.write(d);
    });
    target.on('data', (received: Buffer) => {
      if (c.silent) return;
      if (bytesToClients !== null) bytesToClients += received.length;
      const d = rewrite(received);
      if (d.length === 0) return;
      const boundaries = fromServer(d);
      const at = c.goawayPending ? boundaries[0] : undefined;
      if (at === undefined) return toClient.write(d);
      toClient.write(d.subarray(0, at));
      goaway();
      toClient.write(d.subarray(at));
    });
    // When the GOAWAY is due: now if the server's bytes are between frames, else at their next boundary.
    const goaway = () => {
      c.goawayPending = false;
      toClient.write(goawayFrame(c.lastStream));
      goaways.push({ connection: c.connection, lastStream: c.lastStream, inFlight: c.open.size });
    };
    c.goAway = () => (fromServer.between() ? goaway() : (c.goawayPending = true));
    target.on('drain', () => client.resume());
    client.on('drain', () => target.resume());
    client.on('end', () => toTarget.end());
    target.on('end', () => toClient.end());
    client.resume();
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    wire: () => ({ count: wire.totalCount, p50Ms: wire.totalCount ? wire.getValueAtPercentile(50) / 1000 : 0, p99Ms: wire.totalCount ? wire.getValueAtPercentile(99) / 1000 : 0 }),
    resetWire: () => {
      wire = newLatencyHistogram();
    },
    wireBytes: () => bytesToClients,
    markMeasuring: () => {
      bytesToClients = 0;
      const hAt = behaviour.blackholeAtMs;
      if (hAt !== undefined)
        timers.push(
          setTimeout(() => {
            const caught = connections.filter((c) => !c.closed);
            for (const c of caught) c.silent = true;
            hole = { atMs: hAt, silenced: caught.length, connections: connections.length };
          }, hAt),
        );
      const gAt = behaviour.goawayAtMs;
      if (gAt !== undefined)
        timers.push(
          setTimeout(() => {
            goawayAtMs = gAt;
            for (const c of connections) if (!c.closed && !c.silent) c.goAway?.();
          }, gAt),
        );
    },
    events: () => {
      const out: CellEvent[] = [];
      if (hole) out.push({ atMs: hole.atMs, kind: 'schedule-change', text: `blackhole: ${hole.silenced} connection(s) go silent, never closed` });
      if (goawayAtMs !== null)
        out.push({ atMs: goawayAtMs, kind: 'schedule-change', text: `GOAWAY to ${goaways.length} connection(s) with ${goaways.reduce((a, g) => a + g.inFlight, 0)} stream(s) in flight` });
      return out.sort((a, b) => a.atMs - b.atMs);
    },
    goaways: () => [...goaways],
    blackhole: () => (hole ? { atMs: hole.atMs, silenced: hole.silenced, openedAfter: connections.length - hole.connections } : null),
    stats: () => ({
      source: 'tap',
      totalRpcs: connections.reduce((a, c) => a + c.rpcs, 0),
      connections: connections.map(({ connection, peer, rpcs, peakInFlight }) => ({ connection, peer, rpcs, peakInFlight })),
    }),
    async stop() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
