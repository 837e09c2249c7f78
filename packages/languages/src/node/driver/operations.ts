import type { OperationKind } from '@scb/shared/protocol';
import { PLAYERS } from '@scb/shared/spec';

export type Operation = () => Promise<unknown>;

// The statements the fake knows by text (packages/fake-spanner/src/statements.ts); Java and Go send the same.
const LEADERBOARD = 'SELECT * FROM Players p JOIN Scores s ON p.PlayerId = s.PlayerId WHERE p.PlayerId = @Id ORDER BY s.Score DESC LIMIT 10';
const PLAYER = 'SELECT PlayerId, PlayerName FROM Players WHERE PlayerId = @playerId';
const INSERT_SCORE = 'INSERT INTO Scores (PlayerId, Timestamp, Score) VALUES (@playerId, PENDING_COMMIT_TIMESTAMP(), @score)';
const playerId = () => String(1 + Math.floor(Math.random() * PLAYERS));

/** How each operation kind of the protocol runs on a @google-cloud/spanner Database; one entry per kind. */
export const OPERATIONS: Record<OperationKind, (database: any) => Operation> = {
  select1: (database) => () => database.run({ sql: 'SELECT 1' }),
  // A read-only transaction (a snapshot) running the leaderboard query.
  readOnlyTxn: (database) => async () => {
    const [snapshot] = await database.getSnapshot();
    try {
      await snapshot.run({ sql: LEADERBOARD, params: { Id: playerId() }, types: { Id: 'int64' } });
    } finally {
      snapshot.end();
    }
  },
  // A read-write transaction: read the player (a streaming query, what an abort hits), insert a score
  // with the commit timestamp, commit. The client retries it whole when it is aborted.
  readWriteTxn: (database) => () =>
    database.runTransactionAsync(async (tx: any) => {
      const id = playerId();
      await tx.run({ sql: PLAYER, params: { playerId: id }, types: { playerId: 'int64' } });
      await tx.runUpdate({ sql: INSERT_SCORE, params: { playerId: id, score: String(Math.floor(Math.random() * 100_000)) }, types: { playerId: 'int64', score: 'int64' } });
      await tx.commit();
    }),
  // A single-use read of one Players row by key.
  pointRead: (database) => () => database.table('Players').read({ keys: [playerId()], columns: ['PlayerId', 'PlayerName'] }),
};
