// What the database's JSON columns hold, as zod schemas: packages/db parses every JSON column it
// reads with these (or with the schema that wrote it: JobSpecSchema, GateSpecSchema,
// ConfigurationSchema, ProgressMessageSchema), so no reader casts a column and a row that does not
// parse is reported as invalid instead of breaking a page.
import { z } from 'zod';
import { GATE_METRICS, type GateEvaluation } from './gate/gate-stats';
import { OperationResultSchema, TimelinePointSchema } from './protocol';
import { startedByRunner, type Target } from './targets/index';
import { OPERATIONS, toFieldIssues, type FieldIssue, type Language, type ParseResult } from './job/spec';

/** What a stored job, gate, watch or calibration id can be: anything else (a NUL, %00 decoded, a path) names nothing and never reaches a query. */
export const STORED_ID = /^[0-9a-z]{1,40}$/;

/** Where a job ran (Job.environment), as the runner records it; rows written by hand may lack fields. */
export const JobEnvironmentSchema = z.looseObject({
  host: z.string().optional(),
  cores: z.number().optional(),
  cpuModel: z.string().optional(),
  memoryGiB: z.number().optional(),
  platform: z.string().optional(),
  /** Each client language's toolchain version, null where the runner had none. */
  toolchains: z.record(z.string(), z.string().nullable()).optional(),
  /** The version of each target kind's software the runner starts itself (startedByRunner), null where unknown. */
  targets: z.record(z.string(), z.string().nullable()).optional(),
  commit: z.string().nullable().optional(),
  /** How the runner ran uploaded builds' drivers (sandboxed, unsandboxed by its operator's choice, refused): recorded for jobs that run one. */
  builds: z.string().optional(),
  /** The runtime options the runner's operator gave each language's drivers (SCB_JAVA_DRIVER_OPTIONS, …), where any were given. */
  driverOptions: z.record(z.string(), z.string()).optional(),
});
export type JobEnvironment = z.output<typeof JobEnvironmentSchema>;

/** The languages whose toolchains rows stored before `toolchains` held under their own names. */
const LEGACY_TOOLCHAINS = ['node', 'java', 'go'];

/**
 * The toolchains a job ran with, by language: `toolchains`, or for rows stored before it, the
 * language-named fields they had.
 */
export function toolchainsOf(env: JobEnvironment): Partial<Record<Language, string | null>> {
  const legacy = LEGACY_TOOLCHAINS.filter((l) => typeof env[l] === 'string' || env[l] === null).map((l) => [l, env[l] as string | null]);
  return { ...Object.fromEntries(legacy), ...env.toolchains };
}

/**
 * The target software versions a job ran with, by kind: `targets`, or for rows stored before it, `emulator`
 * (beside `targets`, `emulator` is only what the API answers for older tools: environmentAsAnswered).
 */
export function targetVersionsOf(env: { emulator?: unknown; targets?: unknown } | null | undefined): Record<string, string | null> {
  if (!env) return {};
  if (env.targets && typeof env.targets === 'object') return Object.fromEntries(Object.entries(env.targets).filter(([, v]) => typeof v === 'string' || v === null));
  return typeof env.emulator === 'string' || env.emulator === null ? { emulator: env.emulator as string | null } : {};
}

/**
 * The environment as GET /api/jobs/<id> answers it: `emulator`, the emulator's version as the API gave
 * it before `targets`, is kept beside them for the tools that read it.
 */
export function environmentAsAnswered(env: JobEnvironment | null): (JobEnvironment & { emulator: string | null }) | null {
  return env && { ...env, emulator: targetVersionsOf(env).emulator ?? null };
}

/** The version of the target's software the runner started for the job (startedByRunner); undefined where it started none or recorded none. */
export function runnerTargetVersion(target: Target, env: { emulator?: unknown; targets?: unknown } | null | undefined): string | null | undefined {
  return startedByRunner(target) ? targetVersionsOf(env)[target.kind] : undefined;
}

/** CellResult.errors: failed operations by gRPC code name. */
export const CellErrorsSchema = OperationResultSchema.shape.errors;

/** CellResult.timeline: the measured phase per second (the last bucket partial). */
export const CellTimelineSchema = z.array(TimelinePointSchema);

/**
 * What happened while a cell measured, as the target saw it, ms into the measured phase: a client
 * connection opened or closed; a schedule entry of the fake began or ended; faults the fake injected
 * (one event per second, RPC kind and code, at the second's start).
 */
export const CellEventSchema = z.discriminatedUnion('kind', [
  z.object({ atMs: z.number(), kind: z.enum(['connection-opened', 'connection-closed']), connection: z.number().int() }),
  z.object({ atMs: z.number(), kind: z.literal('schedule-change'), text: z.string() }),
  z.object({ atMs: z.number(), kind: z.literal('faults-injected'), rpc: z.string(), code: z.string(), count: z.number().int() }),
]);
export type CellEvent = z.output<typeof CellEventSchema>;
/** CellResult.events; null where the target does not tell (and for cells stored before). */
export const CellEventsSchema = z.array(CellEventSchema).nullable();

/** CellResult.tokens: the fake's credentials mode, RPCs by what their bearer token was; null otherwise. */
const count = z.number().int().min(0);
export const CellTokensSchema = z.object({ valid: count, missing: count, expired: count, invalid: count }).nullable();
export type CellTokens = z.output<typeof CellTokensSchema>;

/** The server's side of one operation kind: RPCs per operation, and the time per RPC. */
const ServerSideSchema = z.object({ rpcsPerOp: z.number(), p50Ms: z.number(), p99Ms: z.number() });

/** One operation kind of a cell's mix, measured: its latency summary and its errors. */
export const OperationSummarySchema = z.object({
  count: z.number(),
  qps: z.number(),
  p50Ms: z.number(),
  p90Ms: z.number(),
  p99Ms: z.number(),
  p999Ms: z.number(),
  maxMs: z.number(),
  errorCount: z.number(),
  errors: CellErrorsSchema,
  /**
   * The server's side (the fake's own accounting; absent where the target cannot tell): its RPCs of
   * this kind over the measured phase, per operation, and its time per RPC, arrival to answer.
   */
  server: ServerSideSchema.optional(),
  /**
   * The same as the client saw it: the server-timing header (Cloud Spanner's front end, the fake) of
   * the RPCs the kind's operations made, where the driver reads it. Background RPCs are not in it.
   */
  serverTiming: ServerSideSchema.optional(),
});
export type OperationSummary = z.output<typeof OperationSummarySchema>;

/** CellResult.uncorrected: an open loop's latencies from each operation's actual start; null for a closed loop. */
export const CellUncorrectedSchema = z.object({ p50Ms: z.number(), p90Ms: z.number(), p99Ms: z.number(), p999Ms: z.number(), maxMs: z.number() }).nullable();
export type CellUncorrected = NonNullable<z.output<typeof CellUncorrectedSchema>>;

/** CellResult.operations: per operation kind of the mix; null for cells stored before kinds were kept. */
export const CellOperationsSchema = z.partialRecord(z.enum(OPERATIONS), OperationSummarySchema).nullable();
export type CellOperations = NonNullable<z.output<typeof CellOperationsSchema>>;

// JSON has no NaN or Infinity: the runner stores an undefined change or interval as null; read back, it is NaN again.
const storedNumber = z
  .number()
  .nullable()
  .transform((v) => v ?? Number.NaN);
const VerdictSchema = z.enum(['pass', 'fail', 'inconclusive']);

const WorstRepeatJudgementSchema = z.looseObject({
  verdict: VerdictSchema,
  baselineWorst: storedNumber,
  bound: storedNumber,
  beyond: z.number(),
  candidateWorst: storedNumber,
  reason: z.string(),
});

const MetricJudgementSchema = z.looseObject({
  metric: z.enum(GATE_METRICS),
  concurrency: z.number(),
  limitPct: z.number(),
  baseline: z.array(storedNumber),
  candidate: z.array(storedNumber),
  baselineMedian: storedNumber,
  candidateMedian: storedNumber,
  changePct: storedNumber,
  ciPct: z.tuple([storedNumber, storedNumber]),
  confidence: z.number(),
  pValue: storedNumber.optional(),
  level: storedNumber.optional(),
  leftOut: z.looseObject({ baseline: z.number(), candidate: z.number() }).optional(),
  medianVerdict: VerdictSchema,
  worst: WorstRepeatJudgementSchema.nullable(),
  verdict: VerdictSchema,
  reason: z.string(),
});

const ErrorJudgementSchema = z.looseObject({
  concurrency: z.number(),
  allowedPts: z.number(),
  baselineWorstPct: storedNumber,
  candidatePct: z.array(storedNumber),
  beyond: z.number(),
  verdict: VerdictSchema,
  reason: z.string(),
});

const ModeCountSchema = z.looseObject({ bad: z.number(), of: z.number() });

/** A mode test's judgement (gate/gate-modes.ts, ModeJudgement). */
const ModeJudgementSchema = z.looseObject({
  concurrency: z.number(),
  bad: z.string(),
  repeatNoun: z.string(),
  baseline: ModeCountSchema,
  candidate: ModeCountSchema,
  unclassified: z.number(),
  test: z.literal('boschloo-one-sided'),
  pValue: storedNumber,
  level: storedNumber,
  verdict: VerdictSchema,
  persisting: z.boolean(),
  power: z.looseObject({ baselineRate: z.number(), candidateRate: z.number(), target: z.number(), power: storedNumber, needed: z.number().nullable() }),
  reason: z.string(),
  powerNote: z.string().nullable(),
});

/**
 * Gate.evaluation: the verdict with its reasons and per-metric judgements (gates stored before error
 * judgements have none; before mode judgements, none of those and no `persisting`).
 */
export const GateEvaluationSchema = z.looseObject({
  verdict: VerdictSchema,
  reasons: z.array(z.string()),
  metrics: z.array(MetricJudgementSchema),
  errors: z.array(ErrorJudgementSchema).default([]),
  modes: z.array(ModeJudgementSchema).optional(),
  persisting: z.boolean().optional(),
  method: z.string(),
});
export type StoredGateEvaluation = z.output<typeof GateEvaluationSchema>;

// A stored evaluation is a GateEvaluation: this line stops compiling when the two drift apart.
type Fits<T extends U, U> = T;
export type StoredGateEvaluationFits = Fits<StoredGateEvaluation, GateEvaluation>;

/** Parses a stored value with a schema: the value, or every issue with its dotted path. */
export function parseStored<S extends z.ZodType>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, issues: toFieldIssues(r.error) };
}

/** "stored spec is invalid: workload.measuredOps: give exactly one of ..." */
export function invalidText(what: string, issues: FieldIssue[]): string {
  return `${what} is invalid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
}
