// Names the specs and the modules they use share, apart so that those modules need not import the spec.

/** Plain semver only (no ranges, tags, paths or URLs): it ends up in an npm/Maven command line. */
export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z]+(\.[0-9A-Za-z]+)*)?$/;

/**
 * What an agent runs, on the leaderboard schema of the session pool case study (Players, Scores; a
 * random PlayerId of 1..1000): `select1` a single-use `SELECT 1`; `readOnlyTxn` a read-only transaction
 * running the leaderboard query; `readWriteTxn` a read-write transaction inserting a score with the
 * commit timestamp, then committing; `pointRead` a single-use read of one Players row by key; `scan` a
 * single-use query whose result has the shape of the workload's `resultSet`, decoded and checked.
 */
export const OPERATIONS = ['select1', 'readOnlyTxn', 'readWriteTxn', 'pointRead', 'scan'] as const;
export type Operation = (typeof OPERATIONS)[number];
