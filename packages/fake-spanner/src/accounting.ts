import type { TokenVerdict } from './tokens';
import type { Histogram } from 'hdr-histogram-js';
import { newLatencyHistogram, type RpcKind } from '@scb/shared';

/** What the fake saw on one client HTTP/2 connection (one gRPC peer). */
export interface ConnectionStat {
  connection: number;
  peer: string;
  /** ms since the stats began; null when the connection was already open then. */
  openedMs: number | null;
  closedMs: number | null;
  rpcs: number;
  rpcsByMethod: Record<string, number>;
  inFlight: number;
  peakInFlight: number;
}

export interface KindLatency {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface FakeStats {
  /** Epoch ms when the stats began (start or last reset). */
  since: number;
  totalRpcs: number;
  /** RPCs that carried credentials (an authorization header): real Spanner's path, in tests. */
  rpcsWithCredentials: number;
  rpcsByMethod: Record<string, number>;
  /** Sessions created: one per CreateSession, each of a BatchCreateSessions answer. */
  sessionsCreated: number;
  connections: ConnectionStat[];
  /** Server-side time applied per RPC kind. */
  latency: Partial<Record<RpcKind, KindLatency>>;
  /** The same over every RPC of every kind (what a wire figure is weighed against). */
  applied: KindLatency | null;
  /**
   * The fake's own added time per RPC: from the handler being called to the answer being handed to
   * grpc-js, minus the latency it applied. Large when its event loop falls behind.
   */
  added: KindLatency | null;
  /** Injected faults by RPC kind and code. */
  faults: Partial<Record<RpcKind, Record<string, number>>>;
  /**
   * The server's whole time per RPC (arrival to answer), by the benchmark operation the RPC belongs
   * to, since the measured phase began (`markMeasuring`) or the stats did.
   */
  operations: Record<string, KindLatency>;
  /** ms since the stats began at which the measured phase began (`markMeasuring`); null before. */
  measureStartMs: number | null;
  /** Injected faults while measuring, per second of the measured phase (0-based), RPC kind and code. */
  faultsBySecond: { second: number; rpc: RpcKind; code: string; count: number }[];
  /** Schedule entries beginning and ending, ms since the stats began (the server adds them). */
  schedule: { atMs: number; text: string }[];
  /** Credentials mode (a token secret): every RPC's bearer token as the fake found it; null otherwise. */
  tokens: Record<TokenVerdict, number> | null;
  /**
   * Bytes the fake wrote to its client connections (TCP payload: HTTP/2 frames and all) since the
   * measured phase began (`markMeasuring`); null before.
   */
  wireBytesSent: number | null;
}

/** What the fake counts of a client connection's socket: the bytes written to it so far. */
export interface CountedSocket {
  readonly bytesWritten: number;
}

/** Per-connection counters keyed by the peer address, plus per-kind latency and fault counts. */
export class Accounting {
  private byPeer = new Map<string, ConnectionStat>();
  private rpcsByMethod: Record<string, number> = {};
  private totalRpcs = 0;
  private rpcsWithCredentials = 0;
  private sessionsCreated = 0;
  private since = Date.now();
  private latency = new Map<RpcKind, Histogram>();
  private applied = newLatencyHistogram();
  private added = newLatencyHistogram();
  private faults: FakeStats['faults'] = {};
  private operations = new Map<string, Histogram>();
  private measureStartMs: number | null = null;
  private faultsBySecond = new Map<string, FakeStats['faultsBySecond'][number]>();
  private tokens: Record<TokenVerdict, number> | null = null;
  /** Each client connection's socket, and its bytes written when the measured phase began (0 for one opened later). */
  private sockets = new Map<CountedSocket, number>();
  /** What connections closed while measuring had written by then. */
  private closedBytes = 0;

  private conn(peer: string, opened: boolean): ConnectionStat {
    let c = this.byPeer.get(peer);
    if (!c) {
      const at = opened ? Date.now() - this.since : null;
      c = { connection: this.byPeer.size, peer, openedMs: at, closedMs: null, rpcs: 0, rpcsByMethod: {}, inFlight: 0, peakInFlight: 0 };
      this.byPeer.set(peer, c);
    }
    return c;
  }

  /** A client connection opened; its socket's bytes count as they are written while measuring. */
  connectionOpened(peer: string, socket?: CountedSocket): void {
    this.conn(peer, true);
    if (socket) this.sockets.set(socket, 0);
  }

  connectionClosed(peer: string, socket?: CountedSocket): void {
    const c = this.byPeer.get(peer);
    if (c) c.closedMs = Date.now() - this.since;
    const before = socket && this.sockets.get(socket);
    if (before === undefined) return;
    if (this.measureStartMs !== null) this.closedBytes += socket!.bytesWritten - before;
    this.sockets.delete(socket!);
  }

  /** Call when an RPC starts; the returned function ends it (idempotent). */
  /** `credentials`: the call carried an authorization header (its value is never looked at). */
  begin(peer: string, method: string, credentials = false): () => void {
    const conn = this.conn(peer, false);
    if (credentials) this.rpcsWithCredentials++;
    conn.rpcs++;
    conn.rpcsByMethod[method] = (conn.rpcsByMethod[method] ?? 0) + 1;
    this.rpcsByMethod[method] = (this.rpcsByMethod[method] ?? 0) + 1;
    this.totalRpcs++;
    if (++conn.inFlight > conn.peakInFlight) conn.peakInFlight = conn.inFlight;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      conn.inFlight--;
    };
  }

  serverTime(kind: RpcKind, ms: number): void {
    let h = this.latency.get(kind);
    if (!h) this.latency.set(kind, (h = newLatencyHistogram()));
    h.recordValue(Math.max(1, Math.round(ms * 1000)));
    this.applied.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  operationTime(operation: string, ms: number): void {
    let h = this.operations.get(operation);
    if (!h) this.operations.set(operation, (h = newLatencyHistogram()));
    h.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  /** The measured phase begins: the server's time per operation counts from here. */
  markMeasuring(): void {
    this.operations = new Map();
    this.faultsBySecond = new Map();
    this.measureStartMs = Date.now() - this.since;
    for (const socket of this.sockets.keys()) this.sockets.set(socket, socket.bytesWritten);
    this.closedBytes = 0;
  }

  addedTime(ms: number): void {
    this.added.recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  fault(kind: RpcKind, code: string): void {
    const k = (this.faults[kind] ??= {});
    k[code] = (k[code] ?? 0) + 1;
    if (this.measureStartMs === null) return;
    const second = Math.floor((Date.now() - this.since - this.measureStartMs) / 1000);
    const key = `${second} ${kind} ${code}`;
    const s = this.faultsBySecond.get(key);
    if (s) s.count++;
    else this.faultsBySecond.set(key, { second, rpc: kind, code, count: 1 });
  }

  sessionCreated(): void {
    this.sessionsCreated++;
  }

  /** An RPC's bearer token as checked in credentials mode. */
  token(verdict: TokenVerdict): void {
    this.tokens ??= { valid: 0, missing: 0, expired: 0, invalid: 0 };
    this.tokens[verdict]++;
  }

  snapshot(): Omit<FakeStats, 'schedule'> {
    const latency: FakeStats['latency'] = {};
    for (const [kind, h] of this.latency) latency[kind] = kindLatency(h);
    return {
      since: this.since,
      totalRpcs: this.totalRpcs,
      rpcsWithCredentials: this.rpcsWithCredentials,
      rpcsByMethod: { ...this.rpcsByMethod },
      sessionsCreated: this.sessionsCreated,
      connections: [...this.byPeer.values()].map((c) => ({ ...c, rpcsByMethod: { ...c.rpcsByMethod } })),
      latency,
      applied: this.applied.totalCount ? kindLatency(this.applied) : null,
      added: this.added.totalCount ? kindLatency(this.added) : null,
      faults: structuredClone(this.faults),
      operations: Object.fromEntries([...this.operations].map(([op, h]) => [op, kindLatency(h)])),
      measureStartMs: this.measureStartMs,
      faultsBySecond: [...this.faultsBySecond.values()].map((s) => ({ ...s })),
      tokens: this.tokens && { ...this.tokens },
      wireBytesSent: this.measureStartMs === null ? null : [...this.sockets].reduce((sum, [socket, before]) => sum + socket.bytesWritten - before, this.closedBytes),
    };
  }

  /** Forgets everything; connections still open are numbered anew when next used. */
  reset(): void {
    this.byPeer = new Map();
    this.rpcsByMethod = {};
    this.totalRpcs = 0;
    this.rpcsWithCredentials = 0;
    this.tokens = null;
    this.sessionsCreated = 0;
    this.since = Date.now();
    this.latency = new Map();
    this.applied = newLatencyHistogram();
    this.added = newLatencyHistogram();
    this.faults = {};
    this.operations = new Map();
    this.measureStartMs = null;
    this.faultsBySecond = new Map();
    // Connections still open count on from here.
    for (const socket of this.sockets.keys()) this.sockets.set(socket, socket.bytesWritten);
    this.closedBytes = 0;
  }
}

function kindLatency(h: Histogram): KindLatency {
  return { count: h.totalCount, p50Ms: h.getValueAtPercentile(50) / 1000, p99Ms: h.getValueAtPercentile(99) / 1000, maxMs: h.maxValue / 1000 };
}
