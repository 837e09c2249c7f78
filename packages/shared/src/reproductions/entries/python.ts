// Python client changes: decoding a result's values (python-spanner PR #1244, the work the client does per
// value while the application iterates the rows), and a session pool that fails from 3.64.0 on.
import { COLUMN_TYPES } from '../../result-set/shape';
import type { Reproduction } from '../reproduction';

/**
 * Every column type both versions decode (11 scalars and their arrays: UUID came in 3.62.0), 100 rows:
 * near the shape of python-spanner PR #1244's own measurement (100 rows, 24 columns).
 */
const WIDE_100 = { rows: 100, columns: COLUMN_TYPES.filter((type) => !type.includes('UUID')).map((type) => ({ type })), read: 'none' as const };

export const PYTHON_BUGS: Reproduction[] = [
  {
    id: 'python-resultset-decoding',
    title: 'Python before 3.51.0: decoding a wide result (100 rows, 22 columns) takes about twice as long',
    language: 'python',
    links: [{ label: 'python-spanner PR #1244', url: 'https://github.com/googleapis/python-spanner/pull/1244' }],
    affected: '3.50.1 and before',
    fixed: '3.51.0 ("Optimize ResultSet decoding": a decoder per column, chosen once per result, instead of a type switch per value)',
    fixedVersion: '3.51.0',
    versionsNote:
      "The PR measured a 100-row, 24-column result going from 35-40 ms to 15-20 ms. The entry reads no column in the application (read: none), so the time is the client's own decoding while it hands the rows over.",
    trigger: 'A single-use query of a wide result (every column type but UUID, and its ARRAY; 100 rows), every row iterated.',
    status: 'reproduced',
    seen: "2026-11-26, bced59d, `npm run bench:reproductions` (the Run it button's job on an embedded stack), on 2 cores loaded by other work (load average 10-15): met, 3.50.1 p50 181.5 ms (23 scans in 5 s), 3.51.0 18.2 ms (144 scans), 9.99 times, no error. Earlier (6361d6a, through the driver launcher, load 24-32): 2.7 and 3.8 times. The absolute times are the loaded machine's; the PR's own were 35-40 ms against 15-20 ms.",
    spec: {
      name: 'Reproduction: Python result-set decoding before and after PR #1244',
      clients: [
        { language: 'python', version: '3.50.1' },
        { language: 'python', version: '3.51.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [1],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'scan', warmupOps: 20, durationSeconds: 5, resultSet: WIDE_100 },
      expectations: [
        { kind: 'ratio', metric: 'p50Ms', of: { version: '3.50.1' }, to: { version: '3.51.0' }, atLeast: 1.3, says: "3.50.1's scan takes at least 1.3 times 3.51.0's at p50" },
        { kind: 'bound', metric: 'failedCells', cells: { version: '3.51.0' }, atMost: 0, says: 'both decode every value right' },
      ],
    },
  },
  {
    id: 'python-fixed-pool-naive-datetime',
    title: "Python 3.64.0 and later: a FixedSizePool's get() fails with TypeError once a session was used, and loses the session",
    language: 'python',
    links: [{ label: 'python-spanner pool.py (_NOW) and _opentelemetry_tracing.py (trace_call)', url: 'https://github.com/googleapis/python-spanner/blob/main/google/cloud/spanner_v1/pool.py' }],
    affected: '3.64.0 to 3.71.0 (the newest PyPI serves here), with regular (not multiplexed) sessions from a FixedSizePool',
    fixed: 'not fixed in any release here; 3.63.0 behaves',
    fixedVersion: '3.63.0',
    versionsNote:
      "Found by this bench, not from a tracker. 3.64.0 made pool.py's _NOW() time-zone aware (datetime.now(timezone.utc); 3.63.0: utcnow, naive), while _opentelemetry_tracing.trace_call still sets session._last_use_time = datetime.now() (naive) on every traced call. FixedSizePool.get() computes _NOW() - session.last_use_time: TypeError: can't subtract offset-naive and offset-aware datetimes, after the session has left the pool's queue, so each failure loses one session and, the pool empty, get() waits its default_timeout (10 s). Checked in the wheels of 3.64.0 to 3.71.0. BurstyPool does not compute the age and runs; multiplexed sessions (on by default from 3.56.0) do not go through the pool.",
    trigger: 'multiplexedSessions: false and pythonPool: fixed, any operation: the second use of each session fails.',
    status: 'reproduced',
    seen: "2026-11-26, bced59d, `npm run bench:reproductions` (the Run it button's job on an embedded stack, load average 10-15): met, 3.63.0 819 select1 in 3 s, no error; 3.64.0 and 3.71.0 4 done and 8 failed each (66.7%, the TypeError). Earlier (fffd148, through the driver launcher): 3.63.0 1,522 select1, no error; 3.64.0 and 3.71.0 4 done and 8 failed, the measured phase 10.0 s long for its 3 s (the emptied pool's get() waiting its 10 s). By hand on 3.64.0 BurstyPool: 100 of 100, no error.",
    spec: {
      name: 'Reproduction: Python FixedSizePool naive and aware datetimes',
      clients: [
        { language: 'python', version: '3.63.0' },
        { language: 'python', version: '3.64.0' },
        { language: 'python', version: '3.71.0' },
      ],
      configurations: [{ label: 'fixed pool, regular sessions', multiplexedSessions: false, pythonPool: 'fixed', sessionPool: { maxSessions: 10 } }],
      concurrency: [2],
      target: { kind: 'fake', latencyMs: 1 },
      workload: { warmupOps: 10, durationSeconds: 3 },
      expectations: [
        { kind: 'bound', metric: 'errorPct', cells: { version: '3.63.0' }, atMost: 0, says: '3.63.0 compares two naive datetimes' },
        { kind: 'bound', metric: 'errorPct', cells: { version: '3.64.0' }, atLeast: 50, says: '3.64.0 fails most operations with the TypeError' },
        { kind: 'bound', metric: 'errorPct', cells: { version: '3.71.0' }, atLeast: 50, says: 'so does the newest release here' },
      ],
    },
  },
];
