// Bugs in the first multiplexed CreateSession of a client: an error that is kept, or that leaves waiters hanging.
import type { Reproduction } from '../reproduction';

export const MULTIPLEXED_SESSION_BUGS: Reproduction[] = [
  {
    id: 'java-mux-session-error-cached',
    title: 'Java: a failed first multiplexed CreateSession is cached and rethrown to every later RPC',
    language: 'java',
    links: [
      { label: 'java-spanner PR #4288', url: 'https://github.com/googleapis/java-spanner/pull/4288' },
      { label: 'java-spanner PR #4360', url: 'https://github.com/googleapis/java-spanner/pull/4360' },
    ],
    affected: '6.96.0 to 6.110.x with the default options (multiplexed sessions on by default from 6.96.0)',
    fixed: '6.111.1 (retries CreateSession with waitForMinSessions zero, the default)',
    fixedVersion: '6.111.1',
    versionsNote: "6.106.0's retry (#4288) runs only with a non-zero waitForMinSessions, so with the defaults 6.106.0 still keeps the error (changelogs of 6.106.0 and 6.111.1).",
    trigger: 'The first CreateSession asking for a multiplexed session fails with DEADLINE_EXCEEDED, a code gax does not retry for it; every later CreateSession is answered.',
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7 (npm run bench:reproductions): 6.105.0 and 6.106.0 failed every operation for 3 s (1.7 and 2.7 million errors, none served); 6.111.1 served 771 ops/s without an error.',
    spec: {
      name: 'Reproduction: Java keeps a failed multiplexed CreateSession',
      clients: [
        { language: 'java', version: '6.105.0' },
        { language: 'java', version: '6.106.0' },
        { language: 'java', version: '6.111.1' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target: { kind: 'fake', latencyMs: 10, server: { faults: [{ kind: 'multiplexedSession', code: 'DEADLINE_EXCEEDED', ratio: 1, first: 1 }] } },
      workload: { operation: 'select1', warmupOps: 50, durationSeconds: 3 },
      expectations: [
        { kind: 'bound', metric: 'errorPct', cells: { version: '6.105.0' }, atLeast: 90, says: '6.105.0 fails every operation with the kept error' },
        { kind: 'bound', metric: 'errorPct', cells: { version: '6.106.0' }, atLeast: 90, says: "6.106.0's retry needs waitForMinSessions: with the defaults it fails alike" },
        { kind: 'bound', metric: 'errorPct', cells: { version: '6.111.1' }, atMost: 1, says: '6.111.1 creates the session again and serves' },
      ],
    },
  },
  {
    id: 'node-mux-session-error-hang',
    title: 'Node 8.3.x: a failed multiplexed CreateSession leaves every later request waiting forever (and leaks listeners past 10 waiters)',
    language: 'node',
    links: [
      { label: 'nodejs-spanner #2475', url: 'https://github.com/googleapis/nodejs-spanner/issues/2475' },
      { label: 'nodejs-spanner PR #2477', url: 'https://github.com/googleapis/nodejs-spanner/pull/2477' },
    ],
    affected: '8.3.0 and 8.3.1 (multiplexed sessions by default from 8.3.0; opt-in from 7.19.0)',
    fixed: '8.4.0',
    fixedVersion: '8.4.0',
    trigger: 'The first multiplexed CreateSession fails with INTERNAL (not retried by gax) while 20 requests wait for it; later CreateSessions are answered.',
    status: 'reproduced',
    seen: "2026-11-25, e604cc2 (the driver listening for the Database's 'error' event, as an application must): 8.3.1 printed MaxListenersExceededWarning (11 mux-session-available listeners), its Database emitted the creation's INTERNAL as 'error', and no operation returned again: the driver was stopped at its deadline. 8.4.0 served 833 ops/s without an error. (On 2026-11-24, with no listener, 8.3.1's process died of that 'error' event instead.)",
    spec: {
      name: 'Reproduction: Node 8.3.1 hangs after a failed multiplexed CreateSession',
      clients: [
        { language: 'node', version: '8.3.1' },
        { language: 'node', version: '8.4.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [20],
      target: { kind: 'fake', latencyMs: 10, server: { latency: { multiplexedSession: 200 }, faults: [{ kind: 'multiplexedSession', code: 'INTERNAL', ratio: 1, first: 1 }] } },
      workload: { operation: 'select1', warmupOps: 50, durationSeconds: 3 },
      expectations: [
        { kind: 'bound', metric: 'failedCells', cells: { version: '8.3.1' }, atLeast: 1, says: '8.3.1 serves nothing after the failed creation: its cell fails' },
        { kind: 'bound', metric: 'errorPct', cells: { version: '8.4.0' }, atMost: 1, says: '8.4.0 creates the session again and serves' },
      ],
    },
  },
  {
    id: 'go-mux-creation-deadlock',
    title: 'Go 1.66-1.72: multiplexed-session creation could deadlock after a failure (found by static analysis)',
    language: 'go',
    links: [
      { label: 'google-cloud-go #11126', url: 'https://github.com/googleapis/google-cloud-go/issues/11126' },
      { label: 'google-cloud-go PR #11131', url: 'https://github.com/googleapis/google-cloud-go/pull/11131' },
    ],
    affected: '1.66.0 to 1.72.0, with GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS=true (multiplexed sessions were opt-in then)',
    fixed: '1.73.0 ("Add safecheck to avoid deadlock when creating multiplex session")',
    versionsNote:
      'The issue is a static-analysis report: the unguarded send sits on the path where the client fails to build its gRPC stub, not where CreateSession returns an error, whose path 1.72.0 already guards. A fake server may not be able to reach it; this entry tries the CreateSession error.',
    trigger: 'The first multiplexed CreateSession fails with INTERNAL while 20 requests wait for it; later ones are answered.',
    status: 'not reproduced',
    seen: '2026-11-24, f1bc887: with the first multiplexed CreateSession failing (INTERNAL, 200 ms) under 20 waiters, 1.72.0 served 1,655 ops/s without an error, as 1.73.0 did (1,693): the guarded error path of 1.72.0 returns the error to the waiters, and the unguarded send is on a client-side path (building the gRPC stub) a server cannot reach.',
    spec: {
      name: 'Reproduction: Go multiplexed-session creation after a failure',
      clients: [
        { language: 'go', version: '1.72.0' },
        { language: 'go', version: '1.73.0' },
      ],
      configurations: [{ label: 'multiplexed sessions', multiplexedSessions: true }],
      concurrency: [20],
      target: { kind: 'fake', latencyMs: 10, server: { latency: { multiplexedSession: 200 }, faults: [{ kind: 'multiplexedSession', code: 'INTERNAL', ratio: 1, first: 1 }] } },
      workload: { operation: 'select1', warmupOps: 50, durationSeconds: 3 },
      expectations: [
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.72.0' }, atLeast: 1, says: '1.72.0 hangs after the failed creation: its cell fails' },
        { kind: 'bound', metric: 'errorPct', cells: { version: '1.73.0' }, atMost: 1, says: '1.73.0 serves' },
      ],
    },
  },
  {
    id: 'go-mux-cancelled-waiter-deadlock',
    title: 'Go 1.66-1.88: a caller whose deadline passes while the multiplexed session is created stops the creator, and every later caller waits forever',
    language: 'go',
    links: [
      { label: 'google-cloud-go #14212', url: 'https://github.com/googleapis/google-cloud-go/issues/14212' },
      { label: 'google-cloud-go PR #14215', url: 'https://github.com/googleapis/google-cloud-go/pull/14215' },
    ],
    affected: '1.66.0 to 1.88.0 with multiplexed sessions (on by default from 1.85.0); the issue reports it on 1.87.0',
    fixed: '1.89.0 ("replace multiplexed session request loop with shared in-flight creation")',
    fixedVersion: '1.89.0',
    versionsNote: 'The issue names v1.87.0, the version it was seen on; the changelog puts the fix in 1.89.0, and 1.88.0 still has the old loop.',
    trigger:
      'The first multiplexed CreateSession takes 1.5 s while 20 callers, each with a 300 ms deadline, wait for it: callers queue on a send that ignores their context, and the creator gives up when it meets one whose deadline passed.',
    status: 'reproduced',
    seen: '2026-11-25, 2204dcc: 1.88.0\'s callers timed out while the session was created (DeadlineExceeded "timeout / context canceled during getting session"), then none returned again, deadline or not: the driver was stopped at its 67 s deadline. 1.89.0 served 6,072 operations in 5 s (1,213 ops/s, p50 11.2 ms); its 100 errors are the callers whose 300 ms passed during the 1.5 s creation.',
    spec: {
      name: 'Reproduction: Go callers with deadlines during a slow multiplexed CreateSession',
      clients: [
        { language: 'go', version: '1.88.0' },
        { language: 'go', version: '1.89.0' },
      ],
      configurations: [{ label: 'deadline 300 ms', operationTimeoutMs: 300 }],
      concurrency: [20],
      target: { kind: 'fake', latencyMs: 10, server: { latency: { multiplexedSession: 1500 } } },
      workload: { operation: 'select1', warmupOps: 0, durationSeconds: 5 },
      expectations: [
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.88.0' }, atLeast: 1, says: "1.88.0's callers wait forever, past their own deadlines: its cell never ends" },
        { kind: 'bound', metric: 'count', cells: { version: '1.89.0' }, atLeast: 100, says: '1.89.0 serves once the session exists' },
      ],
    },
  },
];
