import type { Preset } from './preset';
import type { JobSpecInput } from './spec';
import { RESULT_SET_PRESETS } from './result-set-presets';

export interface AffinityBurstOptions {
  versions: string[];
  concurrency?: number[];
  repeats?: number;
  timeScale?: number;
  /** 'matrix': grpc-gcp on, off and the dynamic channel pool; 'default': the client's own default. */
  configurations?: 'matrix' | 'default';
}

/**
 * The grpc-gcp affinity collapse of java-spanner 6.105.0 (google-cloud-java PR #12725): SELECT 1,
 * a fresh client per cell whose first traffic is a burst AT the target concurrency, numChannels 32.
 * On 2 cores the Java client is CPU-bound at 65 ms, so the default time scale is 10 (650 ms).
 */
export function affinityBurstSpec(o: AffinityBurstOptions): JobSpecInput {
  const configurations =
    o.configurations === 'default'
      ? [{ label: 'client default', grpcGcp: 'default' as const, numChannels: 32 }]
      : [
          { label: 'grpc-gcp on', grpcGcp: 'on' as const, numChannels: 32 },
          { label: 'grpc-gcp off', grpcGcp: 'off' as const, numChannels: 32 },
          // enableDynamicChannelPool only takes effect when numChannels is not set.
          { label: 'dynamic channel pool', grpcGcp: 'on' as const, dynamicChannelPool: true },
        ];
  return {
    name: `affinity burst: java ${o.versions.join(' vs ')}`,
    clients: o.versions.map((version) => ({ language: 'java' as const, version })),
    configurations,
    concurrency: o.concurrency ?? [50, 100, 200, 400],
    // Instant session creation: in probes here 6.105.0 collapsed in 6 of 13 cold starts with it and
    // in 1 of 6 with 65 ms sessions (docs/scenarios.md, "Affinity burst").
    target: { kind: 'fake', latencyMs: 65 },
    workload: { operation: 'select1', warmupOps: { min: 500, perConcurrency: 4 }, measuredOps: { min: 2000, perConcurrency: 30 } },
    repeats: o.repeats ?? 3,
    timeScale: o.timeScale ?? 10,
  };
}

export type { Preset } from './preset';

const BASE_PRESETS: Preset[] = [
  {
    id: 'affinity-burst',
    title: 'Affinity burst (java 6.104.0 vs 6.105.0)',
    description:
      'google-cloud-java PR #12725: since 6.105.0 grpc-gcp is on by default and a cold client whose first traffic is a burst binds its affinity keys to one channel. Fresh client per cell, warm-up burst max(500, 4×C) at the target concurrency, then max(2000, 30×C) measured SELECT 1; numChannels 32; queries 65 ms; time scale 10. The collapse hits about one 6.105.0 cold start in five: look at every repeat.',
    spec: affinityBurstSpec({ versions: ['6.104.0', '6.105.0'] }),
  },
  {
    id: 'node-select1',
    title: 'Node SELECT 1: grpc-gcp on vs off',
    description: 'The Node client 9.0.0 with its grpc-gcp channel pool on and off, 4 s per cell after a warm-up of max(500, 100×C) operations (its first measured second is slow after less).',
    spec: {
      name: 'Node 9.0.0 SELECT 1: grpc-gcp on vs off',
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [
        { label: 'grpc-gcp on', grpcGcp: 'on' },
        { label: 'grpc-gcp off', grpcGcp: 'off' },
      ],
      concurrency: [10, 50, 100],
      target: { kind: 'fake', latencyMs: 65 },
      // Node's JIT warms by operations run: after max(200, 20×C) the first measured second still ran
      // 21% below the rest at C=50; after 5,000 it was within the warm-start check (docs/verdicts.md, "Warm start").
      workload: { operation: 'select1', warmupOps: { min: 500, perConcurrency: 100 }, durationSeconds: 4 },
      repeats: 1,
      timeScale: 1,
    },
  },
  {
    id: 'go-versions',
    title: 'Go SELECT 1: 1.33.0 (session pool) vs 1.96.1 (multiplexed session)',
    description:
      'The Go client of the session pool case study (1.33.0, with a session pool) against the newest release, which has one multiplexed session and no pool: client defaults, 65 ms queries, 4 s per cell.',
    spec: {
      name: 'Go SELECT 1: 1.33.0 vs 1.96.1',
      clients: [
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '1.96.1' },
      ],
      configurations: [{ label: 'client default', grpcGcp: 'default' }],
      concurrency: [10, 50, 150],
      target: { kind: 'fake', latencyMs: 65 },
      workload: { operation: 'select1', warmupOps: { min: 200, perConcurrency: 10 }, durationSeconds: 4 },
      repeats: 1,
      timeScale: 1,
    },
  },
];

/**
 * The field scenarios (docs/scenarios.md): each reproduces the shape of a public write-up,
 * time-scaled to run on a small machine in minutes.
 */
const CASE_STUDY_POOL = { minSessions: 40, maxSessions: 100, maxIdle: 20 };

/** The session-pool-exhaustion presets' clients, each with its own configuration (pairing zip): the pool options differ per client. */
const SESSION_POOL_CLIENTS = [
  { language: 'go', version: '1.33.0' },
  { language: 'node', version: '9.0.0' },
  { language: 'java', version: '6.104.0' },
  { language: 'go', version: '1.96.1' },
  // The last release whose FixedSizePool works with regular sessions (python-fixed-pool-naive-datetime).
  { language: 'python', version: '3.63.0' },
];
const SESSION_POOL_CONFIGURATIONS = [
  { label: 'pool 40..100, idle 20, write 0.2', sessionPool: { ...CASE_STUDY_POOL, writeSessionsFraction: 0.2 } },
  // The Node pool has no write-session fraction.
  { label: 'pool 40..100, idle 20', multiplexedSessions: false, sessionPool: CASE_STUDY_POOL },
  { label: 'pool 40..100, idle 20, write 0.2', multiplexedSessions: false, sessionPool: { ...CASE_STUDY_POOL, writeSessionsFraction: 0.2 } },
  { label: 'multiplexed session' },
  // Python's pools take one size and no minimum: a FixedSizePool of 100, filled when the client binds it.
  { label: 'FixedSizePool 100', multiplexedSessions: false, pythonPool: 'fixed' as const, sessionPool: { maxSessions: 100 } },
];

// Measured with `npm run bench:token-refresh` (docs/findings/token-refresh.md).
const TOKEN_REFRESH_DESCRIPTION =
  "Mercari: a client that fetches a new OAuth token synchronously when the old one expires makes requests wait for the token endpoint about once a token's life. Here tokens live 20 s and the cell's GCE metadata server takes 1 s to answer; each token request is a mark on the per-second p99. Measured here: Go 0.37.0 (grpc-go 1.17.0) and 1.33.0 refresh synchronously 10 s before expiry, every 11 s, and those seconds' p99 is the token endpoint's (1,013-1,017 ms); Go 1.96.1 refreshes in the background (about once a second at this short life) and no second passes 16 ms. Java 6.104.0 and 6.123.0 and Node 9.0.0 refresh synchronously on every request while a token has less than their margin left (Java 3 min, Node 5 min), so at a 20 s life every request waits about 1 s. With longer tokens: Java refreshes in the background 3 min 45 s before expiry without a stall (240 s tokens: requests at 15 s and 31 s, no second over 27 ms), Node 9.0.0 stalls once, 5 min before expiry (330 s tokens: 1,020 ms at 30 s and 61 s). So with hour-long tokens Go 0.37.0, Go 1.33.0 and Node 9.0.0 stall once an hour; Go 1.96.1 and Java do not. Go 1.33.0's four connections each keep a token: once in CI they refreshed a second apart and each stall held one connection's calls only, under the p99 of a second at C=4; run it at C=1 to see every refresh. Python 3.71.0 (google-auth) refreshes synchronously while a token has less than its margin left, as Java and Node do: at a 20 s life every request waited about 1 s (select1 p50 1,037 ms, every per-second p99 1,020 to 1,537 ms, measured here on a loaded machine).";

const SLOW_DNS_DESCRIPTION =
  "Mercari: each hourly reconnect resolved the Spanner host name again through a slow resolver, and requests waited. Here the fake closes every connection at 5 s of age and its name resolves through the cell's DNS server, which answers each query in 1 s; the client gets a dns://<server>/<name>:<port> target, and each query is a mark on the per-second p99. Measured here (40 s, 8 resets): no client version waits for a lookup when it reconnects. Go 0.37.0 on grpc-go 1.17.0 never resolves again after its start, no second over 31 ms. On grpc-go 1.18.0 it resolves again at every reset (SRV, then A and AAAA, then TXT, one after another) and stalls 1.3-2.1 s at each reset, but as long with 3 s queries (1.2-2.1 s) and with no DNS server at all (1.2-1.9 s): its own slow reconnect (the hourly-reconnect preset), not the lookup. Go 1.33.0 and 1.96.1 resolve once per connection 30 s after their start (grpc-go's least interval between resolutions), in the background: no second over 24 ms. Node 9.0.0 (grpc-js 1.14.7, which follows a dns:// server only with GRPC_NODE_USE_ALTERNATIVE_RESOLVER=true, set by its driver) resolves once at 29 s, no second over 38 ms. Java is refused: grpc-java's resolver ignores the server a dns:// target names. Mercari's lookup was inside the dial (a plain host:port target through the system resolver), which no per-process setting points at the cell's DNS server.";

export const SCENARIO_PRESETS: Preset[] = [
  {
    id: 'session-pool-exhaustion',
    title: 'Session pool exhaustion (Go 1.33.0, pool max 100)',
    description:
      'The Google Cloud blog case study: Go 1.33.0 with MaxOpened 100, MinOpened 40, MaxIdle 20, WriteSessions 0.2; read agents (readOnlyTxn) and write agents (readWriteTxn) 4:1, each pausing 100 ms between transactions; agents rising past what 100 sessions can serve; the server flat at 35 ms per RPC. Time scale 4 (140 ms RPCs, 400 ms think time). Expected: qps stops growing while the server time stays flat and the client/server gap climbs. Node 9.0.0 and Java 6.104.0 with their session pools (multiplexed sessions off, pool 40..100, idle 20) show the same limit; Go 1.96.1, on one multiplexed session, shows the contrast. Python 3.63.0 (the last release whose FixedSizePool works with regular sessions) with a FixedSizePool of 100 shows the limit too; measured here on a loaded 2-core machine (2026-11-26): 77, 150, 274, 372 and 414 qps at 50 to 400 agents, the pool at 100 in use from 300 agents, the server flat at 141 ms while the readOnlyTxn gap grew from 6% to 66%.',
    spec: {
      name: 'Session pool exhaustion: Go 1.33.0, pool max 100',
      pairing: 'zip',
      clients: SESSION_POOL_CLIENTS,
      configurations: SESSION_POOL_CONFIGURATIONS,
      concurrency: [50, 100, 200, 300, 400],
      target: { kind: 'fake', latencyMs: 35 },
      workload: {
        mix: [
          { operation: 'readOnlyTxn', weight: 4 },
          { operation: 'readWriteTxn', weight: 1 },
        ],
        thinkTime: { ms: 100, distribution: 'fixed' },
        warmupOps: { min: 200, perConcurrency: 2 },
        durationSeconds: 10,
      },
      timeScale: 4,
    },
  },
  {
    id: 'session-pool-exhaustion-open',
    title: 'Session pool exhaustion, open loop (transactions arriving at a rate)',
    description:
      "The same clients, pools and mix as the session pool exhaustion preset, but the transactions arrive at a rate (Poisson, 100 to 400 a second) as production traffic does, instead of agents that wait: past what 100 sessions serve, arrivals queue for a session and the latency counted from each transaction's intended start (coordinated omission corrected) climbs for as long as the cell runs. At most 200 transactions run at once, as in an application with 200 workers; later arrivals wait in line (counted), so the latency from each transaction's actual start, what a timer around the call would report, stays bounded while the corrected one does not. Server 35 ms per RPC, time scale 4 (140 ms).",
    spec: {
      name: 'Session pool exhaustion, open loop: transactions arriving at 100 to 400 a second',
      pairing: 'zip',
      clients: SESSION_POOL_CLIENTS,
      configurations: SESSION_POOL_CONFIGURATIONS,
      arrivalRates: [100, 200, 300, 400],
      target: { kind: 'fake', latencyMs: 35 },
      workload: {
        mix: [
          { operation: 'readOnlyTxn', weight: 4 },
          { operation: 'readWriteTxn', weight: 1 },
        ],
        arrivals: { distribution: 'poisson', maxOutstanding: 200 },
        warmupOps: { min: 200, perConcurrency: 1 },
        durationSeconds: 10,
      },
      timeScale: 4,
    },
  },
  {
    id: 'abort-backoff',
    title: 'Abort backoff on streaming reads (Go 0.35.0 / 0.36.0 / 0.37.0 and today)',
    description:
      'Mercari: read-write transactions whose streaming queries are aborted (ABORTED with RetryInfo 5 ms, 5% of queries, sent as Spanner sends it: after the response headers, RetryInfo in its own trailer and in the status details). cloud.google.com/go before 0.36.0 ignored RetryInfo on streams and waited its 1 s default, 0.36.0 100 ms, 0.37.0 20 ms; the readWriteTxn p99 shows it (measured here: 2,097, 179, 125 ms). Go 1.96.1 (61 ms), Java 6.123.0 (81 ms), Node 9.0.0 (100 ms) and Python 3.71.0 (143 ms, on a loaded machine) read RetryInfo. The monorepo versions are built against grpc-go 1.17.0.',
    spec: {
      name: 'Abort backoff: aborted streaming queries in read-write transactions',
      clients: [
        { language: 'go', version: '0.35.0', grpcVersion: '1.17.0' },
        { language: 'go', version: '0.36.0', grpcVersion: '1.17.0' },
        { language: 'go', version: '0.37.0', grpcVersion: '1.17.0' },
        { language: 'go', version: '1.96.1' },
        { language: 'java', version: '6.123.0' },
        { language: 'node', version: '9.0.0' },
        { language: 'python', version: '3.71.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target: { kind: 'fake', latencyMs: 10, server: { faults: [{ kind: 'query', code: 'ABORTED', ratio: 0.05, retryDelayMs: 5 }] } },
      workload: { operation: 'readWriteTxn', warmupOps: 50, durationSeconds: 10 },
    },
  },
  {
    id: 'hourly-reconnect',
    title: 'Hourly reconnects (the hour scaled to 5 s)',
    description:
      'Mercari: the server closes every connection at an age (GOAWAY after 5 s here, an hour there) and a new connection takes 1 s to be accepted (DNS, handshake). Per-second p99 spikes line up with the resets. Go 1.96.1, Java 6.123.0, Node 9.0.0, Go 0.37.0 built against grpc-go 1.17.0 and 1.18.0, and Python 3.71.0 (measured here: its per-second p99 1,032 to 1,054 ms in the three seconds after a reset, 43 to 173 ms in the others).',
    spec: {
      name: 'Hourly reconnects: connection age 5 s, 1 s to reconnect',
      clients: [
        { language: 'go', version: '1.96.1' },
        { language: 'java', version: '6.123.0' },
        { language: 'node', version: '9.0.0' },
        { language: 'go', version: '0.37.0', grpcVersion: '1.17.0' },
        { language: 'go', version: '0.37.0', grpcVersion: '1.18.0' },
        { language: 'python', version: '3.71.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [20],
      target: { kind: 'fake', latencyMs: 20, server: { maxConnectionAgeMs: 5000, maxConnectionAgeGraceMs: 1000, acceptDelayMs: 1000 } },
      workload: { operation: 'select1', warmupOps: 100, durationSeconds: 20 },
    },
  },
  {
    id: 'slow-session-creation',
    title: 'Slow session creation (600 ms)',
    description:
      "Mercari's first problem: CreateSession and BatchCreateSessions take 600 ms. A cold client's first operations wait for sessions; measured from the first operation (no warm-up), per second. Go 1.33.0 with and without a pool minimum of 100 sessions, and Go 1.96.1 with its one multiplexed session; Python 3.71.0 on its multiplexed session (measured here: the first second's p99 720 ms, the later ones at most 86 ms).",
    spec: {
      name: 'Slow session creation: 600 ms per session RPC',
      // The pool minimum is an option of the version with a pool only: each client runs its own configurations.
      pairing: 'zip',
      clients: [
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '1.96.1' },
        { language: 'python', version: '3.71.0' },
      ],
      configurations: [{ label: 'client default' }, { label: 'pool minimum 100', sessionPool: { minSessions: 100 } }, { label: 'client default' }, { label: 'client default' }],
      concurrency: [20],
      target: { kind: 'fake', latencyMs: 10, server: { latency: { session: 600 } } },
      workload: { operation: 'select1', warmupOps: 0, durationSeconds: 5 },
    },
  },
  {
    id: 'token-refresh',
    title: 'Access-token refresh (tokens living 20 s, 1 s to fetch one)',
    description: TOKEN_REFRESH_DESCRIPTION,
    spec: {
      name: 'Token refresh: tokens living 20 s, the metadata server answering in 1 s',
      clients: [
        { language: 'go', version: '0.37.0', grpcVersion: '1.17.0' },
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '1.96.1' },
        { language: 'java', version: '6.104.0' },
        { language: 'java', version: '6.123.0' },
        { language: 'node', version: '9.0.0' },
        { language: 'python', version: '3.71.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [4],
      target: { kind: 'fake', latencyMs: 10, credentials: { tokenLifetimeMs: 20_000, tokenDelayMs: 1000 } },
      workload: { operation: 'select1', warmupOps: 20, durationSeconds: 40 },
    },
  },
  {
    id: 'slow-dns',
    title: 'Slow DNS on reconnect (resets at 5 s, 1 s per DNS query)',
    description: SLOW_DNS_DESCRIPTION,
    spec: {
      name: 'Slow DNS: connections reset at 5 s, each DNS query answered in 1 s',
      clients: [
        { language: 'go', version: '0.37.0', grpcVersion: '1.17.0' },
        { language: 'go', version: '0.37.0', grpcVersion: '1.18.0' },
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '1.96.1' },
        { language: 'node', version: '9.0.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target: { kind: 'fake', latencyMs: 10, server: { maxConnectionAgeMs: 5000, maxConnectionAgeGraceMs: 1000 }, dns: { lookupDelayMs: 1000 } },
      workload: { operation: 'select1', warmupOps: 20, durationSeconds: 40 },
    },
  },
];

/** Every preset: the form, `GET /api/presets` and gates list them. */
export const PRESETS: Preset[] = [...BASE_PRESETS, ...SCENARIO_PRESETS, ...RESULT_SET_PRESETS];
