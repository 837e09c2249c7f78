// How a client spreads its RPCs over connections.
import type { Reproduction } from '../reproduction';

export const CHANNEL_BUGS: Reproduction[] = [
  {
    id: 'node-7-one-connection',
    title: 'Node 7.x: grpc-gcp on, yet all traffic on one connection',
    language: 'node',
    // No public issue describes it: the releases are the reference.
    links: [{ label: '@google-cloud/spanner releases (no public issue found)', url: 'https://github.com/googleapis/nodejs-spanner/releases' }],
    affected: "7.21.0 (as reported in this product's issue list; the 7.x line)",
    fixed: '9.0.0 spreads its RPCs over its channel pool',
    fixedVersion: '9.0.0',
    versionsNote: 'Which release changed it is not confirmed: the entry compares 7.21.0 with 9.0.0 only.',
    trigger: '200 SELECT 1 in flight on a client with its default grpc-gcp channel pool; one HTTP/2 connection holds at most 100 streams.',
    status: 'reproduced',
    seen: "2026-11-24, 64f9ec7: SELECT 1 at 65 ms, C=200: 7.21.0 sent 100% of its RPCs on one connection (787 ops/s, p50 241 ms: one connection's 100 streams); 9.0.0's busiest connection 12.8% (1,957 ops/s, p50 95 ms).",
    spec: {
      name: 'Reproduction: Node 7.21.0 on one connection',
      clients: [
        { language: 'node', version: '7.21.0' },
        { language: 'node', version: '9.0.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [200],
      target: { kind: 'fake', latencyMs: 65 },
      workload: { operation: 'select1', warmupOps: { min: 500, perConcurrency: 4 }, durationSeconds: 4 },
      expectations: [
        { kind: 'bound', metric: 'topConnectionPct', cells: { version: '7.21.0' }, atLeast: 60, says: "7.21.0's busiest connection carries most of the RPCs" },
        // A third, not a fifth: the busiest connection also carries the cell's first RPCs (its session, the
        // warm-up before the pool has grown): 12.8% in the full form, 15.6% in the test's two seconds on a
        // busy machine; 20% left too little room there (a landing CI failed this entry's test, its figures unkept).
        { kind: 'bound', metric: 'topConnectionPct', cells: { version: '9.0.0' }, atMost: 35, says: '9.0.0 spreads them: no connection carries more than about a third' },
      ],
    },
  },
];
