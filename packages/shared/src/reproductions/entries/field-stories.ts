// The field stories the scenario presets were made from, as reproductions with their expectations.
import { affinityBurstSpec, SCENARIO_PRESETS } from '../../job/presets';
import type { JobSpecInput } from '../../job/spec';
import type { Reproduction } from '../reproduction';

const preset = (id: string): JobSpecInput => SCENARIO_PRESETS.find((p) => p.id === id)!.spec;

export const FIELD_STORIES: Reproduction[] = [
  {
    id: 'java-affinity-burst',
    title: 'Java 6.105.0: grpc-gcp on by default collapses a cold burst onto one channel',
    language: 'java',
    links: [{ label: 'google-cloud-java PR #12725', url: 'https://github.com/googleapis/google-cloud-java/pull/12725' }],
    affected: '6.105.0 (grpc-gcp on by default)',
    fixed: '6.104.0 behaves (grpc-gcp off by default); later fixes are not confirmed here',
    fixedVersion: '6.104.0',
    versionsNote: 'The collapse hits about one cold start in five here (9 of 50), so the reproduction reads the worst of 10 repeats.',
    trigger: 'A fresh client whose first traffic is a 400-way burst of SELECT 1 binds its affinity keys to one channel, whose HTTP/2 connection queues at 100 streams.',
    status: 'reproduced',
    seen: "2026-11-24, 64f9ec7: 10 cold starts each at C=400 (650 ms queries): 6.105.0's worst put 35.6% of its RPCs on one of 32 connections, p99 1,814 ms; 6.104.0's worst 3.7%, p99 728 ms.",
    spec: {
      ...affinityBurstSpec({ versions: ['6.104.0', '6.105.0'], concurrency: [400], repeats: 10, configurations: 'default' }),
      name: 'Reproduction: java 6.105.0 affinity collapse',
      workload: { operation: 'select1', warmupOps: { min: 500, perConcurrency: 4 }, measuredOps: 6000 },
      expectations: [
        {
          kind: 'bound',
          metric: 'topConnectionPct',
          cells: { version: '6.105.0', aggregate: 'max' },
          atLeast: 25,
          says: 'in its worst cold start one connection carries a quarter or more of the RPCs (32 channels)',
        },
        { kind: 'bound', metric: 'topConnectionPct', cells: { version: '6.104.0', aggregate: 'max' }, atMost: 15, says: 'no 6.104.0 cold start leans on one connection' },
        {
          kind: 'ratio',
          metric: 'p99Ms',
          of: { version: '6.105.0', aggregate: 'max' },
          to: { version: '6.104.0', aggregate: 'max' },
          atLeast: 2,
          says: "the worst 6.105.0 p99 is at least twice 6.104.0's worst",
        },
      ],
    },
  },
  {
    id: 'go-abort-backoff',
    title: 'Go before 0.36.0: aborted streaming reads retried after a 1 s default backoff, RetryInfo ignored',
    language: 'go',
    links: [{ label: 'Mercari: Days of fighting Spanner at Merpay', url: 'https://engineering.mercari.com/blog/entry/2019-04-18-090000/' }],
    affected: 'cloud.google.com/go 0.35.0 and earlier (1 s), 0.36.0 (100 ms)',
    fixed: '0.37.0 (20 ms); today RetryInfo is read on streams',
    fixedVersion: '1.96.1',
    trigger: 'ABORTED with RetryInfo 5 ms on 5% of the streaming queries of read-write transactions.',
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7 with the per-kind fix: readWriteTxn p99 at C=10: 0.35.0 1,082 ms, 0.36.0 184 ms, 0.37.0 100 ms, 1.96.1 66 ms, Java 6.123.0 84 ms, Node 9.0.0 108 ms.',
    spec: {
      ...preset('abort-backoff'),
      name: 'Reproduction: Go abort backoff',
      expectations: [
        {
          kind: 'ratio',
          metric: 'p99Ms',
          of: { version: '0.35.0', operation: 'readWriteTxn' },
          to: { version: '1.96.1', operation: 'readWriteTxn' },
          atLeast: 5,
          says: "0.35.0's readWriteTxn p99 carries the 1 s backoff",
        },
        {
          kind: 'ratio',
          metric: 'p99Ms',
          of: { version: '0.37.0', operation: 'readWriteTxn' },
          to: { version: '1.96.1', operation: 'readWriteTxn' },
          atMost: 3,
          says: 'from 0.37.0 the wait is short',
        },
      ],
    },
  },
  {
    id: 'go-grpc-slow-reconnect',
    title: 'grpc-go 1.18.0: slow reconnects after a server-side connection reset',
    language: 'go',
    links: [{ label: 'Mercari: Days of fighting Spanner at Merpay', url: 'https://engineering.mercari.com/blog/entry/2019-04-18-090000/' }],
    affected: 'grpc-go 1.18.0 and 1.19.0',
    fixed: 'grpc-go 1.19.1; 1.16.0 and 1.17.0 reconnected promptly',
    trigger: 'The server closes each connection at an age (GOAWAY; an hour there, 5 s here) and a new connection takes 1 s to be accepted.',
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7: a reset every 5 s, 1 s to accept: the slowest operation 2,750 ms on grpc-go 1.18.0 against 1,023 ms on 1.17.0 (Go 1.96.1, Java 6.123.0 and Node 9.0.0 1,027-1,033 ms).',
    spec: {
      ...preset('hourly-reconnect'),
      name: 'Reproduction: grpc-go 1.18.0 slow reconnects',
      expectations: [
        {
          kind: 'ratio',
          metric: 'maxMs',
          of: { version: '0.37.0', grpcVersion: '1.18.0' },
          to: { version: '0.37.0', grpcVersion: '1.17.0' },
          atLeast: 1.5,
          says: 'on grpc-go 1.18.0 the stall after a reset lasts at least half as long again as on 1.17.0',
        },
      ],
    },
  },
  {
    id: 'go-session-pool-exhaustion',
    title: 'Go 1.33.0: a session pool of 100 caps throughput while the server stays flat',
    language: 'go',
    links: [
      {
        label: 'Google Cloud blog: Debugging Cloud Spanner latency using OpenCensus and the Go client',
        url: 'https://cloud.google.com/blog/topics/developers-practitioners/debugging-cloud-spanner-latency-using-opencensus-and-go-client-library',
      },
    ],
    affected: '1.33.0 with MaxOpened 100 (any pooled client at its pool maximum)',
    fixed: 'not a bug but a configuration: a larger pool, or a client on one multiplexed session (1.96.1)',
    fixedVersion: '1.96.1',
    trigger: 'Read and write agents with think time, more than 100 sessions can serve.',
    status: 'reproduced',
    seen: '2026-11-24, 64f9ec7: at 400 agents 1.96.1 served 533 ops/s, 1.33.0 (pool max 100) 274 (p99 3.3 s) and Node 9.0.0 282; at 50 agents all 67-68.',
    spec: {
      ...preset('session-pool-exhaustion'),
      name: 'Reproduction: Go session pool exhaustion',
      expectations: [
        {
          kind: 'ratio',
          metric: 'qps',
          of: { version: '1.96.1', level: 400 },
          to: { version: '1.33.0', level: 400 },
          atLeast: 1.5,
          says: 'at 400 agents the multiplexed client serves half as much again',
        },
        { kind: 'ratio', metric: 'qps', of: { version: '1.96.1', level: 50 }, to: { version: '1.33.0', level: 50 }, atMost: 1.15, says: 'at 50 agents, under the pool, both serve alike' },
      ],
    },
  },
  {
    id: 'go-slow-session-creation',
    title: "Go: 600 ms session creation makes a cold client's first operations wait",
    language: 'go',
    links: [{ label: 'Mercari: Days of fighting Spanner at Merpay', url: 'https://engineering.mercari.com/blog/entry/2019-04-18-090000/' }],
    affected: 'every client that creates sessions when it starts (Go 1.33.0 with and without a pool minimum; 1.96.1 creates its one multiplexed session)',
    fixed: 'not a client bug: a client that creates a session per request pays it every time, one that keeps its sessions pays it once',
    trigger: 'CreateSession and BatchCreateSessions take 600 ms; the first operations of a cold client are measured (no warm-up).',
    status: 'reproduced',
    seen: '2026-11-24, f1bc887: sessions at 600 ms, no warm-up: the slowest operation 637 ms for 1.33.0 (with and without a pool minimum of 100) and 633 ms for 1.96.1; the median 11 ms for all three.',
    spec: {
      ...preset('slow-session-creation'),
      name: 'Reproduction: slow session creation',
      expectations: [
        { kind: 'bound', metric: 'maxMs', cells: { version: '1.33.0', configuration: 'client default' }, atLeast: 600, says: "a cold 1.33.0's first operations wait for the 600 ms sessions" },
        { kind: 'bound', metric: 'maxMs', cells: { version: '1.96.1' }, atLeast: 600, says: "so do 1.96.1's, for its multiplexed session" },
        { kind: 'bound', metric: 'p50Ms', cells: { version: '1.33.0', configuration: 'client default' }, atMost: 40, says: 'once created, sessions are kept: the median operation does not wait' },
      ],
    },
  },
];
