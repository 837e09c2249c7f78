// The benchmark's data and statements, defined once: the fake answers these texts, the emulator is
// provisioned with this schema, and every driver sends the same statements (the Node driver imports
// them; the Java and Go drivers' copies are generated from this file by scripts/generate-contract.ts,
// and a unit test fails when they are stale).

/** PlayerIds the operations pick from, uniformly: the fake and the emulator seed Players 1..PLAYERS. */
export const PLAYERS = 1000;

/** The statements of the operation kinds, as every driver sends them. */
export const SQL = {
  /** select1: a single-use query. */
  select1: 'SELECT 1',
  /** readOnlyTxn: a player joined with their ten best scores (the session pool case study's leaderboard). */
  leaderboard: 'SELECT * FROM Players p JOIN Scores s ON p.PlayerId = s.PlayerId WHERE p.PlayerId = @Id ORDER BY s.Score DESC LIMIT 10',
  /** readWriteTxn: reads the player... */
  player: 'SELECT PlayerId, PlayerName FROM Players WHERE PlayerId = @playerId',
  /** ...and inserts a score stamped with the commit's time. */
  insertScore: 'INSERT INTO Scores (PlayerId, Timestamp, Score) VALUES (@playerId, PENDING_COMMIT_TIMESTAMP(), @score)',
} as const;

/**
 * How each operation kind reaches the server, by which the fake attributes every RPC to an operation:
 * the statements it runs (keys of SQL), whether it reads a row by key (Read, StreamingRead), and the
 * transaction it runs in (a BeginTransaction's options; Commit, Rollback and batch DML belong to a
 * read-write one).
 */
export const OPERATION_RPCS = {
  select1: { statements: ['select1'], readsByKey: false, transaction: 'single-use' },
  readOnlyTxn: { statements: ['leaderboard'], readsByKey: false, transaction: 'read-only' },
  readWriteTxn: { statements: ['player', 'insertScore'], readsByKey: false, transaction: 'read-write' },
  pointRead: { statements: [], readsByKey: true, transaction: 'single-use' },
  // Its query is the result set's (result-set/shape.ts resultSetSql); the fake attributes it by that text.
  scan: { statements: [], readsByKey: false, transaction: 'single-use' },
} as const satisfies Record<string, { statements: readonly (keyof typeof SQL)[]; readsByKey: boolean; transaction: 'single-use' | 'read-only' | 'read-write' }>;

type OperationRpcs = (typeof OPERATION_RPCS)[keyof typeof OPERATION_RPCS];
const operationWhere = (f: (o: OperationRpcs) => boolean): string | undefined => Object.entries(OPERATION_RPCS).find(([, o]) => f(o))?.[0];

/** The operation that runs the statement (a key of SQL); undefined for one no operation runs. */
export function operationRunning(statement: keyof typeof SQL): string | undefined {
  return operationWhere((o) => (o.statements as readonly string[]).includes(statement));
}

/** The operation that reads rows by key. */
export function operationReadingByKey(): string | undefined {
  return operationWhere((o) => o.readsByKey);
}

/** The operation whose transaction is of this kind (a read-only or read-write BeginTransaction, a Commit). */
export function operationInTransaction(kind: 'read-only' | 'read-write'): string | undefined {
  return operationWhere((o) => o.transaction === kind);
}

/** The columns pointRead reads from Players by key. */
export const PLAYER_COLUMNS = ['PlayerId', 'PlayerName'] as const;

/** The leaderboard's schema. */
export const LEADERBOARD_DDL = [
  'CREATE TABLE Players (PlayerId INT64 NOT NULL, PlayerName STRING(MAX)) PRIMARY KEY (PlayerId)',
  'CREATE TABLE Scores (PlayerId INT64 NOT NULL, Timestamp TIMESTAMP NOT NULL OPTIONS (allow_commit_timestamp=true), Score INT64) PRIMARY KEY (PlayerId, Timestamp)',
] as const;
