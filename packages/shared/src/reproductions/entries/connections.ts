// Connections that fail without a word: how long a client takes to notice, by its keepalive.
import type { Reproduction } from '../reproduction';

/** SELECT 1 at 10 ms from 4 agents; every connection open 2 s into the measurement goes silent. */
const blackholed = { kind: 'fake' as const, latencyMs: 10, network: { blackholeAtMs: 2000 } };

export const SILENT_CONNECTIONS: Reproduction[] = [
  {
    id: 'node-keepalive-blackhole',
    title: 'Node before 7.12.0: no keepalive, so calls on a silently dropped connection wait forever',
    language: 'node',
    links: [
      { label: 'nodejs-spanner PR #2086 (keepalive 30 s / 10 s)', url: 'https://github.com/googleapis/nodejs-spanner/pull/2086' },
      { label: 'nodejs-spanner PR #2445 (keepalive 120 s)', url: 'https://github.com/googleapis/nodejs-spanner/pull/2445' },
    ],
    affected: "before 7.12.0 (grpc-js's default: no keepalive pings)",
    fixed: "7.12.0 (keepalive every 30 s, 10 s to answer); from 8.3.0 every 120 s with grpc-js's 20 s timeout",
    versionsNote: 'npm here lists neither 7.11.0 nor 7.12.0, so the entry runs 7.10.0 and 7.14.0.',
    trigger: 'Two seconds into the measurement every open connection goes silent (the tap drops its bytes both ways and never closes it), as when a NAT or load balancer forgets it.',
    status: 'not run yet',
    spec: {
      name: 'Reproduction: Node on a silently dropped connection, keepalive off and on',
      clients: [
        { language: 'node', version: '7.10.0' },
        { language: 'node', version: '7.14.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [4],
      target: blackholed,
      workload: { operation: 'select1', warmupOps: 50, durationSeconds: 10 },
      expectations: [
        { kind: 'bound', metric: 'failedCells', cells: { version: '7.10.0' }, atLeast: 1, says: '7.10.0 never notices: its calls wait past the cell’s deadline' },
        {
          kind: 'bound',
          metric: 'maxMs',
          cells: { version: '7.14.0' },
          atLeast: 20_000,
          atMost: 60_000,
          says: "7.14.0's keepalive (30 s, 10 s to answer) finds the dead connection within a ping and its timeout",
        },
      ],
    },
  },
  {
    id: 'go-keepalive-blackhole',
    title: 'Go before 1.87.0: no keepalive, so calls on a silently dropped connection wait forever',
    language: 'go',
    links: [{ label: 'google-cloud-go PR #13216', url: 'https://github.com/googleapis/google-cloud-go/pull/13216' }],
    affected: "before 1.87.0 (grpc-go's default: no keepalive pings)",
    fixed: "1.87.0 (keepalive every 120 s, grpc-go's 20 s to answer)",
    trigger: 'Two seconds into the measurement every open connection goes silent (the tap drops its bytes both ways and never closes it).',
    status: 'not run yet',
    spec: {
      name: 'Reproduction: Go on a silently dropped connection, keepalive off and on',
      clients: [
        { language: 'go', version: '1.86.0' },
        { language: 'go', version: '1.87.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [4],
      target: blackholed,
      // Long enough for the cell's deadline to outlast 120 s + 20 s.
      workload: { operation: 'select1', warmupOps: 50, durationSeconds: 120 },
      expectations: [
        { kind: 'bound', metric: 'failedCells', cells: { version: '1.86.0' }, atLeast: 1, says: '1.86.0 never notices: its calls wait past the cell’s deadline' },
        { kind: 'bound', metric: 'maxMs', cells: { version: '1.87.0' }, atLeast: 100_000, atMost: 170_000, says: "1.87.0's keepalive (120 s, 20 s to answer) finds the dead connection" },
      ],
    },
  },
];
