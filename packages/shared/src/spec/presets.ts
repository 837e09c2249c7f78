import type { JobSpecInput } from './spec';

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
    // in 1 of 6 with 65 ms sessions (README, "The affinity-burst scenario").
    target: { kind: 'fake', latencyMs: 65 },
    workload: { operation: 'select1', warmupOps: { min: 500, perConcurrency: 4 }, measuredOps: { min: 2000, perConcurrency: 30 } },
    repeats: o.repeats ?? 3,
    timeScale: o.timeScale ?? 10,
  };
}

export interface Preset {
  id: string;
  title: string;
  description: string;
  spec: JobSpecInput;
}

export const PRESETS: Preset[] = [
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
      // 21% below the rest at C=50; after 5,000 it was within the warm-start check (README).
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
