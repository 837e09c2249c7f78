// Python client performance changes from its trackers: decoding a result's values, the work the client
// does per value while the application iterates the rows (python-spanner's StreamedResultSet).
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
    seen: "2026-11-26, 6361d6a, the entry's cells run one by one through the driver launcher (runDriver), not through the Run it button's stack, on 2 cores under a load average of 24-32 (other sessions' work): 3.50.1 p50 127.7 and 97.8 ms (29 and 45 scans in 5 s), 3.51.0 47.3 and 26.0 ms (68 and 95 scans): 2.7 and 3.8 times, no error. The absolute times are the loaded machine's; the PR's own were 35-40 ms against 15-20 ms.",
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
];
