import type { DriverCell, OperationKind } from '@scb/shared/protocol';
import { PLAYER_COLUMNS, PLAYERS, SQL } from '@scb/shared/catalogue';
import { scan } from './scan';

export type Operation = () => Promise<unknown>;

const playerId = () => String(1 + Math.floor(Math.random() * PLAYERS));

/** How each operation kind of the protocol runs on a @google-cloud/spanner Database; one entry per kind. */
export const OPERATIONS: Record<OperationKind, (database: any, cell: DriverCell) => Operation> = {
  select1: (database) => () => database.run({ sql: SQL.select1 }),
  // A read-only transaction (a snapshot) running the leaderboard query.
  readOnlyTxn: (database) => async () => {
    const [snapshot] = await database.getSnapshot();
    try {
      await snapshot.run({ sql: SQL.leaderboard, params: { Id: playerId() }, types: { Id: 'int64' } });
    } finally {
      snapshot.end();
    }
  },
  // A read-write transaction: read the player (a streaming query, what an abort hits), insert a score
  // with the commit timestamp, commit. The client retries it whole when it is aborted.
  readWriteTxn: (database) => () =>
    database.runTransactionAsync(async (tx: any) => {
      const id = playerId();
      await tx.run({ sql: SQL.player, params: { playerId: id }, types: { playerId: 'int64' } });
      await tx.runUpdate({ sql: SQL.insertScore, params: { playerId: id, score: String(Math.floor(Math.random() * 100_000)) }, types: { playerId: 'int64', score: 'int64' } });
      await tx.commit();
    }),
  // A single-use read of one Players row by key.
  pointRead: (database) => () => database.table('Players').read({ keys: [playerId()], columns: [...PLAYER_COLUMNS] }),
  // A single-use query of the workload's result set, its values decoded and checked (scan.ts).
  scan: (database, cell) => {
    if (!cell.resultSet) throw new Error("scan needs the cell's resultSet");
    return scan(database, cell.resultSet, cell.configuration.nodeRows, cell.configuration.nodeScan);
  },
};
