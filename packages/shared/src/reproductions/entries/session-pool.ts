// Bugs of the Go client's session pool (before multiplexed sessions replaced it).
import type { Reproduction } from '../reproduction';

export const SESSION_POOL_BUGS: Reproduction[] = [
  {
    id: 'go-track-session-handles-deadlock',
    title: 'Go 1.2-1.30.0: with TrackSessionHandles, a caller timing out while sessions are recycled deadlocks the pool',
    language: 'go',
    links: [
      { label: 'google-cloud-go #5710', url: 'https://github.com/googleapis/google-cloud-go/issues/5710' },
      { label: 'google-cloud-go PR #5777', url: 'https://github.com/googleapis/google-cloud-go/pull/5777' },
    ],
    affected: '1.2.0 to 1.30.0 with SessionPoolConfig.TrackSessionHandles',
    fixed: '1.30.1 ("early unlock of session pool lock during dumping the tracked session handles to avoid deadlock")',
    fixedVersion: '1.30.1',
    versionsNote: 'A lock-order inversion (the pool lock, then each handle lock, against a handle lock, then the pool lock): a race, so a run may miss it.',
    trigger:
      'A pool of one session with handles tracked, 1,000 read-write transactions at once, each with a 5 s deadline, as in the issue: many callers time out waiting for the session (their error lists the tracked handles under the pool lock) while the session is recycled.',
    status: 'reproduced',
    seen: '2026-11-25, 91d6759: with 1 ms RPCs, 1.30.0 froze in 2 of 3 runs (no operation returned again; the driver was stopped at its 90 s deadline) and served 139 transactions a second in the third; 1.30.1 served 141-149 a second in all 3, about 3,650 callers timing out after 5 s in each. With 20 ms RPCs (about 11 recycles a second) four runs of 1.30.0 never froze: the race needs many recycles.',
    spec: {
      name: 'Reproduction: Go session pool deadlock with TrackSessionHandles',
      clients: [
        { language: 'go', version: '1.30.0' },
        { language: 'go', version: '1.30.1' },
      ],
      configurations: [{ label: 'pool of 1, handles tracked, 5 s deadline', sessionPool: { minSessions: 1, maxSessions: 1, trackSessionHandles: true }, operationTimeoutMs: 5000 }],
      concurrency: [1000],
      // 1 ms RPCs: the session is recycled a few hundred times a second, each a chance for the race.
      target: { kind: 'fake', latencyMs: 1 },
      workload: { operation: 'readWriteTxn', warmupOps: 0, durationSeconds: 20 },
      // A race: three tries per version.
      repeats: 3,
      expectations: [
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.30.0' }, atLeast: 1, says: "1.30.0's pool deadlocks: no operation ends and the cell never does" },
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.30.1' }, atMost: 0, says: '1.30.1 times callers out and goes on' },
      ],
    },
  },
];
