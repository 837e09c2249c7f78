// Client-side channel accounting: per gRPC channel the client opens (each one HTTP/2 connection to a
// single address), the RPCs it started and the most in flight at once. This is what a TLS target,
// where no tap can read the streams, still tells about the spread over connections.
import { onEveryCall, type GrpcJs } from './calls';

export interface ClientChannelCount {
  channel: number;
  rpcs: number;
  peakInFlight: number;
}

/**
 * Counts every call made on any channel of this grpc-js (the client's own and grpc-gcp's pool alike)
 * from here on; returns the counts so far, channels in the order of their first call.
 */
export function countChannels(grpc: GrpcJs): () => ClientChannelCount[] {
  const counts = new Map<object, ClientChannelCount & { inFlight: number }>();
  onEveryCall(grpc, (channel) => {
    let c = counts.get(channel);
    if (!c) counts.set(channel, (c = { channel: counts.size, rpcs: 0, inFlight: 0, peakInFlight: 0 }));
    const count = c;
    let done = false;
    return {
      onStart() {
        count.rpcs++;
        count.peakInFlight = Math.max(count.peakInFlight, ++count.inFlight);
      },
      onReceiveStatus() {
        if (!done) {
          done = true;
          count.inFlight--;
        }
      },
    };
  });
  return () => [...counts.values()].map(({ channel, rpcs, peakInFlight }) => ({ channel, rpcs, peakInFlight }));
}
