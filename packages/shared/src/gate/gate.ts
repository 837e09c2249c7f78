import { z } from 'zod';
import { optionText } from '../job/configuration';
import {
  ARMS,
  ConfigurationSchema,
  LanguageSchema,
  GRPC_GCP,
  OPERATIONS,
  SEMVER,
  ARTIFACT_ID,
  ArtifactLabelSchema,
  artifactShort,
  WorkloadSchema,
  workloadMix,
  parseSpecWith,
  type Arm,
  type Configuration,
  type JobSpecInput,
  type Language,
  type Operation,
  type ParseResult,
} from '../job/spec';
import { SCENARIO_PRESETS } from '../job/presets';
import { EVERY_TYPE_COLUMNS } from '../job/result-set-presets';
import { refusedOption } from '../job/languages';
import { TargetSchema } from '../targets/index';
import { CriteriaSchema, DEFAULT_GATE_LIMITS, LEVEL_CRITERIA, MIN_GATE_REPEATS, SCAN_CRITERIA, type Criteria, type LevelCriteria, type ScanCriteria } from './gate-stats';
import { GATE_REPRODUCTIONS, gateReproduction, REPRODUCTION_OWN_FIELDS, reproductionGateJobSpec } from './reproduction-gate';
import { shownChannels, summarizeChannels } from '../results/channels';
import { repeatsForModePower, type GateMode, type ModeCell } from './gate-modes';

export type { GateMode, ModeCell } from './gate-modes';
export { judgeUnfinished } from './gate-modes';

/**
 * A release gate: a candidate version against a baseline under one scenario, repeated with the
 * arms interleaved, judged metric by metric (see gate-stats.ts).
 */

/** The HTTP/2 stream limit of the fake (and of Spanner's front ends): a connection at it queues. */
export const STREAM_LIMIT = 100;
/** A collapsed cold start's busiest connection carries at least this share of the RPCs (32 channels: 1/32 = 3% when even). */
export const COLLAPSE_SHARE = 0.25;

/**
 * The affinity burst's collapse: the busiest connection reached the stream limit AND carried at least a
 * quarter of the cell's RPCs. The peak alone is not robust: a cold start that does not collapse can touch
 * 100 streams on one connection for an instant during the burst and go on at full speed (findings/
 * scenarios.md: "sometimes at 100 streams without queueing", hottest connection 5-23%); collapsed ones
 * stay pinned and carry 30-59% of the RPCs (9 of 50 6.105.0 cold starts, 247-348 qps), while 6.104.0's
 * carry 3.4-3.9% (150 cold starts; and the stored gates of 2026-11-26 here: 6.104.0 3.4-3.9%, one
 * candidate build's skewed but fast cold start 17% at 84-90 streams, 578 qps, one collapsed at 31% and
 * 100, 464 qps). The share is a count over the whole cell, not one instant; 25% sits in the gap and is
 * the reproduction java-affinity-burst's own bound. On a saturated machine the gap narrows (108 cold
 * starts of 6.105.0 and 6.106.0, 2026-11-26, findings/gate-calibration.md): four cold starts reached 100
 * streams at full speed with 20.4-24.5% of the RPCs (548-575 qps, p99 783-1,027 ms), while the collapsed
 * ones carried 25.2% or more and had slowed (at most 525 qps, p99 1,130 ms or more). The target's
 * counts are read where there are any (the fake caps a connection at 100; the client's own count
 * includes streams queued in the channel).
 */
export function affinityCollapsed(cell: ModeCell): boolean | null {
  const { channels } = shownChannels(cell.channels);
  if (!channels.length) return null;
  const s = summarizeChannels(channels);
  return s.hottestPeakInFlight >= STREAM_LIMIT && s.hottestShare >= COLLAPSE_SHARE;
}

/**
 * The affinity burst's assumed rates (findings/gates.md): 6.105.0 collapsed in 9 of 50 cold starts (about
 * one in five), 6.104.0 in none of 150. The gate should detect 0.2 against 0 four times in five at a
 * one-sided false-alarm rate of 4% (the mode test's share of the gate's 5%: gate-stats.ts, MODE_ALPHA_SHARE).
 */
export const AFFINITY_COLLAPSE_DETECTION: GateMode['detect'] = {
  baselineRate: 0,
  candidateRate: 0.2,
  alpha: 0.04,
  power: 0.8,
  source: 'docs/findings/gates.md: 6.105.0 collapsed in 9 of 50 cold starts, 6.104.0 in 0 of 150',
};

export interface GateScenario {
  id: string;
  title: string;
  description: string;
  /** Burst scenarios fail only in some cold starts: the worst-repeat criterion is on by default. */
  burst: boolean;
  /** Repeats per arm unless the gate says otherwise. */
  repeats: number;
  configuration: Omit<Configuration, 'label'>;
  /** Agents per cell (a closed loop), or `arrivalRates` (an open loop): one of them. */
  concurrency?: number[];
  arrivalRates?: number[];
  target: JobSpecInput['target'];
  workload: JobSpecInput['workload'];
  timeScale: number;
  /** The operation kind judged unless the gate says otherwise; absent: the cell's total. */
  operation?: Operation;
  /**
   * The scenario's own allowed changes, where the gate sets none: qps, p50 and p99 (else DEFAULT_GATE_LIMITS),
   * per load level (`levels`, each metric only where the gate sets no limit of that metric), and a scan
   * scenario's scan metrics (only while the gate runs the scenario's result set).
   */
  criteria?: ScenarioCriteria;
  /** A bimodal outcome per repeat, judged by its frequency (in place of the worst-repeat test). */
  mode?: GateMode;
  /** A client's own repeats or limits, where its noise or pace differs from the others' (calibrated). */
  languages?: Partial<Record<Language, LanguageTuning>>;
}

/** One language's own repeats or limits for a scenario, over the scenario's (GateScenario.languages). */
export interface LanguageTuning {
  repeats?: number;
  /** Over the scenario's own criteria: a limit it sets replaces the scenario's, a level's limits merge with the scenario's level. */
  criteria?: ScenarioCriteria;
  /** Why this client differs, with the measurement (findings/gate-calibration.md). */
  why: string;
}

/** A scenario's repeats and limits for one client: the scenario's, under that language's own (GateScenario.languages). */
export function scenarioFor(s: GateScenario, language: Language): { repeats: number; criteria?: ScenarioCriteria } {
  const tuning = s.languages?.[language];
  if (!tuning) return { repeats: s.repeats, ...(s.criteria && { criteria: s.criteria }) };
  const levels: Record<string, LevelCriteria> = { ...s.criteria?.levels };
  for (const [level, set] of Object.entries(tuning.criteria?.levels ?? {})) levels[level] = { ...levels[level], ...set };
  const criteria = { ...s.criteria, ...tuning.criteria, ...(Object.keys(levels).length && { levels }) };
  return { repeats: tuning.repeats ?? s.repeats, criteria };
}

/** A gate scenario running a field preset's target, workload and time scale (spec/presets.ts). */
function fromPreset(presetId: string, s: Omit<GateScenario, 'target' | 'workload' | 'timeScale' | 'concurrency' | 'arrivalRates'>): GateScenario {
  const p = SCENARIO_PRESETS.find((x) => x.id === presetId)!.spec;
  return { concurrency: p.concurrency, arrivalRates: p.arrivalRates, target: p.target, workload: p.workload, timeScale: p.timeScale ?? 1, ...s };
}

/**
 * A scenario's own allowed changes (GateScenario.criteria). `p99RisePct: null`: p99 is not judged unless
 * the gate sets a limit of it (result-set-decode: at one agent a scan's p99 is the machine's scheduling).
 */
export type ScenarioCriteria = Partial<Pick<Criteria, 'qpsDropPct' | 'p50RisePct' | 'levels'>> & { p99RisePct?: number | null } & ScanCriteria;

/** qps and p50 are always judged; p99 unless the scenario leaves it out and the gate sets no limit of it. */
type GateLimits = Required<Pick<Criteria, 'qpsDropPct' | 'p50RisePct'>> & Pick<Criteria, 'p99RisePct' | 'levels'>;

/**
 * A gate's qps, p50 and p99 limits: its own, else its scenario's, else DEFAULT_GATE_LIMITS; and its levels'
 * limits: the scenario's for a metric the gate sets no limit of, under the gate's own.
 */
function limitsOf(own: Criteria, scenario: ScenarioCriteria = {}, gateLevels?: number[]): GateLimits {
  const limits: GateLimits = {
    qpsDropPct: own.qpsDropPct ?? scenario.qpsDropPct ?? DEFAULT_GATE_LIMITS.qpsDropPct,
    p50RisePct: own.p50RisePct ?? scenario.p50RisePct ?? DEFAULT_GATE_LIMITS.p50RisePct,
    p99RisePct: own.p99RisePct ?? (scenario.p99RisePct === null ? undefined : (scenario.p99RisePct ?? DEFAULT_GATE_LIMITS.p99RisePct)),
  };
  const levels: Record<string, LevelCriteria> = {};
  // The scenario's levels that the gate runs (a gate may run other levels than its scenario's).
  for (const [level, set] of Object.entries(scenario.levels ?? {})) {
    if (gateLevels && !gateLevels.includes(Number(level))) continue;
    const kept = Object.fromEntries(Object.entries(set).filter(([k]) => own[k as keyof LevelCriteria] === undefined));
    if (Object.keys(kept).length) levels[level] = kept;
  }
  for (const [level, set] of Object.entries(own.levels ?? {})) levels[level] = { ...levels[level], ...set };
  return { ...limits, ...(Object.keys(levels).length && { levels }) };
}

let affinityRepeats: number | undefined;

export const GATE_SCENARIOS: GateScenario[] = [
  {
    id: 'affinity-burst',
    title: 'Affinity burst',
    description:
      'google-cloud-java PR #12725: a fresh client per repeat whose first traffic is a 400-way burst of SELECT 1 (warm-up 1,600 ops at C=400, then 6,000 measured), numChannels 32, 65 ms queries at time scale 10. The collapse hits about one 6.105.0 cold start in five here: the gate counts the collapsed cold starts of each arm and compares the counts with an exact test, with as many repeats as it takes to detect a collapse rate of 0.2 against none 4 times in 5.',
    burst: true,
    // The fewest repeats at which the exact test detects 0.2 against 0 with power 0.8 at 4% (27: power
    // 0.82; 10 repeats would have 0.12). Not monotone: 28 has 0.69 (the test is discrete). Worked out
    // when first read, not when the module loads: the search costs a tenth of a second of CPU, and every
    // process that imports @scb/shared (each fake thread and driver among them) would pay it.
    get repeats() {
      affinityRepeats ??= repeatsForModePower(AFFINITY_COLLAPSE_DETECTION) ?? 50;
      return affinityRepeats;
    },
    mode: {
      bad: 'collapsed',
      repeatNoun: 'cold start',
      rule: `the busiest connection reached the stream limit (${STREAM_LIMIT} in flight) and carried at least ${COLLAPSE_SHARE * 100}% of the RPCs`,
      classify: affinityCollapsed,
      detect: AFFINITY_COLLAPSE_DETECTION,
      reproduction: 'java-affinity-burst',
    },
    configuration: { grpcGcp: 'default', numChannels: 32 },
    concurrency: [400],
    target: { kind: 'fake', latencyMs: 65 },
    // The warm-up keeps cold-start JIT out of the measured p99; a collapse binds channels for the
    // client's whole life, so it is still measured after the warm-up.
    workload: { operation: 'select1', warmupOps: { min: 500, perConcurrency: 4 }, measuredOps: 6000 },
    timeScale: 10,
  },
  {
    id: 'steady-select1',
    title: 'Steady SELECT 1',
    description:
      "SELECT 1 at 65 ms on a warmed-up client, concurrency 10 and 50, 5 s measured. p50 may rise 2% at C=10 (Node's 5%, its noise), where a client's own time per operation shows; at C=50 p50 10% and p99 40%, what that level's noise supports here (findings/gate-calibration.md).",
    burst: false,
    repeats: 5,
    configuration: { grpcGcp: 'default' },
    // Calibrated on this 2-core machine (findings/gate-calibration.md, 2026-11-27): a +5% build raised p50 at
    // C=10 by 5.4-6.7% in Go, Java and Python while A/A gates moved it by at most 0.6%, so 2% there; at C=50
    // Java's A/A p50 intervals reached ±4-8% and p99's −25..+34%, which 2% and 20% could never call a pass.
    criteria: { p50RisePct: 2, levels: { '50': { p50RisePct: 10, p99RisePct: 40 } } },
    languages: {
      node: {
        criteria: { p50RisePct: 5 },
        why: "Node's p50 at C=10 varied by 1.3-2.1% between fresh processes (the others' by at most 0.9%): at 2% 6 of 9 A/A gates were inconclusive, at 5% 1 (re-judged, findings/gate-calibration.md, 2026-11-28).",
      },
    },
    concurrency: [10, 50],
    target: { kind: 'fake', latencyMs: 65 },
    workload: { operation: 'select1', warmupOps: 200, durationSeconds: 5 },
    timeScale: 1,
  },
  fromPreset('abort-backoff', {
    id: 'abort-backoff',
    title: 'Abort backoff (readWriteTxn)',
    description:
      'The abort-backoff preset (Mercari): read-write transactions at C=10 whose streaming queries are aborted (5%, RetryInfo 5 ms), 10 ms RPCs, 10 s measured; judged on readWriteTxn, whose p99 carries the wait after an abort.',
    burst: false,
    repeats: 5,
    configuration: { grpcGcp: 'default' },
    operation: 'readWriteTxn',
  }),
  {
    id: 'result-set-decode',
    title: 'Result-set decoding (every type, 100 rows)',
    description:
      "A single-use query of 100 rows × 20 columns, one per Spanner type and ARRAY<type>, every value decoded into the language's types and checked; one agent, 1 ms queries, 5 s measured. The client's decoding sets the pace: a slower decoder shows as fewer scans per second, a higher p50 and more CPU per row. p99 is not judged: at one agent on this machine it is the scheduler's.",
    burst: false,
    repeats: 5,
    configuration: { grpcGcp: 'default' },
    concurrency: [1],
    target: { kind: 'fake', latencyMs: 1 },
    workload: { operation: 'scan', warmupOps: 200, durationSeconds: 5, resultSet: { rows: 100, columns: EVERY_TYPE_COLUMNS } },
    timeScale: 1,
    operation: 'scan',
    // The decoding's own cost: CPU per row and qps may move by 15%, the first row's wait and p50 by a
    // fifth. Calibrated here (findings/gate-calibration.md, 2026-11-28): Java's and Go's CPU per row and
    // qps varied by 5-11% between fresh processes, so at 10% half of 20 A/A gates each were inconclusive
    // (none failed); at 15% 3 of Java's 20, and a CPU-bound +20% build is still caught. Rows per second
    // is not judged by default: at one agent it is the scans' qps times 100, already judged.
    // p99 is not judged: at one agent a scan's p99 (three times its p50 in Node) is the machine's
    // scheduling, the fake's own wake-up up to 8 ms late at its p99 (a fifth of Node's p99), never the
    // client's alone. A gate may still set a limit of it.
    criteria: { qpsDropPct: 15, p99RisePct: null, cpuPer1kRowsRisePct: 15, firstRowP50RisePct: 20 },
    languages: {
      node: {
        repeats: 10,
        why: "Node's qps and CPU per 1,000 rows varied by 8-11% between fresh processes, its p50 by 11-14%: at 5 repeats a side 1 of 10 A/A gates failed (CPU per 1,000 rows +16%) and 4 were inconclusive, the gates' notes asking about 10 a side (findings/gate-calibration.md, 2026-11-28).",
      },
    },
  },
];

/** The built-in scenarios, then every reproduction a gate can run (reproduction-gate.ts), by its id. */
export const GATE_SCENARIO_IDS = [...GATE_SCENARIOS.map((s) => s.id), ...GATE_REPRODUCTIONS.map((r) => r.id)] as [string, ...string[]];

export function gateScenario(id: string): GateScenario | undefined {
  return GATE_SCENARIOS.find((s) => s.id === id);
}

/** A gate scenario's title and description, built-in or a reproduction's. */
export function gateScenarioText(id: string): { title: string; description: string } | undefined {
  const r = gateReproduction(id);
  if (r) return { title: `reproduction ${r.id}`, description: `${r.title} (${r.links[0]?.label ?? ''}); the candidate runs in place of ${r.fixedVersion}, judged by the reproduction's expectations` };
  return gateScenario(id);
}

const version = z.string().regex(SEMVER, 'must be a plain semver such as 6.105.0');
// No defaults here: an option an arm leaves out must not override what the other layers set.
const ArmConfigurationSchema = ConfigurationSchema.omit({ label: true, grpcGcp: true })
  .partial()
  .extend({ grpcGcp: z.enum(GRPC_GCP).optional() });

/** Whether a gate (its own workload, else its scenario's) runs a scan of a result set: only then are the scan criteria judged. */
export function gateRunsScan(g: { scenario: string; workload?: unknown }): boolean {
  const workload = g.workload ?? gateScenario(g.scenario)?.workload;
  return typeof workload === 'object' && workload !== null && 'resultSet' in workload && Boolean(workload.resultSet);
}

export const GateSpecSchema = z
  .strictObject({
    name: z.string().trim().max(120).optional(),
    scenario: z.enum(GATE_SCENARIO_IDS, { message: `must be one of ${GATE_SCENARIO_IDS.join(', ')}` }),
    language: LanguageSchema,
    baseline: version,
    /** The candidate's version; with candidateArtifact, the build's own (the server fills it from the upload). */
    candidate: version,
    /** An uploaded build as the candidate (POST /api/artifacts), in place of a published version. */
    candidateArtifact: z.string().regex(ARTIFACT_ID, "must be an uploaded build's id, sha256:<64 hex digits>").optional(),
    /** The candidate build's name in pages and Markdown (e.g. "PR 4321 @ abc1234"); only with candidateArtifact. */
    candidateLabel: ArtifactLabelSchema.optional(),
    /** Options for both arms, over the scenario's own (e.g. numChannels 32). */
    configuration: ArmConfigurationSchema.optional(),
    /** Options for the candidate arm only, over `configuration`. */
    candidateConfiguration: ArmConfigurationSchema.optional(),
    /** Per arm; default: the scenario's (5; affinity-burst's from the power of its mode test, gate-modes.ts). Fewer than 3 can never decide; a reproduction's runs its own (1). */
    repeats: z.number().int().min(1, 'must be at least 1').max(50).optional(),
    /** Overrides of the scenario, for small gates (tests) or other shapes of the same scenario. */
    concurrency: z.array(z.number().int().min(1).max(2000)).min(1).max(10).optional(),
    /** An open loop's rates (ops/s) in place of the scenario's concurrency or rates. */
    arrivalRates: z.array(z.number().int().min(1).max(20_000)).min(1).max(10).optional(),
    target: TargetSchema.optional(),
    workload: WorkloadSchema.optional(),
    timeScale: z.number().min(0.1).max(100).optional(),
    /** The operation kind of the workload's mix whose figures are judged; default: the scenario's, else the cell total. */
    operation: z.enum(OPERATIONS, { message: `must be one of ${OPERATIONS.join(', ')}` }).optional(),
    criteria: CriteriaSchema.default(CriteriaSchema.parse({})),
  })
  .superRefine((g, ctx) => {
    if (g.candidateLabel !== undefined && g.candidateArtifact === undefined)
      ctx.addIssue({ code: 'custom', path: ['candidateLabel'], message: 'names an uploaded build: give it with candidateArtifact' });
    const r = gateReproduction(g.scenario);
    if (r) {
      if (g.candidateArtifact && r.spec.clients.some((c) => c.version === g.candidate))
        ctx.addIssue({
          code: 'custom',
          path: ['candidateArtifact'],
          message: `the build says it is ${g.candidate}, a version reproduction ${r.id} runs itself: its cells could not be told apart (give the build a version of its own, e.g. a -SNAPSHOT)`,
        });
      if (g.language !== r.language) ctx.addIssue({ code: 'custom', path: ['language'], message: `must be ${r.language}: reproduction ${r.id} runs that client` });
      for (const field of REPRODUCTION_OWN_FIELDS)
        if (g[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `is the reproduction's own (${r.id}): a reproduction scenario takes no ${field}` });
      return;
    }
    if (g.repeats !== undefined && g.repeats < MIN_GATE_REPEATS) ctx.addIssue({ code: 'custom', path: ['repeats'], message: `must be at least ${MIN_GATE_REPEATS}: fewer repeats can never decide` });
    const s = gateScenario(g.scenario);
    const repeats = g.repeats ?? (s ? scenarioFor(s, g.language).repeats : 0);
    if (g.criteria.worstRepeatCount > repeats) {
      ctx.addIssue({ code: 'custom', path: ['criteria', 'worstRepeatCount'], message: `must be at most the repeats per arm (${repeats})` });
    }
    if (g.concurrency && g.arrivalRates) ctx.addIssue({ code: 'custom', path: ['arrivalRates'], message: 'give concurrency or arrivalRates, not both' });
    if (!s) return;
    if (g.criteria.badModeRate !== undefined && !s.mode) ctx.addIssue({ code: 'custom', path: ['criteria', 'badModeRate'], message: `scenario ${g.scenario} has no bimodal outcome to judge` });
    else if (s.mode && g.criteria.badModeRate !== undefined && g.criteria.badModeRate <= s.mode.detect.baselineRate)
      ctx.addIssue({ code: 'custom', path: ['criteria', 'badModeRate'], message: `must be above the scenario's assumed baseline rate (${s.mode.detect.baselineRate})` });
    if (!gateRunsScan(g))
      for (const field of SCAN_CRITERIA)
        if (g.criteria[field] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['criteria', field],
            message: `judges a scan's result set: the gate's workload runs none (scenario ${g.scenario}${g.workload ? ', workload overridden' : ''})`,
          });
    const levels = gateLevels(g, s);
    for (const level of Object.keys(g.criteria.levels ?? {}))
      if (/^[0-9]+$/.test(level) && !levels.includes(Number(level)))
        ctx.addIssue({ code: 'custom', path: ['criteria', 'levels', level], message: `is not a load level of the gate (${levels.join(', ')})` });
    const kinds = gateSpecKinds(g.workload, s);
    if (g.operation && !kinds.includes(g.operation)) {
      ctx.addIssue({ code: 'custom', path: ['operation'], message: `is not in the workload's mix (${kinds.join(', ')})` });
    }
    for (const layer of ['configuration', 'candidateConfiguration'] as const) {
      const refused = refusedOption(g.language, { ...s.configuration, ...g.configuration, ...(layer === 'candidateConfiguration' ? g.candidateConfiguration : {}) });
      if (refused && (layer === 'configuration' || g.candidateConfiguration?.grpcGcp)) ctx.addIssue({ code: 'custom', path: [layer, refused.option], message: refused.message });
    }
  })
  .transform((g) => {
    const r = gateReproduction(g.scenario);
    if (r) return { ...g, repeats: g.repeats ?? r.spec.repeats ?? 1, criteria: { ...g.criteria, ...limitsOf(g.criteria), worstRepeat: false } };
    const s = gateScenario(g.scenario)!;
    const own = scenarioFor(s, g.language);
    // The scenario's kind only while the gate's workload still runs it.
    const fallback = s.operation && gateSpecKinds(g.workload, s).includes(s.operation) ? s.operation : undefined;
    const operation = g.operation ?? fallback;
    // The scenario's scan criteria where the gate runs a scan and sets none of its own.
    const scan: ScanCriteria = {};
    if (gateRunsScan(g))
      for (const k of SCAN_CRITERIA) {
        const allowed = g.criteria[k] ?? own.criteria?.[k];
        if (allowed !== undefined) scan[k] = allowed;
      }
    return {
      ...g,
      repeats: g.repeats ?? own.repeats,
      ...(operation && { operation }),
      criteria: { ...g.criteria, ...limitsOf(g.criteria, own.criteria, gateLevels(g, s)), ...scan, worstRepeat: g.criteria.worstRepeat ?? (s.burst && !s.mode) },
    };
  });

/** The load levels a gate runs: its own concurrency or rates, else its scenario's. */
const gateLevels = (g: { concurrency?: number[]; arrivalRates?: number[] }, s: GateScenario): number[] => g.concurrency ?? g.arrivalRates ?? s.concurrency ?? s.arrivalRates ?? [];

const gateKinds = (w: z.output<typeof WorkloadSchema>) => workloadMix(w).map((m) => m.operation);

/** The operation kinds a scenario's own workload runs. */
export { CriteriaSchema, MIN_GATE_REPEATS, SCAN_CRITERIA, type Criteria, type ScanCriteria } from './gate-stats';

export const gateScenarioKinds = (s: GateScenario): Operation[] => gateKinds(WorkloadSchema.parse(s.workload));

/** The kinds a gate runs: its own workload's, else its scenario's. */
const gateSpecKinds = (workload: z.output<typeof WorkloadSchema> | undefined, s: GateScenario) => (workload ? gateKinds(workload) : gateScenarioKinds(s));

export type GateSpec = z.output<typeof GateSpecSchema>;

export function parseGateSpec(input: unknown): ParseResult<GateSpec> {
  return parseSpecWith(GateSpecSchema, input);
}

/**
 * An arm's options, labelled by what they set (arms with the same options share a label, so the
 * across-versions chart draws one line through both versions); the cell's `arm` tells arms apart.
 */
export function armConfiguration(gate: GateSpec, arm: Arm): Configuration {
  const s = gateScenario(gate.scenario)!;
  const options = { ...s.configuration, ...gate.configuration, ...(arm === 'candidate' ? gate.candidateConfiguration : {}) };
  const label = (optionText(options) || 'client default').slice(0, 60);
  return ConfigurationSchema.parse({ ...options, label });
}

/** The gate's candidate as a job's client: a published version, or the uploaded build with its label. */
export function candidateClient(gate: Pick<GateSpec, 'language' | 'candidate' | 'candidateArtifact' | 'candidateLabel'>): JobSpecInput['clients'][number] {
  return {
    language: gate.language as Language,
    version: gate.candidate,
    ...(gate.candidateArtifact && { artifact: gate.candidateArtifact, ...(gate.candidateLabel && { label: gate.candidateLabel }) }),
  };
}

/** The candidate in words: its version, or the build's label and short id. */
export const candidateText = (gate: Pick<GateSpec, 'candidate' | 'candidateArtifact' | 'candidateLabel'>): string =>
  gate.candidateArtifact ? `${gate.candidateLabel ?? 'build'} (build ${artifactShort(gate.candidateArtifact)} of ${gate.candidate})` : gate.candidate;

/**
 * The job that runs a gate: pairing zip gives one arm per client, repeats outermost, so cells go
 * baseline, candidate, baseline, candidate... and every cell is a fresh driver process.
 */
export function gateJobSpec(gate: GateSpec): JobSpecInput {
  const r = gateReproduction(gate.scenario);
  if (r) return reproductionGateJobSpec(r, gate);
  const s = gateScenario(gate.scenario)!;
  return {
    name: gate.name ?? `gate: ${gate.language} ${candidateText(gate)} vs ${gate.baseline} (${s.id})`,
    clients: [{ language: gate.language as Language, version: gate.baseline }, candidateClient(gate)],
    configurations: ARMS.map((arm) => armConfiguration(gate, arm)),
    pairing: 'zip',
    arms: [...ARMS],
    // The gate's own levels, else the scenario's.
    ...(gate.concurrency ? { concurrency: gate.concurrency } : gate.arrivalRates ? { arrivalRates: gate.arrivalRates } : { concurrency: s.concurrency, arrivalRates: s.arrivalRates }),
    target: gate.target ?? s.target,
    workload: gate.workload ?? s.workload,
    repeats: gate.repeats,
    timeScale: gate.timeScale ?? s.timeScale,
  };
}
