// Transaction RPCs, and the transaction a data request runs in: read-write transactions buffer their
// DML until commit, which applies it with the commit's own timestamp.
import * as grpc from '@grpc/grpc-js';
import { spannerError } from '../faults';
import type { Mutation } from '../store';
import type { Transaction, Transactions } from '../transactions';
import { mutationsOf, timestampNow } from '../wire';
import type { RpcGroup } from './frame';

export type Selector = { singleUse?: object; id?: Buffer; begin?: { readWrite?: object; readOnly?: object } } | undefined;

/** The transaction a request runs in: single-use (undefined), an open one, or one begun now. */
export function transactionFor(transactions: Transactions, session: string, selector: Selector): { txn?: Transaction; begun?: object } {
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

export const transactionRpcs: RpcGroup = ({ ctx, transactions, unary }) => ({
  BeginTransaction: unary('BeginTransaction', 'begin', (req) => {
    const txn = transactions.begin(req.session, req.options);
    return { id: txn.id, ...(txn.readWrite ? {} : { readTimestamp: timestampNow() }) };
  }),
  Commit: unary('Commit', 'commit', (req) => {
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
  }),
  Rollback: unary('Rollback', 'rollback', (req) => {
    const txn = transactions.get(req.transactionId);
    if (txn) transactions.end(txn);
    return {};
  }),
});

/** Spanner writes the commit's own time where a client wrote the placeholder (Value.COMMIT_TIMESTAMP). */
export const COMMIT_TIMESTAMP_PLACEHOLDER = 'spanner.commit_timestamp()';

function withCommitTimestamp(mutations: Mutation[], ts: { seconds: string; nanos: number }): Mutation[] {
  // Microseconds kept: two commits of one millisecond write different keys.
  const iso = `${new Date(Number(ts.seconds) * 1000).toISOString().slice(0, 19)}.${String(ts.nanos).padStart(9, '0').slice(0, 6)}Z`;
  const fill = (v: unknown) => (typeof v === 'string' && v.toLowerCase() === COMMIT_TIMESTAMP_PLACEHOLDER ? iso : v);
  return mutations.map((m) => ({ ...m, values: m.values.map((row) => row.map(fill) as typeof row) }));
}
