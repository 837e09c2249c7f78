// The client/server latency split of one operation kind: what the client saw of an operation beside
// the server's time for the RPCs it took. The gap is the client's own time (queueing for a session or
// a stream, backoff, reconnects), the signature of the problems users bring.
import type { OperationSummary } from '../stored';

export interface LatencySplit {
  /** The server's time per operation, estimated as RPCs per operation x its time per RPC. */
  serverP50Ms: number;
  serverP99Ms: number;
  /** Client p50 minus the server's p50 per operation: time spent in the client, not the server. */
  gapP50Ms: number;
  /** The share of the client's p50 that the server does not account for (0..1). */
  gapShare: number;
}

/** The split where the server's side is known: the target's accounting, else the server-timing header; null otherwise. */
export function latencySplit(o: Pick<OperationSummary, 'p50Ms' | 'server' | 'serverTiming'>): LatencySplit | null {
  const server = o.server ?? o.serverTiming;
  if (!server) return null;
  const serverP50Ms = server.rpcsPerOp * server.p50Ms;
  const gapP50Ms = Math.max(0, o.p50Ms - serverP50Ms);
  return { serverP50Ms, serverP99Ms: server.rpcsPerOp * server.p99Ms, gapP50Ms, gapShare: o.p50Ms > 0 ? gapP50Ms / o.p50Ms : 0 };
}
