import { z } from 'zod';

/**
 * The RPC kinds whose latency and faults are configured separately. `multiplexedSession` is a
 * CreateSession asking for a multiplexed session (its latency is `session`'s unless given); `session` the
 * other session RPCs.
 */
export const RPC_KINDS = ['session', 'multiplexedSession', 'query', 'read', 'begin', 'commit', 'rollback', 'batchDml'] as const;
export type RpcKind = (typeof RPC_KINDS)[number];
export const FAULT_CODES = ['ABORTED', 'UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED', 'INTERNAL', 'PERMISSION_DENIED'] as const;
export type FaultCode = (typeof FAULT_CODES)[number];
export const RETRY_INFO_ENCODINGS = ['both', 'trailer', 'status-details'] as const;
export type RetryInfoEncoding = (typeof RETRY_INFO_ENCODINGS)[number];

const ms = z.number().min(0).max(600_000);
/** One fault per RPC kind and code is 28; a schedule of a few dozen phases covers any scenario here. */
const MAX_FAULTS = 32;
const MAX_SCHEDULE = 64;

/** A fixed server time in ms, or a lognormal distribution given its p50 and p99. */
export const LatencySchema = z.union([ms, z.strictObject({ p50: ms, p99: ms }).refine((l) => l.p99 >= l.p50, { message: 'p99 must be at least p50', path: ['p99'] })]);
export type Latency = z.infer<typeof LatencySchema>;

export const LatencyByKindSchema = z.partialRecord(z.enum(RPC_KINDS), LatencySchema);

export const FaultSchema = z.strictObject({
  /** The RPC kind it hits. */
  kind: z.enum(RPC_KINDS),
  code: z.enum(FAULT_CODES),
  /** Share of that kind's RPCs that fail, 0..1. */
  ratio: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
  /**
   * Only the first N RPCs of the kind since the fake started (or was configured again) may fail: a
   * client's first CreateSession failing, later ones answered.
   */
  first: z.number().int().min(1).max(1_000_000).optional(),
  /** ABORTED only: the retry delay sent as google.rpc.RetryInfo. */
  retryDelayMs: ms.optional(),
  /**
   * ABORTED only: where RetryInfo travels. Spanner sends it both in its own trailer
   * (`google.rpc.retryinfo-bin`) and in the status details (`grpc-status-details-bin`); `trailer` or
   * `status-details` sends it one way only, for a client that reads only the other.
   */
  retryInfoIn: z.enum(RETRY_INFO_ENCODINGS).optional(),
  /**
   * The error as a trailers-only response, with no response headers before it. Default: true for every
   * code but ABORTED, which Spanner sends after its response headers (it reached the transaction).
   * Node's google-gax retries a stream that failed before its headers by itself, with seconds of backoff.
   */
  trailersOnly: z.boolean().optional(),
});
export type Fault = z.infer<typeof FaultSchema>;

/** Latency and faults that hold from `fromSeconds` to `untilSeconds` after start (or the last reset). */
export const ScheduleEntrySchema = z
  .strictObject({
    fromSeconds: z.number().min(0),
    untilSeconds: z.number().min(0).optional(),
    latency: LatencyByKindSchema.optional(),
    faults: z.array(FaultSchema).max(MAX_FAULTS, `at most ${MAX_FAULTS} faults`).optional(),
  })
  .refine((e) => e.untilSeconds === undefined || e.untilSeconds > e.fromSeconds, { message: 'must be after fromSeconds', path: ['untilSeconds'] });

/** What can change while the fake runs (admin API `PUT /config`). */
export const FakeBehaviourSchema = z.strictObject({
  /** Server time per RPC kind before the time scale; kinds left out take 0 (session RPCs) or `query`'s. */
  latency: LatencyByKindSchema.default({}),
  /** Multiplies every latency, schedule time and connection age. */
  timeScale: z.number().min(0.01).max(1000).default(1),
  faults: z.array(FaultSchema).max(MAX_FAULTS, `at most ${MAX_FAULTS} faults`).default([]),
  schedule: z.array(ScheduleEntrySchema).max(MAX_SCHEDULE, `at most ${MAX_SCHEDULE} schedule entries`).default([]),
  /** Delay before a new client connection is accepted (slow reconnect: DNS, handshake). */
  acceptDelayMs: ms.default(0),
  /**
   * Streamed answers (ExecuteStreamingSql, StreamingRead) mark their last PartialResultSet `last` (with a
   * resume token) and send the call's trailers this much later: a client that waits for the trailers
   * before it ends the result waits this long, one that reads `last` does not.
   */
  holdTrailersMs: ms.optional(),
});
export type FakeBehaviour = z.output<typeof FakeBehaviourSchema>;

/** Everything the fake is started with. */
export const FakeConfigSchema = FakeBehaviourSchema.extend({
  /** HTTP/2 MAX_CONCURRENT_STREAMS per connection (Spanner's front end: 100). */
  maxConcurrentStreams: z.number().int().min(1).max(100_000).default(100),
  /** After this age the server sends GOAWAY (the hourly reset seen in production, compressed). */
  maxConnectionAgeMs: z.number().min(100).optional(),
  /** How long calls on a connection past its age may still finish before it is closed. */
  maxConnectionAgeGraceMs: z.number().min(0).optional(),
  /**
   * A fault for the decoding check: in this part (1-based; the last if there are fewer) of every `scan`
   * answer one value is changed but stays valid for its type (a letter of a STRING, a BOOL flipped), so
   * each driver's checksum must catch it and fail the cell.
   */
  corruptResultSetPart: z.number().int().min(1).max(1_000_000).optional(),
  /** Rows seeded into the leaderboard tables (Players, Scores). */
  seedPlayers: z.number().int().min(0).max(1_000_000).default(1000),
});
export type FakeConfig = z.output<typeof FakeConfigSchema>;
export type FakeConfigInput = z.input<typeof FakeConfigSchema>;

/** "65ms", "1.5s", "2m" or a bare number of ms, as the CLI takes durations. */
export function parseDurationMs(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a duration (e.g. 65ms, 1.5s, 2m)`);
  const n = Number(m[1]);
  return m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n;
}
