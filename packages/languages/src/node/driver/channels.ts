// Client-side channel accounting: per gRPC channel the client opens (each one HTTP/2 connection to a
// single address), the RPCs it started and the most in flight at once. This is what a TLS target,
// where no tap can read the streams, still tells about the spread over connections.

export interface ClientChannelCount {
  channel: number;
  rpcs: number;
  peakInFlight: number;
}

interface Listener {
  onReceiveStatus(status: unknown): void;
}
interface Call {
  start(metadata: unknown, listener: Listener): void;
}
type ChannelPrototype = { createCall(...args: unknown[]): Call };

/**
 * Counts every call made on any channel of this grpc-js (the client's own and grpc-gcp's pool alike)
 * from here on; returns the counts so far, channels in the order of their first call.
 */
export function countChannels(grpc: { Channel: { prototype: ChannelPrototype } }): () => ClientChannelCount[] {
  const counts = new Map<object, ClientChannelCount & { inFlight: number }>();
  const proto = grpc.Channel.prototype;
  const createCall = proto.createCall;
  proto.createCall = function (this: object, ...args: unknown[]) {
    let c = counts.get(this);
    if (!c) counts.set(this, (c = { channel: counts.size, rpcs: 0, inFlight: 0, peakInFlight: 0 }));
    const count = c;
    const call = createCall.apply(this, args);
    const start = call.start;
    call.start = function (this: Call, metadata, listener) {
      count.rpcs++;
      count.peakInFlight = Math.max(count.peakInFlight, ++count.inFlight);
      let done = false;
      // A listener may keep state on itself: its methods keep running with the wrapper as `this`.
      const wrapped = Object.create(listener) as Listener;
      wrapped.onReceiveStatus = function (status) {
        if (!done) {
          done = true;
          count.inFlight--;
        }
        listener.onReceiveStatus.call(this, status);
      };
      start.call(this, metadata, wrapped);
    };
    return call;
  };
  return () => [...counts.values()].map(({ channel, rpcs, peakInFlight }) => ({ channel, rpcs, peakInFlight }));
}
