// Clients that end a streamed result only when the call's trailers arrive, not on the last part.
import type { Reproduction } from '../reproduction';

/** 10 ms queries whose trailers come 100 ms after the last PartialResultSet. */
const target = { kind: 'fake' as const, latencyMs: 10, server: { holdTrailersMs: 100 } };
const workload = { operation: 'select1' as const, warmupOps: 50, durationSeconds: 3 };

export const TRAILER_WAITS: Reproduction[] = [
  {
    id: 'java-waits-for-trailers',
    title: 'Java before 6.89.0: a query ends only when the trailers come, not on the last PartialResultSet',
    language: 'java',
    links: [{ label: 'java-spanner PR #3661', url: 'https://github.com/googleapis/java-spanner/pull/3661' }],
    affected: 'before 6.89.0',
    fixed: '6.89.0 ("Skip gRPC trailers for StreamingRead & ExecuteStreamingSql")',
    fixedVersion: '6.89.0',
    versionsNote: 'It needs the server to set PartialResultSet.last, which Spanner may do; the PR claims 250-300 µs a query on Spanner.',
    trigger: "The last PartialResultSet says `last`; the call's trailers come 100 ms later. The last ResultSet.next() waits for them before 6.89.0.",
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7: SELECT 1 at 10 ms, C=10: 6.88.0 p50 115 ms (86 ops/s), 6.89.0 p50 13.0 ms (732 ops/s).',
    spec: {
      name: 'Reproduction: Java waits for the trailers',
      clients: [
        { language: 'java', version: '6.88.0' },
        { language: 'java', version: '6.89.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target,
      workload,
      expectations: [
        { kind: 'bound', metric: 'p50Ms', cells: { version: '6.88.0' }, atLeast: 90, says: '6.88.0 waits for the trailers held 100 ms' },
        { kind: 'ratio', metric: 'p50Ms', of: { version: '6.88.0' }, to: { version: '6.89.0' }, atLeast: 3, says: "6.88.0's queries carry the 100 ms the trailers were held" },
        { kind: 'bound', metric: 'p50Ms', cells: { version: '6.89.0' }, atMost: 60, says: '6.89.0 ends on the last part' },
      ],
    },
  },
  {
    id: 'node-waits-for-trailers',
    title: 'Node before 8.1.0: a query resolves only when the trailers come, not on the last PartialResultSet',
    language: 'node',
    links: [{ label: 'nodejs-spanner PR #2313', url: 'https://github.com/googleapis/nodejs-spanner/pull/2313' }],
    affected: 'before 8.1.0',
    fixed: '8.1.0 ("Skip gRPC trailers for StreamingRead & ExecuteStreamingSql"), when the last part carries a resume token; npm has no 8.1.0, so the entry runs 8.2.1',
    fixedVersion: '8.2.1',
    versionsNote:
      '8.1.0 to 8.5.x may lose buffered rows at the end of a paused stream (fixed in 8.6.0); a last part without a resume token still waits for the trailers until a later google-cloud-node fix (#9258), version not confirmed.',
    trigger: "The last PartialResultSet says `last` (with a resume token); the call's trailers come 100 ms later.",
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7: SELECT 1 at 10 ms, C=10: 8.0.0 p50 116 ms (85 ops/s), 8.2.1 p50 16.4 ms (598 ops/s).',
    spec: {
      name: 'Reproduction: Node waits for the trailers',
      clients: [
        { language: 'node', version: '8.0.0' },
        { language: 'node', version: '8.2.1' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target,
      workload,
      expectations: [
        { kind: 'bound', metric: 'p50Ms', cells: { version: '8.0.0' }, atLeast: 90, says: '8.0.0 waits for the trailers held 100 ms' },
        { kind: 'ratio', metric: 'p50Ms', of: { version: '8.0.0' }, to: { version: '8.2.1' }, atLeast: 3, says: "8.0.0's queries carry the 100 ms the trailers were held" },
        { kind: 'bound', metric: 'p50Ms', cells: { version: '8.2.1' }, atMost: 60, says: '8.2.1 ends on the last part' },
      ],
    },
  },
  {
    id: 'go-waits-for-trailers',
    title: 'Go before 1.80.0: a query ends only when the trailers come, not on the last PartialResultSet',
    language: 'go',
    links: [{ label: 'google-cloud-go PR #11854', url: 'https://github.com/googleapis/google-cloud-go/pull/11854' }],
    affected: 'before 1.80.0',
    fixed: '1.80.0',
    fixedVersion: '1.80.0',
    trigger: "The last PartialResultSet says `last`; the call's trailers come 100 ms later.",
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7: SELECT 1 at 10 ms, C=10: 1.79.0 p50 112 ms (89 ops/s), 1.80.0 p50 10.9 ms (909 ops/s).',
    spec: {
      name: 'Reproduction: Go waits for the trailers',
      clients: [
        { language: 'go', version: '1.79.0' },
        { language: 'go', version: '1.80.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target,
      workload,
      expectations: [
        { kind: 'bound', metric: 'p50Ms', cells: { version: '1.79.0' }, atLeast: 90, says: '1.79.0 waits for the trailers held 100 ms' },
        { kind: 'ratio', metric: 'p50Ms', of: { version: '1.79.0' }, to: { version: '1.80.0' }, atLeast: 3, says: "1.79.0's queries carry the 100 ms the trailers were held" },
        { kind: 'bound', metric: 'p50Ms', cells: { version: '1.80.0' }, atMost: 60, says: '1.80.0 ends on the last part' },
      ],
    },
  },
];
