// The frame of every RPC of the fake (accounting, server time, injected faults, the server-timing
// header, the operation the RPC belongs to) around the handlers of each RPC group in rpc/.
import * as grpc from '@grpc/grpc-js';
import type { RpcKind } from '@scb/shared';
import { operationInTransaction, operationReadingByKey } from '@scb/shared/catalogue';
import { faultError, headersBefore, spannerError } from './faults';
import { dataRpcs } from './rpc/data';
import type { Frame, ServiceContext } from './rpc/frame';
import { sessionRpcs } from './rpc/sessions';
import { transactionRpcs } from './rpc/transactions';
import { StatementParamError } from './statements';
import { StoreError } from './store';
import { checkToken } from './tokens';
import { Transactions } from './transactions';

export type { ServiceContext } from './rpc/frame';

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : undefined);

/** Response headers with the time the fake applied, as Spanner's front end reports its own. */
function serverTiming(delayMs: number): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set('server-timing', `gfet4t7; dur=${Math.round(delayMs)}`);
  return md;
}

function toServiceError(e: unknown): grpc.ServiceError {
  if ((e as grpc.ServiceError).code !== undefined && (e as grpc.ServiceError).metadata) return e as grpc.ServiceError;
  if (e instanceof StoreError) return spannerError(grpc.status[e.code], e.message);
  if (e instanceof StatementParamError) return spannerError(grpc.status.INVALID_ARGUMENT, e.message);
  return spannerError(grpc.status.INTERNAL, `fake-spanner: ${(e as Error).message}`);
}

/** Handlers of google.spanner.v1.Spanner over the store, the statement registry and the behaviour. */
export function spannerHandlers(ctx: ServiceContext): grpc.UntypedServiceImplementation {
  const { accounting, behaviour } = ctx;
  const transactions = new Transactions();

  /** Accounting, server time, injected faults and server-timing around every RPC. */
  async function serve(call: grpc.ServerUnaryCall<any, any> | grpc.ServerWritableStream<any, any>, method: string, kind: RpcKind, body: () => unknown) {
    const arrived = performance.now();
    const operation = operationOf(method, call.request);
    const end = accounting.begin(call.getPeer(), method, call.metadata.get('authorization').length > 0);
    call.on('cancelled', end);
    let delay = 0;
    try {
      // Credentials mode: refused at the front door, as Spanner's front end refuses a bad token.
      if (ctx.tokenSecret !== undefined) {
        const verdict = checkToken(ctx.tokenSecret, call.metadata.get('authorization')[0]?.toString());
        accounting.token(verdict);
        if (verdict !== 'valid') throw spannerError(grpc.status.UNAUTHENTICATED, `Request had invalid authentication credentials: the access token is ${verdict}`);
      }
      delay = behaviour.latencyMs(kind);
      accounting.serverTime(kind, delay);
      await sleep(delay);
      const fault = behaviour.fault(kind);
      if (fault) {
        accounting.fault(kind, fault.code);
        if (headersBefore(fault)) call.sendMetadata(serverTiming(delay));
        throw faultError(fault);
      }
      const res = body();
      call.sendMetadata(serverTiming(delay));
      return res;
    } finally {
      const took = performance.now() - arrived;
      accounting.addedTime(took - delay);
      if (operation) accounting.operationTime(operation, took);
      end();
    }
  }

  /**
   * The benchmark operation an RPC belongs to (spec OPERATIONS), for the server's side of the
   * client/server latency split: queries by their statement, reads are pointRead, a transaction's
   * begin by its mode, commits and rollbacks are readWriteTxn. Session RPCs belong to none.
   */
  function operationOf(method: string, req: any): string | undefined {
    switch (method) {
      case 'ExecuteSql':
      case 'ExecuteStreamingSql':
        return ctx.statements.operationOf(req?.sql ?? '');
      case 'Read':
      case 'StreamingRead':
        return operationReadingByKey();
      case 'BeginTransaction':
        return operationInTransaction(req?.options?.readOnly ? 'read-only' : 'read-write');
      case 'Commit':
      case 'Rollback':
      case 'ExecuteBatchDml':
        return operationInTransaction('read-write');
      default:
        return undefined;
    }
  }

  function unary(method: string, kind: RpcKind | ((req: any) => RpcKind), body: (req: any) => unknown) {
    return (call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) => {
      serve(call, method, typeof kind === 'function' ? kind(call.request) : kind, () => body(call.request)).then(
        (r) => cb(null, r),
        (e) => cb(toServiceError(e)),
      );
    };
  }

  function streaming(method: string, kind: RpcKind, body: (req: any) => unknown[]) {
    return (call: grpc.ServerWritableStream<any, any>) => {
      serve(call, method, kind, () => body(call.request)).then(
        async (parts) => {
          for (const p of parts as unknown[]) call.write(p);
          // The last part said `last`: the trailers follow later (holdTrailersMs), as a slow front end's may.
          const hold = (behaviour.settings.holdTrailersMs ?? 0) * behaviour.settings.timeScale;
          if (hold > 0) await sleep(hold);
          call.end();
        },
        (e) => call.emit('error', toServiceError(e)),
      );
    };
  }

  const frame: Frame = { ctx, transactions, unary, streaming };
  return Object.assign({}, ...[sessionRpcs, dataRpcs, transactionRpcs].map((group) => group(frame)));
}
