// What every handler group of the fake is given: the context, the open transactions, and the frame
// that wraps a handler's body into a gRPC handler (accounting, server time, faults, server-timing).
import type * as grpc from '@grpc/grpc-js';
import type { RpcKind } from '@scb/shared';
import type { Accounting } from '../accounting';
import type { Behaviour } from '../behaviour';
import type { StatementRegistry } from '../statements';
import type { Store } from '../store';
import type { ResultSets } from '../result-sets';
import type { Transactions } from '../transactions';

export interface ServiceContext {
  accounting: Accounting;
  behaviour: Behaviour;
  statements: StatementRegistry;
  store: Store;
  /** The scan results, by query. */
  resultSets: ResultSets;
  /** Credentials mode: every RPC must carry a bearer token issued under this secret (tokens.ts). */
  tokenSecret?: string;
}

export interface Frame {
  ctx: ServiceContext;
  transactions: Transactions;
  /** `kind` may depend on the request (a CreateSession asking for a multiplexed session). */
  unary(method: string, kind: RpcKind | ((req: any) => RpcKind), body: (req: any) => unknown): grpc.handleUnaryCall<any, any>;
  streaming(method: string, kind: RpcKind, body: (req: any) => unknown[]): grpc.handleServerStreamingCall<any, any>;
}

/** A group of RPCs of google.spanner.v1.Spanner: their handlers by method name. */
export type RpcGroup = (frame: Frame) => grpc.UntypedServiceImplementation;
