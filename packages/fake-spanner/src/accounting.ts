/** What the fake saw on one client HTTP/2 connection (one gRPC peer). */
export interface ConnectionStat {
  connection: number;
  peer: string;
  firstSeenMs: number;
  rpcs: number;
  rpcsByMethod: Record<string, number>;
  inFlight: number;
  peakInFlight: number;
}

export interface FakeStats {
  since: number;
  totalRpcs: number;
  rpcsByMethod: Record<string, number>;
  connections: ConnectionStat[];
}

/** Per-connection counters: RPCs, in-flight and peak in-flight, keyed by the call's peer address. */
export class Accounting {
  private byPeer = new Map<string, ConnectionStat>();
  private rpcsByMethod: Record<string, number> = {};
  private totalRpcs = 0;
  private since = Date.now();

  /** Call when an RPC starts; the returned function ends it (idempotent). */
  begin(peer: string, method: string): () => void {
    let c = this.byPeer.get(peer);
    if (!c) {
      c = { connection: this.byPeer.size, peer, firstSeenMs: Date.now() - this.since, rpcs: 0, rpcsByMethod: {}, inFlight: 0, peakInFlight: 0 };
      this.byPeer.set(peer, c);
    }
    const conn = c;
    conn.rpcs++;
    conn.rpcsByMethod[method] = (conn.rpcsByMethod[method] ?? 0) + 1;
    this.rpcsByMethod[method] = (this.rpcsByMethod[method] ?? 0) + 1;
    this.totalRpcs++;
    conn.inFlight++;
    if (conn.inFlight > conn.peakInFlight) conn.peakInFlight = conn.inFlight;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      conn.inFlight--;
    };
  }

  snapshot(): FakeStats {
    return {
      since: this.since,
      totalRpcs: this.totalRpcs,
      rpcsByMethod: { ...this.rpcsByMethod },
      connections: [...this.byPeer.values()].map((c) => ({ ...c, rpcsByMethod: { ...c.rpcsByMethod } })),
    };
  }

  /** Forgets everything; connections seen again later are numbered anew. */
  reset(): void {
    this.byPeer = new Map();
    this.rpcsByMethod = {};
    this.totalRpcs = 0;
    this.since = Date.now();
  }
}
