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

/** The columns pointRead reads from Players by key. */
export const PLAYER_COLUMNS = ['PlayerId', 'PlayerName'] as const;

/** The leaderboard's schema. */
export const LEADERBOARD_DDL = [
  'CREATE TABLE Players (PlayerId INT64 NOT NULL, PlayerName STRING(MAX)) PRIMARY KEY (PlayerId)',
  'CREATE TABLE Scores (PlayerId INT64 NOT NULL, Timestamp TIMESTAMP NOT NULL OPTIONS (allow_commit_timestamp=true), Score INT64) PRIMARY KEY (PlayerId, Timestamp)',
] as const;
