// The driver protocol: the one contract between the runner and a driver of any language
// (docs/architecture.md, "Driver protocol"). A driver reads a DriverCell as JSON on stdin and writes
// JSON lines on stdout: progress at least once a second, then exactly one result.
import { z } from 'zod';
import { ClientSchema, ConfigurationSchema, OPERATIONS, ThinkTimeSchema } from './job/spec';
import { READ_MODES, SCALAR_TYPES } from './result-set/shape';

/** One kind of operation in the mix, picked with probability weight / sum of weights. */
export const OperationMixEntrySchema = z.strictObject({ kind: z.enum(OPERATIONS), weight: z.number().positive() });
export type OperationMixEntry = z.infer<typeof OperationMixEntrySchema>;
export type OperationKind = OperationMixEntry['kind'];

/**
 * The load shape. `closed`: `concurrency` agents, each claiming an operation of the phase's budget,
 * pausing `thinkTime` (if any), then running it. `open`: operations arrive at `ratePerSecond` on a
 * schedule drawn in advance (Poisson or uniform gaps), each started at its intended time unless
 * `maxOutstanding` are running, in which case it waits for one to end (first come, first served); its
 * latency counts from its intended start (coordinated omission corrected), and from its actual start in
 * `uncorrected`. A phase ends when its operation budget is used up, or, measuring by time, after
 * `durationMs` (operations claimed or arrived before then still run).
 */
export const LoadSchema = z.discriminatedUnion('shape', [
  z.strictObject({
    shape: z.literal('closed'),
    concurrency: z.number().int().min(1),
    // Scaled by the job's time scale, so not bounded as the spec's is.
    thinkTime: ThinkTimeSchema.extend({ ms: z.number().min(0) }).optional(),
    warmupOps: z.number().int().min(0),
    measuredOps: z.number().int().min(1).optional(),
    durationMs: z.number().min(1).optional(),
  }),
  z.strictObject({
    shape: z.literal('open'),
    ratePerSecond: z.number().positive(),
    distribution: z.enum(['poisson', 'uniform']),
    maxOutstanding: z.number().int().min(1),
    warmupOps: z.number().int().min(0),
    measuredOps: z.number().int().min(1).optional(),
    durationMs: z.number().min(1).optional(),
  }),
]);
export type Load = z.infer<typeof LoadSchema>;

/** What the runner gives a driver process on stdin: everything one cell needs, nothing more. */
export const DriverCellSchema = z.strictObject({
  /**
   * plaintext: no credentials (the fake, the emulator). tls: Application Default Credentials from the
   * driver's environment (real Spanner); `tlsRootsFile`, set only by tests, is a PEM file of the roots
   * the driver trusts (Node and Java: instead of the system's; Go: besides its certificate directories).
   */
  endpoint: z.strictObject({
    host: z.string(),
    port: z.number().int(),
    security: z.enum(['plaintext', 'tls']),
    tlsRootsFile: z.string().optional(),
    /** Reach the target by this name, resolved through this DNS server (host:port): a dns://<server>/<name>:<port> target; host is then the address it resolves to. */
    resolver: z.strictObject({ server: z.string(), name: z.string() }).optional(),
  }),
  database: z.strictObject({ projectId: z.string(), instanceId: z.string(), databaseId: z.string() }),
  /** The client as the job names it; its language is the driver's own, so any name a plug-in registered in the runner passes here. */
  client: ClientSchema.safeExtend({ language: z.string().min(1) }),
  configuration: ConfigurationSchema,
  load: LoadSchema,
  operations: z.array(OperationMixEntrySchema).min(1),
  /**
   * The `scan` operation's query (result-set/values.ts): the driver reads what `read` says of each row
   * (every column, the first, none), folds the values it decoded into each column's checksum, and ends
   * the cell with an error naming the column and its type when one differs from `checksum`, or the row
   * count from `rows`.
   */
  resultSet: z
    .strictObject({
      sql: z.string(),
      rows: z.number().int(),
      read: z.enum(READ_MODES),
      columns: z.array(z.strictObject({ name: z.string(), type: z.enum(SCALAR_TYPES), array: z.boolean(), checksum: z.number().int() })),
    })
    .optional(),
  /**
   * A cost cap (real Spanner): no operation starts once `ops` operations (warm-up and measured) have
   * started, nor `ms` after the first one started, nor once the client has created `sessions` sessions
   * (where a job-wide budget bounds them); the phase in progress ends there.
   */
  cap: z.strictObject({ ops: z.number().int().min(1), ms: z.number().min(1), sessions: z.number().int().min(1).optional() }).optional(),
  /** The driver exits by itself at this many ms after start, result or not. */
  deadlineMs: z.number().min(1000),
});
export type DriverCell = z.infer<typeof DriverCellSchema>;

export const ProgressMessageSchema = z.object({
  type: z.literal('progress'),
  phase: z.enum(['connecting', 'warmup', 'measure']),
  done: z.number(),
  total: z.number().optional(),
  elapsedMs: z.number(),
  qps: z.number(),
});
export type ProgressMessage = z.infer<typeof ProgressMessageSchema>;

/** One bucket of the measured phase: a second, except the last, which is what was left (`ms`). */
export const TimelinePointSchema = z.object({
  second: z.number(),
  count: z.number(),
  errors: z.number(),
  p99Ms: z.number(),
  ms: z.number().optional(),
  /**
   * The client's session pool at the end of the second, by the client's own names, where it exposes
   * them in-process (docs/job-spec.md, "Session pool figures": Go's OpenCensus pool views, Node's
   * `database.pool_`, Java's SessionPool).
   */
  pool: z.record(z.string(), z.number()).optional(),
  /** An open loop: the most operations waiting for the outstanding cap at once during the second. */
  waiting: z.number().int().optional(),
});
export type TimelinePoint = z.infer<typeof TimelinePointSchema>;

/** Counts and latencies of one operation kind, or of all of them together. */
export const OperationResultSchema = z.object({
  /** Successful operations. */
  count: z.number().int(),
  /** Failed operations by gRPC code name. */
  errors: z.record(z.string(), z.number().int()),
  /** HDR histogram of successful operation latencies in microseconds, compressed base64. */
  histogram: z.string(),
  /**
   * Per operation kind, where the driver reads it: the server-timing response header's time
   * ("gfet4t7; dur=N") of every RPC the kind's operations made, microseconds, and how many RPCs had it.
   */
  serverTiming: z.object({ rpcs: z.number().int(), histogram: z.string() }).optional(),
  /**
   * A `scan`'s (its kind's entry; every driver): per successful scan, the time from the scan's start
   * (the driver calling the client) to the first row the client handed the application (`firstRow`),
   * and to the application having read the last row (`lastRow`); HDR histograms in microseconds,
   * compressed base64. Node's `database.run()` hands every row over at once, when the last part has
   * arrived, so there the first row comes when the whole result has.
   */
  rowTimes: z.object({ firstRow: z.string(), lastRow: z.string() }).optional(),
});
export type OperationResult = z.infer<typeof OperationResultSchema>;

export const ResultMessageSchema = OperationResultSchema.extend({
  type: z.literal('result'),
  elapsedMs: z.number(),
  timeline: z.array(TimelinePointSchema),
  cpuMs: z.number(),
  /**
   * A driver that runs on one event loop (Node), while measuring: the share of the time the loop was
   * busy (0..1) and the p99 of its delay. Near 1, the loop, not the client library, limits the cell.
   */
  eventLoop: z.object({ utilization: z.number(), delayP99Ms: z.number() }).optional(),
  /**
   * Where the driver can count them (Node, Java): per gRPC channel of the client, every RPC it started
   * (sessions and warm-up included) and the most in flight at once, queued ones included.
   */
  clientChannels: z.array(z.object({ channel: z.number().int(), rpcs: z.number().int(), peakInFlight: z.number().int() })).optional(),
  /** An open loop: every latency from the operation's actual start instead of its intended one. */
  uncorrected: z.object({ histogram: z.string() }).optional(),
  /**
   * An open loop: how late operations started against their intended time, microseconds, of those that
   * did not wait for the outstanding cap (the driver's own lag).
   */
  scheduleLag: z.object({ histogram: z.string() }).optional(),
  /** An open loop: operations that arrived while `maxOutstanding` ran, and waited for one to end. */
  outstandingCapWaits: z.number().int().min(0).optional(),
  /** Which cost cap ended the cell early, if one did. */
  capped: z.enum(['ops', 'time', 'sessions']).optional(),
  /**
   * Sessions the client created on the server during the cell, from its start: one per CreateSession,
   * each session of a BatchCreateSessions answer. Every driver counts them (a gRPC interceptor or hook).
   */
  sessionsCreated: z.number().int().min(0).optional(),
  /** The driver process's peak resident memory at the end of the cell, bytes (the kernel's high-water mark: getrusage, VmHWM). */
  peakRssBytes: z.number().min(0).optional(),
  /**
   * Time the runtime spent collecting garbage over the measured phase, ms, where it reports it: Java's
   * collectors (their collection time), Go's stop-the-world pauses, Node's GC events.
   */
  gcMs: z.number().min(0).optional(),
  /** The same per operation kind of the mix; they add up to the totals above. */
  operations: z.partialRecord(z.enum(OPERATIONS), OperationResultSchema),
});
export type ResultMessage = z.infer<typeof ResultMessageSchema>;

export const DriverMessageSchema = z.discriminatedUnion('type', [ProgressMessageSchema, ResultMessageSchema]);
export type DriverMessage = z.infer<typeof DriverMessageSchema>;
