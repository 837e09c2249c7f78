import { randomBytes } from 'node:crypto';
import type { Mutation } from './store';

export interface Transaction {
  id: Buffer;
  session: string;
  readWrite: boolean;
  /** DML effects, applied with the commit's own mutations. */
  buffered: Mutation[];
}

/** Open transactions by id; a commit or rollback ends them. */
export class Transactions {
  private readonly open = new Map<string, Transaction>();

  begin(session: string, options: { readWrite?: object; readOnly?: object; partitionedDml?: object } | undefined): Transaction {
    const t: Transaction = { id: randomBytes(12), session, readWrite: !options?.readOnly, buffered: [] };
    this.open.set(t.id.toString('hex'), t);
    return t;
  }

  get(id: Buffer | Uint8Array | undefined): Transaction | undefined {
    return id?.length ? this.open.get(Buffer.from(id).toString('hex')) : undefined;
  }

  end(t: Transaction): void {
    this.open.delete(t.id.toString('hex'));
  }

  get size(): number {
    return this.open.size;
  }
}
