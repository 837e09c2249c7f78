import type { OperationKind } from '@scb/shared/protocol';

export type Operation = () => Promise<unknown>;

/** How each operation kind of the protocol runs on a @google-cloud/spanner Database; one entry per kind. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the client is loaded per version at run time
export const OPERATIONS: Record<OperationKind, (database: any) => Operation> = {
  select1: (database) => () => database.run({ sql: 'SELECT 1' }),
};
