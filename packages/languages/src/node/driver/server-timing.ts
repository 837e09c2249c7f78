// The server-timing response header ("gfet4t7; dur=N", N ms: Cloud Spanner's front end sends it, and
// so does the fake) of every RPC an operation makes, counted for that operation's kind. A call belongs
// to the kind whose async context created it (AsyncLocalStorage); calls outside any operation
// (the client's start) are not counted. Session creation an operation waits for counts for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OperationKind } from '@scb/shared/protocol';
import { onEveryCall, type GrpcJs } from './calls';

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

/** Reads the header of every call an operation makes, on any channel of this grpc-js. */
export function readServerTiming(grpc: GrpcJs): void {
  onEveryCall(grpc, () => {
    const kind = running.getStore();
    if (kind === undefined) return undefined;
    return {
      onReceiveMetadata(received) {
        const header = received.get('server-timing')[0];
        const m = typeof header === 'string' ? GFE.exec(header) : null;
        if (m && sink) sink(kind, Math.max(1, Math.round(Number(m[1]) * 1000)));
      },
    };
  });
}
