import { z } from 'zod';
import { DEFAULT_TARGET, TargetSchema, targetCap, targetClientRefusal, targetRefusal } from '../targets/index';
import { RequirementsSchema } from './placement';
import { languageNames, refusedOption } from './languages';
import { languageInfo } from '../registry';
import { ExpectationSchema } from '../expect/expectation';
import { OPERATIONS, SEMVER, type Operation } from './names';
import { ResultSetSchema } from '../result-set/shape';

export { OPERATIONS, SEMVER, type Operation } from './names';

/** A client language's name: one a plug-in registered (job/languages.ts; the spec is checked against the registry). */
export type Language = string;
export const GRPC_GCP = ['on', 'off', 'default'] as const;
/**
 * Java's DecodeMode (java-spanner PR #2847, 6.59.0 on): DIRECT decodes every value as its row
 * arrives; LAZY_PER_ROW a row when the application first reads it; LAZY_PER_COL each value when read.
 */
export const DECODE_MODES = ['DIRECT', 'LAZY_PER_ROW', 'LAZY_PER_COL'] as const;
/**
 * The Node client's row formats: `rows` its default Row (an array of {name, value}, INT64 and FLOAT
 * values wrapped); `json` plain objects keyed by column name, numbers as JS numbers (`json: true`: it
 * throws for an INT64 outside Number.isSafeInteger); `json-wrapNumbers` plain objects, numbers
 * still wrapped (`json: true, jsonOptions: {wrapNumbers: true}`).
 */
export const NODE_ROWS = ['rows', 'json', 'json-wrapNumbers'] as const;
/**
 * How the Node driver's scan takes its rows from the client: `run` (`database.run()`, every row at once
 * when the query has ended) or `runStream` (`database.runStream()` iterated with `for await`, one row
 * at a time, the stream paused while the application reads a row, as an application that streams does).
 */
export const NODE_SCAN = ['run', 'runStream'] as const;
/**
 * The Python client's session pools (google.cloud.spanner_v1.pool): `fixed` FixedSizePool (its size
 * sessionPool.maxSessions, all created at start; the client's default), `bursty` BurstyPool (keeps up to
 * sessionPool.maxSessions, creates one more whenever it is empty), `pinging` PingingPool (a fixed pool
 * whose idle sessions a background thread pings).
 */
export const PYTHON_POOLS = ['fixed', 'bursty', 'pinging'] as const;
/** The tables each operation reads or writes: a real Spanner database must have them (we create none there). */
export const OPERATION_TABLES: Record<Operation, string[]> = { select1: [], readOnlyTxn: ['Players', 'Scores'], readWriteTxn: ['Scores'], pointRead: ['Players'], scan: [] };
export { PLAYERS } from '../catalogue';

/**
 * The Go client's two homes: its own module from v1.0.0 on, the monorepo cloud.google.com/go before
 * (v0.x, where the Mercari write-up's abort-backoff fix shipped). The version says which one.
 */
export const GO_MODULES = ['cloud.google.com/go/spanner', 'cloud.google.com/go'] as const;
export type GoModule = (typeof GO_MODULES)[number];

export function goModuleOf(version: string): GoModule {
  return version.startsWith('0.') ? 'cloud.google.com/go' : 'cloud.google.com/go/spanner';
}

const semver = (example: string) => z.string().regex(SEMVER, `must be a plain semver such as ${example}`);

/** A registered client language's name (checked when parsed: plug-ins register theirs at start). */
export const LanguageSchema = z.string().refine((l) => languageInfo(l) !== undefined, { error: () => `must be one of ${languageNames().join(', ')}` });

/** An uploaded build's id: the SHA-256 of its bytes (POST /api/artifacts). */
export const ARTIFACT_ID = /^sha256:[0-9a-f]{64}$/;
/** A candidate build's name in pages and Markdown (a pull request and commit): printable, one line. */
export const ArtifactLabelSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(80, 'must be at most 80 characters')
  .refine((l) => !/[\p{Cc}\p{Cf}]/u.test(l), 'must be one line of printable text');

export const ClientSchema = z
  .strictObject({
    language: LanguageSchema,
    /** The published version; with `artifact`, the version the build itself says (the server fills it from the upload). */
    version: z.string({ error: 'must be a plain semver such as 9.0.0, or name an uploaded build with artifact' }).regex(SEMVER, 'must be a plain semver such as 9.0.0'),
    /** An uploaded build (POST /api/artifacts) run in place of a published version. */
    artifact: z.string().regex(ARTIFACT_ID, "must be an uploaded build's id, sha256:<64 hex digits>").optional(),
    /** The build's name where it is shown (e.g. "PR 2345 @ 1a2b3c4"); only with artifact. */
    label: ArtifactLabelSchema.optional(),
    /** Go only, optional: the module, which must be the one the version belongs to (goModuleOf). */
    module: z.enum(GO_MODULES).optional(),
    /** Run the client on this version of its gRPC library instead of the one it requires: google.golang.org/grpc for Go, @grpc/grpc-js for Node (LanguageInfo.grpcPackage). */
    grpcVersion: semver('1.17.0').optional(),
  })
  .superRefine((c, ctx) => {
    if (c.module !== undefined && c.language !== 'go') ctx.addIssue({ code: 'custom', path: ['module'], message: 'only the go client has module' });
    if (c.label !== undefined && c.artifact === undefined) ctx.addIssue({ code: 'custom', path: ['label'], message: 'names an uploaded build: give it with artifact' });
    if (c.artifact !== undefined && c.grpcVersion !== undefined) ctx.addIssue({ code: 'custom', path: ['grpcVersion'], message: 'an uploaded build runs on the gRPC library it brings' });
    const pinnable = languageNames().filter((l) => languageInfo(l)?.grpcPackage);
    if (c.grpcVersion !== undefined && !languageInfo(c.language)?.grpcPackage)
      ctx.addIssue({ code: 'custom', path: ['grpcVersion'], message: `only the ${pinnable.join(' and ')} clients can be pinned to a gRPC version` });
    if (c.module && c.language === 'go' && !c.artifact && c.module !== goModuleOf(c.version)) {
      ctx.addIssue({
        code: 'custom',
        path: ['module'],
        message: `go client ${c.version} is in ${goModuleOf(c.version)}, not ${c.module} (versions 0.x are the monorepo cloud.google.com/go, 1.0.0 on cloud.google.com/go/spanner)`,
      });
    }
  });

/** "go 1.33.0", or "go 1.33.0 (grpc 1.18.0)" when the client is built against another grpc-go: a client in words, and its identity. */
export function clientText(c: { language: string; version: string; grpcVersion?: string | null; artifact?: string | null; label?: string | null }): string {
  if (c.artifact) return `${c.language} ${c.label ?? 'build'} (build ${artifactShort(c.artifact)} of ${c.version})`;
  return `${c.language} ${c.version}${c.grpcVersion ? ` (grpc ${c.grpcVersion})` : ''}`;
}

/** An artifact id as pages show it: sha256: and its first 12 hex digits. */
export const artifactShort = (id: string): string => id.slice(0, 'sha256:'.length + 12);

/**
 * Where a client stands on an across-versions axis: its version, or for an uploaded build its label
 * and short id (never the published version it was built from).
 */
export function clientVersionKey(c: { version: string; artifact?: string | null; label?: string | null }): string {
  return c.artifact ? `${c.label ?? 'build'} (${artifactShort(c.artifact)})` : c.version;
}

/**
 * One labelled set of client options. An option left out keeps the client version's default; an
 * option a client or version does not have fails that cell ("option X is not supported by ...").
 */
export const ConfigurationSchema = z.strictObject({
  label: z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters'),
  /** grpc-gcp channel pool: on, off, or whatever the client version does by default. */
  grpcGcp: z.enum(GRPC_GCP).default('default'),
  /** Java: SpannerOptions numChannels. Node: the grpc-gcp channel pool's maximum size. */
  numChannels: z.number().int().min(1).max(256).optional(),
  /** Java only: enableDynamicChannelPool(); it only takes effect when numChannels is not set. */
  dynamicChannelPool: z.boolean().optional(),
  /** Use multiplexed sessions (versions that have the switch). */
  multiplexedSessions: z.boolean().optional(),
  /** Session pool options, for versions that have a pool. */
  sessionPool: z
    .strictObject({
      minSessions: z.number().int().min(0).max(10_000).optional(),
      maxSessions: z.number().int().min(1).max(10_000).optional(),
      /** Idle sessions the pool keeps: Go MaxIdle, Java setMaxIdleSessions, Node maxIdle. */
      maxIdle: z.number().int().min(0).max(10_000).optional(),
      writeSessionsFraction: z.number().min(0).max(1).optional(),
      /** Go only: TrackSessionHandles, the pool keeps the stack of every session taken out (for leak reports). */
      trackSessionHandles: z.boolean().optional(),
    })
    .optional(),
  /** Go only: each operation's own deadline, as an application's context timeout; an operation past it fails. */
  operationTimeoutMs: z.number().min(1).max(3_600_000).optional(),
  /** Java only (google-cloud-spanner 6.59.0 on): SpannerOptions.Builder.setDecodeMode, when a result's values are decoded. */
  decodeMode: z.enum(DECODE_MODES).optional(),
  /** Node only: the rows the scan operation's query asks for, as @google-cloud/spanner's `json` and `jsonOptions.wrapNumbers` query options. */
  nodeRows: z.enum(NODE_ROWS).optional(),
  /** Node only: how the scan operation's application takes its rows (NODE_SCAN); `run` when not set. */
  nodeScan: z.enum(NODE_SCAN).optional(),
  /**
   * Go only (cloud.google.com/go/spanner 1.54.0 on): spanner.UseNumberWithJSONDecoderEncoder(true), so
   * that JSON numbers decode as json.Number, every digit kept, instead of float64 (the client's default).
   */
  goJsonUseNumber: z.boolean().optional(),
  /** Python only: the session pool class (PYTHON_POOLS); the client's default FixedSizePool when not set. */
  pythonPool: z.enum(PYTHON_POOLS).optional(),
  /** Python only (google-cloud-spanner 3.51.0 on): execute_sql(lazy_decode=True), the scan's values decoded only when read. */
  pythonLazyDecode: z.boolean().optional(),
});

/** An operation count: fixed, or max(min, perConcurrency x C) so that bursts scale with concurrency. */
export const OpsSchema = z.union([z.number().int().min(0).max(10_000_000), z.strictObject({ min: z.number().int().min(0).max(10_000_000), perConcurrency: z.number().min(0).max(100_000) })]);
export type Ops = z.infer<typeof OpsSchema>;

export function opsAt(ops: Ops, concurrency: number): number {
  return typeof ops === 'number' ? ops : Math.max(ops.min, Math.ceil(ops.perConcurrency * concurrency));
}

/** The pause of an agent before each operation: the same every time, or exponential with that mean. */
export const ThinkTimeSchema = z.strictObject({
  ms: z.number().min(0).max(60_000),
  distribution: z.enum(['fixed', 'exponential']).default('fixed'),
});
export type ThinkTime = z.output<typeof ThinkTimeSchema>;

/**
 * How operations arrive in an open loop (the job's `arrivalRates`): Poisson (exponential gaps, as
 * independent users arrive) or uniform gaps; at most `maxOutstanding` operations run at once, and an
 * arrival past it waits for one to end (counted, never dropped), its wait part of its latency.
 */
export const ArrivalsSchema = z.strictObject({
  distribution: z.enum(['poisson', 'uniform']).default('poisson'),
  maxOutstanding: z.number().int().min(1, 'must be at least 1').max(5000, 'must be at most 5000').default(1000),
});
export type Arrivals = z.output<typeof ArrivalsSchema>;

export const WorkloadSchema = z
  .strictObject({
    /** The one operation every agent repeats; `mix`, when given, replaces it. */
    operation: z.enum(OPERATIONS).default('select1'),
    /** Each agent picks each operation with probability weight / sum of weights. */
    mix: z
      .array(z.strictObject({ operation: z.enum(OPERATIONS), weight: z.number().positive().max(1000) }))
      .min(1, 'needs at least one operation with a weight above 0')
      .max(OPERATIONS.length)
      .optional(),
    /** Agents (the concurrency) pause this long before each operation; none by default (a closed loop). */
    thinkTime: ThinkTimeSchema.optional(),
    /** An open loop's arrivals (with the job's `arrivalRates`; filled in with its defaults there). */
    arrivals: ArrivalsSchema.optional(),
    /** Operations run at the target concurrency before measuring (the burst that binds channels). */
    warmupOps: OpsSchema.default(200),
    measuredOps: OpsSchema.optional(),
    durationSeconds: z.number().min(0.5).max(3600).optional(),
    /** The shape of the result `scan` queries: rows, columns of every Spanner type, chunking, how much the application reads. */
    resultSet: ResultSetSchema.optional(),
  })
  .superRefine((w, ctx) => {
    const scans = (w.mix ? w.mix.map((m) => m.operation) : [w.operation]).includes('scan');
    if (scans && !w.resultSet) ctx.addIssue({ code: 'custom', path: ['resultSet'], message: 'is required by the scan operation: give its rows and columns' });
    if (!scans && w.resultSet) ctx.addIssue({ code: 'custom', path: ['resultSet'], message: 'is the result of the scan operation, which the workload does not run' });
    const seen = new Set<string>();
    w.mix?.forEach((m, i) => {
      if (seen.has(m.operation)) ctx.addIssue({ code: 'custom', path: ['mix', i, 'operation'], message: `${m.operation} is already in the mix` });
      seen.add(m.operation);
    });
    if ((w.measuredOps === undefined) === (w.durationSeconds === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['measuredOps'], message: 'give exactly one of measuredOps or durationSeconds' });
    }
  });

export const PAIRINGS = ['cross', 'zip'] as const;

/** A release gate's two arms; a gate's job marks every cell with the arm it belongs to. */
export const ARMS = ['baseline', 'candidate'] as const;
export type Arm = (typeof ARMS)[number];

export const JobSpecSchema = z
  .strictObject({
    name: z.string().trim().max(120).optional(),
    target: TargetSchema.default(() => ({ ...DEFAULT_TARGET })),
    clients: z.array(ClientSchema).min(1, 'list at least one client').max(20),
    configurations: z.array(ConfigurationSchema).min(1, 'list at least one configuration').max(20),
    /** A closed loop's agents per cell: one cell per value. Give this or `arrivalRates`. */
    concurrency: z.array(z.number().int('must be a whole number').min(1, 'must be at least 1').max(2000, 'must be at most 2000')).min(1, 'list at least one concurrency').max(20).optional(),
    /** An open loop's operations per second (real time, whatever the time scale): one cell per value, in place of `concurrency`. */
    arrivalRates: z.array(z.number().int('must be a whole number').min(1, 'must be at least 1').max(20_000, 'must be at most 20000')).min(1, 'list at least one rate').max(20).optional(),
    workload: WorkloadSchema,
    repeats: z.number().int().min(1).max(50).default(1),
    /** Multiplies the target's latencies (and durations): ideal qps stays concurrency / latency. */
    timeScale: z.number().min(0.1).max(100).default(1),
    /**
     * cross: every client runs every configuration. zip: client i runs configuration i only, so the
     * same version may appear twice (a release gate's baseline and candidate arms, A/A included).
     */
    pairing: z.enum(PAIRINGS).default('cross'),
    /** With pairing zip: the gate arm of each client/configuration pair (a release gate's job). */
    arms: z.array(z.enum(ARMS)).optional(),
    /** What the runner taking the job must have besides its clients' toolchains and target. */
    requirements: RequirementsSchema.optional(),
    /** Comparisons of its own results the job is expected to show (a reproduction's: the bug on the affected version, not on the fixed). */
    expectations: z.array(ExpectationSchema).max(10).optional(),
    /** The reproduction (reproductions/) this job runs, for its last-run status. */
    reproduction: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,60}$/, 'must be a reproduction id')
      .optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.concurrency === undefined) === (s.arrivalRates === undefined)) {
      ctx.addIssue({ code: 'custom', path: [s.concurrency ? 'arrivalRates' : 'concurrency'], message: 'give exactly one of concurrency (a closed loop) or arrivalRates (an open loop)' });
    }
    if (s.arrivalRates && s.workload.thinkTime) {
      ctx.addIssue({ code: 'custom', path: ['workload', 'thinkTime'], message: 'is for the agents of a closed loop; an open loop (arrivalRates) has none' });
    }
    if (s.concurrency && s.workload.arrivals) {
      ctx.addIssue({ code: 'custom', path: ['workload', 'arrivals'], message: 'is for an open loop: give arrivalRates in place of concurrency' });
    }
    if (s.workload.resultSet && s.target.kind === 'spanner') {
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'resultSet'],
        message: "scan runs on the fake and the emulator: the runner creates no tables in a Cloud Spanner database, and the result's table (its generated rows) is not one a database already has",
      });
    }
    if (s.pairing === 'zip' && s.clients.length !== s.configurations.length) {
      ctx.addIssue({ code: 'custom', path: ['configurations'], message: `pairing zip needs one configuration per client (${s.clients.length} clients, ${s.configurations.length} configurations)` });
    }
    // Pairs that can never run: refused now rather than failing every cell later.
    s.clients.forEach((c, i) => {
      const refused = targetClientRefusal(s.target, c);
      if (refused) ctx.addIssue({ code: 'custom', path: ['clients', i], message: refused });
    });
    s.configurations.forEach((configuration, i) => {
      const clients = s.pairing === 'zip' ? [s.clients[i]].filter((c) => c !== undefined) : s.clients;
      const context = { workload: { operations: workloadMix(s.workload).map((m) => m.operation), resultSet: s.workload.resultSet } };
      const refused = clients.map((c) => refusedOption(c.language, configuration, { ...context, version: c.version }) ?? targetRefusal(s.target, c, configuration)).find((r) => r !== null);
      if (refused) ctx.addIssue({ code: 'custom', path: ['configurations', i, refused.option], message: refused.message });
    });
    // A cost cap the workload would certainly exceed is refused now, with the figures.
    const cap = targetCap(s.target);
    if (cap) {
      const c = Math.max(...loadLevels(s));
      const ops = opsAt(s.workload.warmupOps, c) + (s.workload.measuredOps !== undefined ? opsAt(s.workload.measuredOps, c) : 0);
      if (ops > cap.ops)
        ctx.addIssue({
          code: 'custom',
          path: ['target', 'maxOpsPerCell'],
          message: `the workload runs ${ops} operations per cell at ${levelText(s, c)} (warm-up and measured), more than the cap of ${cap.ops}`,
        });
      if (s.workload.durationSeconds !== undefined && s.workload.durationSeconds * 1000 > cap.ms) {
        ctx.addIssue({ code: 'custom', path: ['target', 'maxSecondsPerCell'], message: `the workload measures ${s.workload.durationSeconds} s per cell, longer than the cap of ${cap.ms / 1000} s` });
      }
    }
    // An expectation reads cells the job runs: a side that names none is a typo, refused now.
    s.expectations?.forEach((e, i) => {
      const sides =
        e.kind === 'ratio'
          ? ([
              ['of', e.of],
              ['to', e.to],
            ] as const)
          : ([['cells', e.cells]] as const);
      for (const [side, sel] of sides) {
        const at = ['expectations', i, side];
        if (
          !s.clients.some(
            (c) =>
              (sel.language === undefined || c.language === sel.language) &&
              (sel.version === undefined || c.version === sel.version) &&
              (sel.grpcVersion === undefined || (c.grpcVersion ?? '') === sel.grpcVersion),
          )
        )
          ctx.addIssue({ code: 'custom', path: at, message: 'names no client of this job (language, version, grpcVersion)' });
        if (sel.configuration !== undefined && !s.configurations.some((c) => c.label === sel.configuration))
          ctx.addIssue({ code: 'custom', path: [...at, 'configuration'], message: 'is no configuration label of this job' });
        if (sel.operation !== undefined && !workloadMix(s.workload).some((m) => m.operation === sel.operation))
          ctx.addIssue({
            code: 'custom',
            path: [...at, 'operation'],
            message: `is not in the workload's mix (${workloadMix(s.workload)
              .map((m) => m.operation)
              .join(', ')})`,
          });
        if (sel.level !== undefined && !loadLevels(s).includes(sel.level))
          ctx.addIssue({ code: 'custom', path: [...at, 'level'], message: `is not one of the job's load levels (${loadLevels(s).join(', ')})` });
      }
    });
    if (s.arms && (s.pairing !== 'zip' || s.arms.length !== s.clients.length)) {
      ctx.addIssue({ code: 'custom', path: ['arms'], message: `needs pairing zip and one arm per client (${s.clients.length})` });
    }
    // A column of the results is a client, a configuration and an arm: no two may be the same.
    const columns = s.configurations.map((c, i) => (s.pairing === 'zip' ? [s.arms?.[i], s.clients[i]?.language, s.clients[i]?.version, c.label] : [c.label]).join('\u0000'));
    if (new Set(columns).size !== columns.length) {
      ctx.addIssue({ code: 'custom', path: ['configurations'], message: s.pairing === 'zip' ? 'two pairs have the same client, configuration label and arm' : 'configuration labels must be unique' });
    }
  })
  // An open loop's arrivals take their defaults, so a stored spec says how its operations arrived.
  .transform((s) => (s.arrivalRates && !s.workload.arrivals ? { ...s, workload: { ...s.workload, arrivals: ArrivalsSchema.parse({}) } } : s));

/** A spec's load levels, one cell per value (and per client, configuration, repeat): agents of a closed loop, or an open loop's operations per second. */
export function loadLevels(s: { concurrency?: number[]; arrivalRates?: number[] }): number[] {
  return s.arrivalRates ?? s.concurrency ?? [];
}

/** Whether a spec's cells are an open loop: their level is an arrival rate, not a concurrency. */
export function isOpenLoop(s: { arrivalRates?: number[] }): boolean {
  return s.arrivalRates !== undefined;
}

/** What a spec's load levels are, for a table's or chart's axis. */
export function levelName(s: { arrivalRates?: number[] }): string {
  return isOpenLoop(s) ? 'arrivals (ops/s)' : 'concurrency';
}

/** A load level in words: "C=50", or "100 ops/s" for an open loop. */
export function formatLevel(level: number, open: boolean): string {
  return open ? `${level} ops/s` : `C=${level}`;
}

/** A spec's load level in words (formatLevel). */
export function levelText(s: { arrivalRates?: number[] }, level: number): string {
  return formatLevel(level, isOpenLoop(s));
}

export type JobSpec = z.output<typeof JobSpecSchema>;
export type JobSpecInput = z.input<typeof JobSpecSchema>;
export type Client = z.output<typeof ClientSchema>;
export type Configuration = z.output<typeof ConfigurationSchema>;

export interface FieldIssue {
  path: string;
  message: string;
}
export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

const NUL = '\u0000';
/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Deeper than any spec: a walk (and zod) never recurses through an attacker's nesting. */
export const MAX_SPEC_DEPTH = 32;

/** Why a string cannot be stored: PostgreSQL refuses NUL and lone UTF-16 surrogates in text and JSON. */
function unstorable(s: string): string | null {
  if (s.includes(NUL)) return 'must not contain the NUL character (\\u0000)';
  if (s.search(LONE_SURROGATE) >= 0) return 'must be valid Unicode (it holds a lone UTF-16 surrogate)';
  return null;
}

/**
 * Text PostgreSQL cannot store (NUL, lone surrogates, in values and keys) and nesting deeper than
 * MAX_SPEC_DEPTH: refused up front, field by field, like any other bad value. Iterative, so no input
 * can exhaust the stack.
 */
export function nulIssues(input: unknown): FieldIssue[] {
  const at = (p: string[]) => p.join('.') || '(root)';
  const issues: FieldIssue[] = [];
  const todo: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  while (todo.length > 0) {
    const { value, path } = todo.pop()!;
    if (typeof value === 'string') {
      const why = unstorable(value);
      if (why) issues.push({ path: at(path), message: why });
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (path.length >= MAX_SPEC_DEPTH) {
      issues.push({ path: at(path), message: `nested deeper than ${MAX_SPEC_DEPTH} levels` });
      continue;
    }
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    // Pushed last first, so issues come in the document's order.
    for (const [k, v] of entries.reverse()) {
      const why = unstorable(k);
      if (why) issues.push({ path: at([...path, k.replaceAll(NUL, '\\u0000').replace(LONE_SURROGATE, '\uFFFD')]), message: `field names ${why}` });
      else todo.push({ value: v, path: [...path, k] });
    }
  }
  return issues;
}

/** Validates a spec with `schema`: text PostgreSQL cannot store first, then every bad field with a dotted path. */
export function parseSpecWith<T>(schema: z.ZodType<T>, input: unknown): ParseResult<T> {
  const nul = nulIssues(input);
  if (nul.length > 0) return { ok: false, issues: nul };
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, issues: toFieldIssues(r.error) };
}

/** Validates a job spec; every bad field is reported with a dotted path (e.g. clients.0.version). */
export function parseJobSpec(input: unknown): ParseResult<JobSpec> {
  return parseSpecWith(JobSpecSchema, input);
}

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((i) => {
    const at = (extra: string[]) => [...i.path.map(String), ...extra].join('.') || '(root)';
    // One issue per unknown field, at that field's path.
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => ({ path: at([k]), message: 'unknown field' }));
    return [{ path: at([]), message: i.message }];
  });
}

/** What the agents run, in words: "select1", or "readOnlyTxn 4 : readWriteTxn 1, think 100 ms exponential". */
export function describeOperations(w: Pick<JobSpec['workload'], 'operation' | 'mix' | 'thinkTime' | 'arrivals'>): string {
  const mix = workloadMix(w);
  const ops = mix.length === 1 ? mix[0]!.operation : mix.map((m) => `${m.operation} ${m.weight}`).join(' : ');
  const think = w.thinkTime && w.thinkTime.ms > 0 ? `, think ${w.thinkTime.ms} ms${w.thinkTime.distribution === 'exponential' ? ' exponential' : ''}` : '';
  const open = w.arrivals ? `, open loop: ${w.arrivals.distribution} arrivals, at most ${w.arrivals.maxOutstanding} outstanding` : '';
  return ops + think + open;
}

/** The operations a workload runs, with their weights: its mix, or its one operation. */
export function workloadMix(w: Pick<JobSpec['workload'], 'operation' | 'mix'>): { operation: Operation; weight: number }[] {
  return w.mix ?? [{ operation: w.operation, weight: 1 }];
}
