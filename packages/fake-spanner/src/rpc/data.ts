// Data RPCs: SQL (unary, streaming and batch DML) through the statement registry, and reads of the
// store by key. A fixed statement's streamed answer is encoded once and sent as bytes.
import * as grpc from '@grpc/grpc-js';
import { spannerError } from '../faults';
import { spannerService } from '../proto';
import type { StatementHandler } from '../statements';
import { keysOf, paramsOf, partialResultSet, resultSet } from '../wire';
import type { Frame, RpcGroup } from './frame';
import { transactionFor } from './transactions';

export const dataRpcs: RpcGroup = (frame) => {
  const { unary, streaming } = frame;
  const execute = executor(frame);
  const encodedReplies = new WeakMap<StatementHandler, Buffer>();
  const holdingTrailers = () => (frame.ctx.behaviour.settings.holdTrailersMs ?? 0) > 0;
  const read = (req: any) => {
    const { begun } = transactionFor(frame.transactions, req.session, req.transaction);
    const r = frame.ctx.store.read(req.table, req.columns ?? [], keysOf(req.keySet), Number(req.limit ?? 0));
    return { ...r, begun };
  };
  return {
    ExecuteSql: unary('ExecuteSql', 'query', (req) => {
      const r = execute(req);
      return { ...resultSet(r.columns, r.rows, r.begun), ...(r.stats ? { stats: r.stats } : {}) };
    }),
    ExecuteStreamingSql: streaming('ExecuteStreamingSql', 'query', (req) => {
      const scan = frame.ctx.resultSets.answer(req.sql ?? '');
      if (scan) {
        const { begun } = transactionFor(frame.transactions, req.session, req.transaction);
        if (!begun) return scan.encoded;
        const [first, ...rest] = scan.parts as { metadata: object }[];
        return [{ ...first, metadata: { ...first!.metadata, transaction: begun } }, ...scan.encoded.slice(1)];
      }
      const r = execute(req);
      if (holdingTrailers()) return [partialResultSet(r.columns, r.rows, r.begun, r.stats, true)];
      if (r.fixed) {
        let bytes = encodedReplies.get(r.fixed);
        if (!bytes) encodedReplies.set(r.fixed, (bytes = spannerService().ExecuteStreamingSql.responseSerialize(partialResultSet(r.columns, r.rows)) as Buffer));
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
      return [partialResultSet(r.columns, r.rows, r.begun, undefined, holdingTrailers())];
    }),
  };
};

/** Runs one SQL statement; DML is buffered in its read-write transaction until commit. */
function executor({ ctx, transactions }: Frame) {
  return (req: any): { columns: any[]; rows: any[]; begun?: object; stats?: object; fixed?: StatementHandler } => {
    const handler = ctx.statements.get(req.sql ?? '');
    if (!handler) throw spannerError(grpc.status.INVALID_ARGUMENT, `fake-spanner: unknown statement: ${req.sql}`);
    const { txn, begun } = transactionFor(transactions, req.session, req.transaction);
    const out = handler(paramsOf(req.params), ctx.store);
    if (out.kind === 'rows') return { columns: out.columns, rows: out.rows, begun, fixed: !begun && ctx.statements.isFixed(handler) ? handler : undefined };
    if (!txn?.readWrite) throw spannerError(grpc.status.INVALID_ARGUMENT, 'DML statements can only be performed in a read-write transaction');
    txn.buffered.push(...out.mutations);
    return { columns: [], rows: [], begun, stats: { rowCountExact: String(out.rowCount) } };
  };
}
