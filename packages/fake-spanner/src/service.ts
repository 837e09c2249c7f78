import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import type { RpcKind } from '@scb/shared';
import type { Accounting } from './accounting';
import type { Behaviour } from './behaviour';
import { faultError, spannerError } from './faults';
import { StatementParamError, type StatementHandler, type StatementRegistry } from './statements';
import { spannerService } from './proto';
import { StoreError, type Mutation, type Store } from './store';
import { Transactions, type Transaction } from './transactions';
import { keysOf, mutationsOf, paramsOf, partialResultSet, resultSet, timestampNow } from './wire';

export interface ServiceContext {
  accounting: Accounting;
  behaviour: Behaviour;
  statements: StatementRegistry;
  store: Store;
}

type Selector = { singleUse?: object; id?: Buffer; begin?: { readWrite?: object; readOnly?: object } } | undefined;

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : undefined);

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
  const encodedReplies = new WeakMap<StatementHandler, Buffer>();
  const sessions = new Map<string, { name: string; multiplexed: boolean; createTime: object }>();

  /** Accounting, server time, injected faults and server-timing around every RPC. */
  async function serve(call: grpc.ServerUnaryCall<any, any> | grpc.ServerWritableStream<any, any>, method: string, kind: RpcKind, body: () => unknown) {
    const arrived = performance.now();
    const operation = operationOf(method, call.request);
    const end = accounting.begin(call.getPeer(), method, call.metadata.get('authorization').length > 0);
    call.on('cancelled', end);
    let delay = 0;
    try {
      delay = behaviour.latencyMs(kind);
      accounting.serverTime(kind, delay);
      await sleep(delay);
      const fault = behaviour.fault(kind);
      if (fault) {
        accounting.fault(kind, fault.code);
        throw faultError(fault.code, fault.retryDelayMs);
      }
      const res = body();
      const md = new grpc.Metadata();
      md.set('server-timing', `gfet4t7; dur=${Math.round(delay)}`);
      call.sendMetadata(md);
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
        return 'pointRead';
      case 'BeginTransaction':
        return req?.options?.readOnly ? 'readOnlyTxn' : 'readWriteTxn';
      case 'Commit':
      case 'Rollback':
      case 'ExecuteBatchDml':
        return 'readWriteTxn';
      default:
        return undefined;
    }
  }

  function unary(method: string, kind: RpcKind, body: (req: any) => unknown) {
    return (call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) => {
      serve(call, method, kind, () => body(call.request)).then(
        (r) => cb(null, r),
        (e) => cb(toServiceError(e)),
      );
    };
  }

  function streaming(method: string, kind: RpcKind, body: (req: any) => unknown[]) {
    return (call: grpc.ServerWritableStream<any, any>) => {
      serve(call, method, kind, () => body(call.request)).then(
        (parts) => {
          for (const p of parts as unknown[]) call.write(p);
          call.end();
        },
        (e) => call.emit('error', toServiceError(e)),
      );
    };
  }

  function newSession(database: string, multiplexed: boolean) {
    const s = { name: `${database}/sessions/${randomBytes(9).toString('base64url')}`, multiplexed, createTime: timestampNow() };
    sessions.set(s.name, s);
    accounting.sessionCreated();
    return s;
  }

  /** The transaction a request runs in: single-use (undefined), an open one, or one begun now. */
  function transactionFor(session: string, selector: Selector): { txn?: Transaction; begun?: object } {
    if (selector?.begin) {
      const txn = transactions.begin(session, selector.begin);
      return { txn, begun: { id: txn.id, ...(txn.readWrite ? {} : { readTimestamp: timestampNow() }) } };
    }
    if (selector?.id?.length) {
      const txn = transactions.get(selector.id);
      if (!txn) throw spannerError(grpc.status.NOT_FOUND, 'Transaction not found');
      return { txn };
    }
    return {};
  }

  /** Runs one SQL statement; DML is buffered in its read-write transaction until commit. */
  function execute(req: any): { columns: any[]; rows: any[]; begun?: object; stats?: object; fixed?: StatementHandler } {
    const handler = ctx.statements.get(req.sql ?? '');
    if (!handler) throw spannerError(grpc.status.INVALID_ARGUMENT, `fake-spanner: unknown statement: ${req.sql}`);
    const { txn, begun } = transactionFor(req.session, req.transaction);
    const out = handler(paramsOf(req.params), ctx.store);
    if (out.kind === 'rows') return { columns: out.columns, rows: out.rows, begun, fixed: !begun && ctx.statements.isFixed(handler) ? handler : undefined };
    if (!txn?.readWrite) throw spannerError(grpc.status.INVALID_ARGUMENT, 'DML statements can only be performed in a read-write transaction');
    txn.buffered.push(...out.mutations);
    return { columns: [], rows: [], begun, stats: { rowCountExact: String(out.rowCount) } };
  }

  function read(req: any) {
    const { begun } = transactionFor(req.session, req.transaction);
    const r = ctx.store.read(req.table, req.columns ?? [], keysOf(req.keySet), Number(req.limit ?? 0));
    return { ...r, begun };
  }

  function commit(req: any) {
    const mutations = mutationsOf(req.mutations);
    let all = mutations;
    if (req.transactionId?.length) {
      const txn = transactions.get(req.transactionId);
      if (!txn) throw spannerError(grpc.status.NOT_FOUND, 'Transaction not found');
      transactions.end(txn);
      all = [...txn.buffered, ...mutations];
    }
    const commitTimestamp = timestampNow();
    ctx.store.apply(withCommitTimestamp(all, commitTimestamp));
    return { commitTimestamp, ...(req.returnCommitStats ? { commitStats: { mutationCount: String(mutations.length) } } : {}) };
  }

  return {
    CreateSession: unary('CreateSession', 'session', (req) => newSession(req.database, Boolean(req.session?.multiplexed))),
    BatchCreateSessions: unary('BatchCreateSessions', 'session', (req) => ({
      session: Array.from({ length: Math.max(1, Number(req.sessionCount ?? 1)) }, () => newSession(req.database, false)),
    })),
    GetSession: unary('GetSession', 'session', (req) => {
      const s = sessions.get(req.name);
      if (!s) throw spannerError(grpc.status.NOT_FOUND, `Session not found: ${req.name}`);
      return s;
    }),
    ListSessions: unary('ListSessions', 'session', (req) => ({ sessions: [...sessions.values()].filter((s) => s.name.startsWith(`${req.database}/`)) })),
    DeleteSession: unary('DeleteSession', 'session', (req) => {
      sessions.delete(req.name);
      return {};
    }),
    ExecuteSql: unary('ExecuteSql', 'query', (req) => {
      const r = execute(req);
      return { ...resultSet(r.columns, r.rows, r.begun), ...(r.stats ? { stats: r.stats } : {}) };
    }),
    ExecuteStreamingSql: streaming('ExecuteStreamingSql', 'query', (req) => {
      const r = execute(req);
      if (r.fixed) {
        let bytes = encodedReplies.get(r.fixed);
        if (!bytes) encodedReplies.set(r.fixed, (bytes = partialResultSetBytes(partialResultSet(r.columns, r.rows))));
        return [bytes];
      }
      return [partialResultSet(r.columns, r.rows, r.begun, r.stats)];
    }),
    ExecuteBatchDml: unary('ExecuteBatchDml', 'batchDml', (req) => {
      let selector = req.transaction;
      const resultSets = (req.statements ?? []).map((s: any) => {
        const r = execute({ session: req.session, transaction: selector, sql: s.sql, params: s.params });
        // Statements after one that began the transaction run in it.
        if (r.begun) selector = { id: (r.begun as { id: Buffer }).id };
        return { metadata: { rowType: { fields: [] }, ...(r.begun ? { transaction: r.begun } : {}) }, stats: r.stats };
      });
      return { resultSets, status: { code: 0 } };
    }),
    Read: unary('Read', 'read', (req) => {
      const r = read(req);
      return resultSet(r.columns, r.rows, r.begun);
    }),
    StreamingRead: streaming('StreamingRead', 'read', (req) => {
      const r = read(req);
      return [partialResultSet(r.columns, r.rows, r.begun)];
    }),
    BeginTransaction: unary('BeginTransaction', 'begin', (req) => {
      const txn = transactions.begin(req.session, req.options);
      return { id: txn.id, ...(txn.readWrite ? {} : { readTimestamp: timestampNow() }) };
    }),
    Commit: unary('Commit', 'commit', commit),
    Rollback: unary('Rollback', 'rollback', (req) => {
      const txn = transactions.get(req.transactionId);
      if (txn) transactions.end(txn);
      return {};
    }),
  };
}

/** Spanner writes the commit's own time where a client wrote the placeholder (Value.COMMIT_TIMESTAMP). */
export const COMMIT_TIMESTAMP_PLACEHOLDER = 'spanner.commit_timestamp()';

function withCommitTimestamp(mutations: Mutation[], ts: { seconds: string; nanos: number }): Mutation[] {
  // Microseconds kept: two commits of one millisecond write different keys.
  const iso = `${new Date(Number(ts.seconds) * 1000).toISOString().slice(0, 19)}.${String(ts.nanos).padStart(9, '0').slice(0, 6)}Z`;
  const fill = (v: unknown) => (typeof v === 'string' && v.toLowerCase() === COMMIT_TIMESTAMP_PLACEHOLDER ? iso : v);
  return mutations.map((m) => ({ ...m, values: m.values.map((row) => row.map(fill) as typeof row) }));
}

function partialResultSetBytes(message: object): Buffer {
  return spannerService().ExecuteStreamingSql.responseSerialize(message) as Buffer;
}
