// The server-timing response header ("gfet4t7; dur=N", N ms: Cloud Spanner's front end sends it, and
// so does the fake) of every RPC an operation makes, counted for that operation's kind. A call belongs
// to the kind whose async context created it (AsyncLocalStorage); calls outside any operation
// (the client's start) are not counted. Session creation an operation waits for counts for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OperationKind } from '@scb/shared/protocol';

const running = new AsyncLocalStorage<OperationKind>();
const GFE = /gfet4t7;\s*dur=([0-9.]+)/;
type Sink = (kind: OperationKind, us: number) => void;
let sink: Sink | undefined;

/** Runs one operation of `kind`: its RPCs' server timings count for that kind. */
export function runAs<T>(kind: OperationKind, op: () => Promise<T>): Promise<T> {
  return running.run(kind, op);
}

/** Where durations go from now on: the running phase's recorder. */
export function timingSink(s: Sink | undefined): void {
  sink = s;
}

interface Metadata {
  get(key: string): unknown[];
}
interface Listener {
  onReceiveMetadata(metadata: Metadata): void;
}
interface Call {
  start(metadata: unknown, listener: Listener): void;
}
type ChannelPrototype = { createCall(...args: unknown[]): Call };

/** Reads the header of every call on any channel of this grpc-js (the client's and grpc-gcp's alike). */
export function readServerTiming(grpc: { Channel: { prototype: ChannelPrototype } }): void {
  const proto = grpc.Channel.prototype;
  const createCall = proto.createCall;
  proto.createCall = function (this: object, ...args: unknown[]) {
    const call = createCall.apply(this, args);
    const kind = running.getStore();
    if (kind === undefined) return call;
    const start = call.start;
    call.start = function (this: Call, metadata, listener) {
      const wrapped = Object.create(listener) as Listener;
      wrapped.onReceiveMetadata = function (received) {
        const header = received.get('server-timing')[0];
        const m = typeof header === 'string' ? GFE.exec(header) : null;
        if (m && sink) sink(kind, Math.max(1, Math.round(Number(m[1]) * 1000)));
        listener.onReceiveMetadata.call(this, received);
      };
      start.call(this, metadata, wrapped);
    };
    return call;
  };
}
