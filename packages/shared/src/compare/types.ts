// What a comparison reads (jobs and cells as the API gives them), what it selects, and what it
// gives: series, rows, ratios, notes, a refusal or summaries, chart groups.
import type { VerdictKind } from '../results/verdict';
import type { JobSpec } from '../job/spec';

/** What a comparison needs to know about one cell (the API's CellView fits). */
export interface CompareCellInput {
  /** 0-based, as in GET /api/jobs/<id>. */
  index: number;
  client: { language: string; version: string };
  configuration: { label: string; [option: string]: unknown };
  concurrency: number;
  repeat: number;
  status: string;
  error?: string | null;
  result: { qps: number; p50Ms: number; p99Ms: number; verdict?: { kind: VerdictKind } } | null;
  /** How the cell's RPCs spread over connections (the fake's accounting). */
  channelSummary?: { hottestShare: number; hottestPeakInFlight: number } | null;
}

/** What a comparison needs to know about one job (the API's JobView fits). */
export interface CompareJobInput {
  id: string;
  name?: string | null;
  status: string;
  spec: JobSpec;
  environment?: Record<string, unknown> | null;
  cells: CompareCellInput[];
}

export interface CompareCellRef {
  job: string;
  /** 0-based cell index. */
  index: number;
}

/**
 * What to compare; the first item is the baseline.
 * - jobs: each job gives one series per client it ran (a job with one client and several
 *   configurations gives one series per configuration); rows are configuration × concurrency.
 * - cells: each cell is a series of its own; rows are concurrency.
 */
export type CompareSelection = { kind: 'jobs'; jobs: string[]; allowMismatch: boolean } | { kind: 'cells'; cells: CompareCellRef[]; allowMismatch: boolean };

export const MAX_COMPARE_JOBS = 8;
export const MAX_COMPARE_CELLS = 12;
export const MAX_COMPARE_SERIES = 12;
/** Changes smaller than this share count as "about the same" (ratio within 1 ± 3%). */
export const COMPARE_SAME_WITHIN = 0.03;

export type CompareVerdict = 'better' | 'worse' | 'same';

export interface CompareScenarioDifference {
  /** Dotted path in {target, workload, timeScale}, as scenarioDifferences gives it. */
  path: string;
  baseline: unknown;
  candidate: unknown;
}

export interface CompareSeries {
  /** Stable key for charts and JSON: s0 (the baseline), s1, ... */
  key: string;
  /** Short and unique among the series: what varies between them. */
  label: string;
  baseline: boolean;
  jobId: string;
  jobName: string | null;
  jobStatus: string;
  client: { language: string; version: string };
  /** The configuration when it belongs to the series (not a row), with its options. */
  configuration: { label: string; [option: string]: unknown } | null;
  /** Cell indexes (0-based) of the job that make up this series. */
  cells: number[];
  /** Server latency per query after the time scale, where the target models one. */
  latencyMs: number | null;
  repeats: number;
  /** How this series' scenario differs from the baseline's (empty when it is the same). */
  differences: CompareScenarioDifference[];
}

/** Medians over the repeats that produced a result; null when none did. */
export interface CompareEntry {
  qps: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  qpsMin: number | null;
  qpsMax: number | null;
  /** Repeats with a result. */
  repeats: number;
  failed: number;
  /** Cells still queued or running. */
  pending: number;
  /** The worst verdict of its repeats. */
  verdict: VerdictKind;
  /** The busiest connection's share of RPCs (median over repeats) and its highest peak in flight. */
  hottestShare: number | null;
  hottestPeakMax: number | null;
  cells: number[];
  error: string | null;
}

export interface CompareRatio {
  /** candidate / baseline */
  ratio: number;
  verdict: CompareVerdict;
}

export interface CompareRow {
  /** The configuration label when configuration is a row dimension, else null. */
  configuration: string | null;
  concurrency: number;
  /** One per series, in series order; null when the series has no cell here. */
  entries: (CompareEntry | null)[];
  /** One per series; null for the baseline and where either side has no result. */
  ratios: ({ qps: CompareRatio | null; p50Ms: CompareRatio | null; p99Ms: CompareRatio | null } | null)[];
}

export type CompareNote =
  | { kind: 'scenario'; severity: 'warning'; series: string; differences: CompareScenarioDifference[] }
  | { kind: 'configuration-options'; severity: 'warning'; series: string; configuration: string; options: { option: string; baseline: unknown; candidate: unknown }[] }
  | { kind: 'environment'; severity: 'warning'; series: string; baseline: CompareEnvironment; candidate: CompareEnvironment }
  | { kind: 'client-bound' | 'harness-bound'; severity: 'warning'; series: string[] }
  /** Compared like clean (the client's real behaviour), but said. */
  | { kind: 'configuration-bound'; severity: 'info'; series: string[] }
  | { kind: 'unfinished'; severity: 'info'; series: string; jobStatus: string }
  | { kind: 'missing'; severity: 'info'; series: string; rows: number };

export type CompareRefusal =
  | { kind: 'single-series'; series: number }
  | { kind: 'too-many-series'; series: number; max: number }
  | { kind: 'scenario'; mismatches: { series: string; differences: CompareScenarioDifference[] }[] }
  | { kind: 'no-common-rows' };

/** Geometric means of a candidate's ratios over the rows where both sides have a result. */
export interface CompareSummary {
  series: string;
  rows: number;
  qps: CompareRatio | null;
  p50Ms: CompareRatio | null;
  p99Ms: CompareRatio | null;
  /** The row where the candidate's qps ratio is lowest. */
  worstQps: { configuration: string | null; concurrency: number; ratio: number } | null;
}

export interface Comparison {
  mode: 'jobs' | 'cells';
  /** What distinguishes series: always the client and, when it is not a row, the configuration. */
  configurationIs: 'series' | 'row';
  series: CompareSeries[];
  rows: CompareRow[];
  /** ok: comparable; warned: ratios shown with warnings; refused: no ratios, see refusal. */
  status: 'ok' | 'warned' | 'refused';
  refusal: CompareRefusal | null;
  notes: CompareNote[];
  summaries: CompareSummary[];
  /** The shared server latency (after the time scale), for the ideal line; null when series differ. */
  idealLatencyMs: number | null;
  /** Every series is an open loop: rows are arrival rates (ops/s), and the ideal is the rate. */
  openLoop: boolean;
  sameWithin: number;
}

/** One chart point: concurrency, the ideal qps (when the series share a latency), a value per series key. */
export interface CompareChartPoint {
  concurrency: number;
  ideal: number | null;
  [seriesKey: string]: number | null;
}

export interface CompareChartGroup {
  /** The configuration this group's rows belong to (when configuration is a row dimension). */
  configuration: string | null;
  qps: CompareChartPoint[];
  /** p99 in ms; values that a log axis cannot show (<= 0) are null. */
  p99Ms: CompareChartPoint[];
}

/**
 * Where a compared job ran, as far as it changes the numbers; for a target the runner started itself,
 * its version under the kind's name (`emulator` for a fresh emulator per cell).
 */
export interface CompareEnvironment {
  host: string | null;
  cores: number | null;
  [targetKind: string]: string | number | null | undefined;
}
