import type { OperationKind } from '@scb/shared/protocol';

export type Operation = () => Promise<unknown>;

/** How each operation kind of the protocol runs on a @google-cloud/spanner Database; one entry per kind. */
export const OPERATIONS: Record<OperationKind, (database: any) => Operation> = {
  select1: (database) => () => database.run({ sql: 'SELECT 1' }),
};
