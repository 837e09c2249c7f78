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

/** A column of the leaderboard: its Spanner type; `commitTimestamp` where a write sets it to the commit's time. */
export interface LeaderboardColumn {
  name: string;
  type: 'INT64' | 'STRING' | 'TIMESTAMP';
  notNull?: boolean;
  commitTimestamp?: boolean;
}

/** A table of the leaderboard: its columns, the key's first (`keyLength` of them). */
export interface LeaderboardTable {
  name: string;
  columns: readonly LeaderboardColumn[];
  keyLength: number;
}

/**
 * The leaderboard's schema, once: the emulator's database is created from its DDL (LEADERBOARD_DDL), the
 * fake's store from the tables themselves (packages/fake-spanner/src/store.ts, leaderboardStore).
 */
export const LEADERBOARD_TABLES: readonly LeaderboardTable[] = [
  {
    name: 'Players',
    columns: [
      { name: 'PlayerId', type: 'INT64', notNull: true },
      { name: 'PlayerName', type: 'STRING' },
    ],
    keyLength: 1,
  },
  {
    name: 'Scores',
    columns: [
      { name: 'PlayerId', type: 'INT64', notNull: true },
      { name: 'Timestamp', type: 'TIMESTAMP', notNull: true, commitTimestamp: true },
      { name: 'Score', type: 'INT64' },
    ],
    keyLength: 2,
  },
];

function columnDdl(c: LeaderboardColumn): string {
  return [c.name, c.type === 'STRING' ? 'STRING(MAX)' : c.type, c.notNull ? 'NOT NULL' : '', c.commitTimestamp ? 'OPTIONS (allow_commit_timestamp=true)' : ''].filter(Boolean).join(' ');
}

/** The leaderboard's schema as Spanner's DDL. */
export const LEADERBOARD_DDL: readonly string[] = LEADERBOARD_TABLES.map(
  (t) =>
    `CREATE TABLE ${t.name} (${t.columns.map(columnDdl).join(', ')}) PRIMARY KEY (${t.columns
      .slice(0, t.keyLength)
      .map((c) => c.name)
      .join(', ')})`,
);
