import { median } from '../results/stats';
import type { Arm } from '../job/spec';
import { z } from 'zod';
import { boschlooOneSided, judgeMode, repeatsForMedianPower, type GateMode, type ModeJudgement } from './gate-modes';
import type { Verdict } from './gate-verdict';

/**
 * The statistics of a release gate. Per concurrency and metric, on per-repeat values (one fresh
 * process each):
 *
 * - Median test: the change is the ratio of the candidate's median to the baseline's, with a
 *   percentile bootstrap interval (both arms resampled independently, seeded, so a verdict is
 *   reproducible). It FAILS when the interval lies wholly on the worse side of no change (the change
 *   is real) and the estimate is beyond the allowed change (it matters: the minimum effect size). It
 *   PASSES when the interval's worse end is within the allowed change. Otherwise it is INCONCLUSIVE.
 * - Worst-repeat test (burst scenarios): a regression that hits only some cold starts hides in the
 *   median. It FAILS when a candidate repeat (or `worstRepeatCount` of them) is worse than the
 *   baseline's worst repeat by more than the allowed change. The margin is what keeps noise out: a
 *   repeat merely worse than every baseline repeat is common (half the time with equal arms), one
 *   beyond it by 10% of qps or 20% of latency is not (A/A on affinity-burst: qps within 1%, p99 3%).
 *
 * - Mode test (scenarios with a bimodal outcome, GateScenario.mode, in place of the worst-repeat test):
 *   each repeat is in the bad mode or not; the counts are compared with Boschloo's exact one-sided test
 *   (gate-modes.ts). It FAILS when the candidate is in the bad mode significantly more often, else it
 *   PASSES (and says when its repeats are too few to detect the asked change). The median tests then
 *   judge the repeats of the good mode only, where each arm has at least MIN_GATE_REPEATS of them: the
 *   frequency of the bad mode is the mode test's question, and a median over a mix of modes would move
 *   with the luck of the draw (else all repeats, and the reason says so).
 * - Correction for several tests: "a real change" (the fail side) of every median test (metric × level)
 *   and every mode test is decided by the weighted Holm procedure at α = (1 - confidence) / 2, so that
 *   the gate's false-alarm rate over all its tests stays at most α: the mode tests share
 *   MODE_ALPHA_SHARE of the weight, the median tests the rest, equally. The pass side needs no
 *   correction: the gate passes only when every test passes (an intersection-union test).
 *
 * A metric fails if either test fails; with fewer than MIN_GATE_REPEATS repeats per arm it is
 * inconclusive. The gate fails if any metric or mode fails, else is inconclusive if any is, else passes.
 */

export const MIN_GATE_REPEATS = 3;

const pct = z.number().min(0, 'must be at least 0').max(1000, 'must be at most 1000');

/** The allowed changes where neither the gate nor its scenario sets them (gate.ts fills them in). */
export const DEFAULT_GATE_LIMITS = { qpsDropPct: 10, p50RisePct: 20, p99RisePct: 20 } as const;
/** The criteria a load level may set apart from the gate's own (`criteria.levels`). */
export const LEVEL_CRITERIA = ['qpsDropPct', 'p50RisePct', 'p99RisePct'] as const;
export type LevelCriteria = Partial<Record<(typeof LEVEL_CRITERIA)[number], number>>;

const LevelCriteriaSchema = z.strictObject({ qpsDropPct: pct.optional(), p50RisePct: pct.optional(), p99RisePct: pct.optional() });

/** What a gate allows a candidate (its spec's `criteria`, gate.ts): each judged here. */
export const CriteriaSchema = z.strictObject({
  /** qps may not fall by more than this many percent; default: the scenario's, else DEFAULT_GATE_LIMITS. */
  qpsDropPct: pct.optional(),
  /** p50 and p99 may not rise by more than this many percent; default: the scenario's, else DEFAULT_GATE_LIMITS. */
  p50RisePct: pct.optional(),
  p99RisePct: pct.optional(),
  /**
   * Allowed changes of one load level (a concurrency, or an open loop's rate) in place of the gate's,
   * e.g. {"50": {"p50RisePct": 5}}: where the noise at one level cannot support the limit that holds at
   * another (steady-select1's p50 at C=50 in Java, findings/gate-calibration.md).
   */
  levels: z
    .record(z.string(), LevelCriteriaSchema)
    .superRefine((l, ctx) => {
      for (const k of Object.keys(l)) if (!/^[1-9][0-9]{0,5}$/.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: 'must be a load level (a whole number such as 50)' });
      if (Object.keys(l).length > 10) ctx.addIssue({ code: 'custom', path: [], message: 'may set at most 10 levels' });
    })
    .optional(),
  /** Also judge each candidate repeat against the baseline's worst repeat; default: on for burst scenarios without a mode (GateScenario.mode). */
  worstRepeat: z.boolean().optional(),
  /** Candidate repeats beyond the baseline's worst (by more than the allowed change) that fail the metric. */
  worstRepeatCount: z.number().int().min(1).max(50).default(1),
  /** A candidate repeat whose share of failed calls exceeds the baseline's worst by more points fails. */
  errorRisePts: z.number().min(0).max(100).default(1),
  /** Two-sided confidence of the bootstrap interval (0.9 = two one-sided 5% tests); (1 - confidence) / 2 is the gate's false-alarm rate over all its tests (this file). */
  confidence: z.number().min(0.5).max(0.999).default(0.9),
  /**
   * A scenario with a bimodal outcome (GateScenario.mode): the candidate's rate of the bad mode, against
   * the scenario's assumed baseline rate, that the gate must be able to detect; default: the scenario's
   * (0.2 for affinity-burst). The gate says when its repeats are too few for it.
   */
  badModeRate: z.number().gt(0, 'must be above 0').max(1, 'must be at most 1').optional(),
  /**
   * A scan workload's (workload.resultSet), each judged only where set (result-set-decode sets the CPU's
   * and the first row's): rows per second may not fall, CPU per 1,000 rows and the time to the first
   * row (p50) may not rise by more than this many percent.
   */
  rowsPerSecondDropPct: pct.optional(),
  cpuPer1kRowsRisePct: pct.optional(),
  firstRowP50RisePct: pct.optional(),
});
export type Criteria = z.output<typeof CriteriaSchema>;

/** The criteria of a scan's metrics (ScanGateMetric). */
export const SCAN_CRITERIA = ['rowsPerSecondDropPct', 'cpuPer1kRowsRisePct', 'firstRowP50RisePct'] as const;
export type ScanCriteria = Partial<Pick<Criteria, (typeof SCAN_CRITERIA)[number]>>;

export type { Verdict } from './gate-verdict';
/** qps, p50 and p99 always; a scan scenario's rows per second, CPU per 1,000 rows and first-row p50 where its criteria set them. */
export const GATE_METRICS = ['qps', 'p50Ms', 'p99Ms', 'rowsPerSecond', 'cpuMsPer1kRows', 'firstRowP50Ms'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];
/** A scan's metrics: judged only where the criteria allow a change of them (a scan workload's gate). */
export type ScanGateMetric = Extract<GateMetric, 'rowsPerSecond' | 'cpuMsPer1kRows' | 'firstRowP50Ms'>;

export const METRIC_NAMES: Record<GateMetric, string> = {
  qps: 'qps',
  p50Ms: 'p50',
  p99Ms: 'p99',
  rowsPerSecond: 'rows/s',
  cpuMsPer1kRows: 'CPU per 1,000 rows',
  firstRowP50Ms: 'first-row p50',
};

/** The metrics whose fall is the regression; for the others (latencies, CPU) it is a rise. */
export const HIGHER_IS_BETTER: ReadonlySet<GateMetric> = new Set(['qps', 'rowsPerSecond']);

/** One repeat of one arm at one concurrency: a succeeded cell. */
export interface GateSample {
  arm: Arm;
  concurrency: number;
  repeat: number;
  qps: number;
  p50Ms: number;
  p99Ms: number;
  /** A scan's figures (result-set/figures.ts, CellResult.firstRowP50Ms); absent where the cell has none. */
  rowsPerSecond?: number;
  cpuMsPer1kRows?: number;
  firstRowP50Ms?: number;
  /** Failed calls as a share of all calls, in percent: qps and latencies count successes only. */
  errorPct: number;
  /** A scenario with a bimodal outcome (GateScenario.mode): whether this repeat was in the bad mode; absent when its cell could not tell. */
  bad?: boolean;
}

export interface WorstRepeatJudgement {
  verdict: Verdict;
  /** The baseline's worst value: lowest qps, highest latency. */
  baselineWorst: number;
  /** The bound a candidate repeat must not cross: baselineWorst moved by the allowed change. */
  bound: number;
  /** Candidate repeats beyond the bound, and the worst of all candidate repeats. */
  beyond: number;
  candidateWorst: number;
  reason: string;
}

export interface MetricJudgement {
  metric: GateMetric;
  concurrency: number;
  /** The allowed change in percent, signed in the worse direction (qps -10, latency +20). */
  limitPct: number;
  baseline: number[];
  candidate: number[];
  baselineMedian: number;
  candidateMedian: number;
  /** (candidate median / baseline median - 1) x 100, and its bootstrap interval. */
  changePct: number;
  ciPct: [number, number];
  confidence: number;
  /**
   * The bootstrap's one-sided p-value of "no change or better" (the share of resampled ratios not on the
   * worse side), and the level it was held to after the correction for the gate's tests; absent in
   * evaluations stored before them.
   */
  pValue?: number;
  level?: number;
  /** Repeats of the bad mode left out of the medians (a scenario with a mode), per arm. */
  leftOut?: { baseline: number; candidate: number };
  /** An inconclusive median test: the repeats per arm its noise needs (more than it had), and that noise, each arm's coefficient of variation pooled (withRepeatsNeeded). */
  repeatsNeeded?: number;
  repeatsCvPct?: number;
  /** The median test's verdict; `verdict` also counts the worst-repeat test. */
  medianVerdict: Verdict;
  worst: WorstRepeatJudgement | null;
  verdict: Verdict;
  reason: string;
}

/** Per concurrency: candidate repeats whose calls failed more often than the baseline's worst repeat. */
export interface ErrorJudgement {
  concurrency: number;
  allowedPts: number;
  baselineWorstPct: number;
  candidatePct: number[];
  beyond: number;
  verdict: Verdict;
  reason: string;
}

export interface GateEvaluation {
  verdict: Verdict;
  /** The reasons of the verdict in words: failing metrics, or what kept it inconclusive, or a summary. */
  reasons: string[];
  metrics: MetricJudgement[];
  errors: ErrorJudgement[];
  /** A scenario with a bimodal outcome: its mode test per level. */
  modes?: ModeJudgement[];
  /**
   * A passing gate whose candidate keeps a bad mode the baseline has, no more often: the regression
   * persists (it is not new in this candidate). The verdict stays pass: `npm run gate` exits 0.
   */
  persisting?: boolean;
  method: string;
}

export const GATE_METHOD =
  "per concurrency and metric: ratio of the medians of per-repeat values with a seeded percentile bootstrap interval; fail when the change is real (the bootstrap's one-sided p within its level after the weighted Holm correction over all of the gate's tests) and the estimate exceeds the allowed change, pass when the worse end of the interval is within it; burst scenarios also fail a metric when a candidate repeat is worse than the baseline's worst repeat by more than the allowed change; any candidate repeat whose share of failed calls exceeds the baseline's worst by more than the allowed points fails the gate";

export const MODE_METHOD =
  "a scenario with a bimodal outcome counts the repeats in its bad mode per arm and compares the counts with Boschloo's exact one-sided test (in the Holm family, its tests weighted to share 80% of the false-alarm rate), in place of the worst-repeat test; the medians judge the good mode's repeats";

/** The mode tests' share of the gate's false-alarm rate, where a scenario has a mode: its primary question. */
export const MODE_ALPHA_SHARE = 0.8;

/**
 * The weighted Holm procedure (Holm 1979): step by step, the untested hypothesis with the smallest
 * p / weight is rejected while p ≤ weight · α / (the weights of those not yet rejected). Returns, per
 * test, whether it was rejected and the level it was held to (at its step, or where the procedure
 * stopped). Keeps the family-wise error rate at most α under any dependence.
 */
export function weightedHolm(tests: { p: number; weight: number }[], alpha: number): { rejected: boolean; level: number }[] {
  const out = tests.map(() => ({ rejected: false, level: 0 }));
  const open = new Set(tests.map((_, i) => i));
  while (open.size) {
    const total = [...open].reduce((s, i) => s + tests[i].weight, 0);
    let best = -1;
    for (const i of open) if (best < 0 || tests[i].p / tests[i].weight < tests[best].p / tests[best].weight) best = i;
    for (const i of open) out[i].level = (tests[i].weight * alpha) / total;
    if (!(tests[best].p <= out[best].level)) break;
    out[best].rejected = true;
    open.delete(best);
  }
  return out;
}

const BOOTSTRAP_RESAMPLES = 4000;

/** Small, seedable PRNG (mulberry32): the same values always give the same interval. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(values: number[]): number {
  let h = 2166136261;
  for (const v of values) for (const ch of v.toFixed(6)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Percentile bootstrap interval of median(candidate) / median(baseline) - 1, in percent. */
export function bootstrapRatioOfMedians(baseline: number[], candidate: number[], confidence: number, resamples = BOOTSTRAP_RESAMPLES): [number, number] {
  const ratios = bootstrapRatios(baseline, candidate, resamples);
  const tail = (1 - confidence) / 2;
  return [(quantile(ratios, tail) - 1) * 100, (quantile(ratios, 1 - tail) - 1) * 100];
}

/**
 * The bootstrap's one-sided p-value of "no change, or better": the share of resampled ratios of the
 * medians that are not worse than 1 (for qps: at least 1; for latencies: at most 1).
 */
export function bootstrapWorseP(baseline: number[], candidate: number[], higherIsBetter: boolean, resamples = BOOTSTRAP_RESAMPLES): number {
  const ratios = bootstrapRatios(baseline, candidate, resamples);
  return ratios.filter((r) => (higherIsBetter ? r >= 1 : r <= 1)).length / ratios.length;
}

/** The sorted ratios median(candidate resample) / median(baseline resample), seeded by the values. */
function bootstrapRatios(baseline: number[], candidate: number[], resamples: number): number[] {
  const rand = prng(seedOf([...baseline, Number.NaN, ...candidate]));
  const resample = (xs: number[]) => {
    const r = new Array<number>(xs.length);
    for (let i = 0; i < xs.length; i++) r[i] = xs[Math.floor(rand() * xs.length)];
    return median(r);
  };
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const b = resample(baseline);
    ratios.push(b > 0 ? resample(candidate) / b : Number.POSITIVE_INFINITY);
  }
  return ratios.sort((a, b) => a - b);
}

export interface JudgeOptions {
  metric: GateMetric;
  concurrency: number;
  baseline: number[];
  candidate: number[];
  /** Allowed change in percent, positive (e.g. 10 for qps, 20 for p99). */
  allowedPct: number;
  confidence: number;
  worstRepeat: boolean;
  worstRepeatCount: number;
  /** The load level in words ("C=50", "100 ops/s"); C= by default. */
  levelText?: string;
  /** The level of the fail side's test after the correction (evaluateGate); default (1 - confidence) / 2. */
  failLevel?: number;
  /** The correction's decision of the fail side's test (evaluateGate); default: p ≤ failLevel. */
  realChange?: boolean;
  leftOut?: { baseline: number; candidate: number };
}

/** "+5.7%", "−35%", "±0.0%"; "–" when undefined (JSON stores NaN as null). */
export function pctText(v: number): string {
  return Number.isFinite(v) ? `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(Math.abs(v) < 10 ? 1 : 0)}%` : '–';
}
const valueText = (metric: GateMetric, v: number) =>
  metric === 'qps' ? `${v.toFixed(0)} qps` : metric === 'rowsPerSecond' ? `${v.toFixed(0)} rows/s` : `${v < 10 ? v.toFixed(2) : v.toFixed(v < 100 ? 1 : 0)} ms`;

/** "90%", or "99.9%" when the confidence is not a whole percentage. */
export function confidenceText(confidence: number): string {
  const pct = confidence * 100;
  return `${Number.isInteger(Math.round(pct * 1000) / 1000) ? Math.round(pct) : pct.toFixed(1)}%`;
}

/** Judges one metric at one concurrency (see the method at the top of this file). */
export function judgeMetric(o: JudgeOptions): MetricJudgement {
  const higherBetter = HIGHER_IS_BETTER.has(o.metric);
  // worse(x): how much worse than no change, in the metric's own bad direction, in percent.
  const worse = (changePct: number) => (higherBetter ? -changePct : changePct);
  const limitPct = higherBetter ? -o.allowedPct : o.allowedPct;
  const name = `${METRIC_NAMES[o.metric]} at ${o.levelText ?? `C=${o.concurrency}`}`;
  const n = Math.min(o.baseline.length, o.candidate.length);
  const baselineMedian = median(o.baseline);
  const candidateMedian = median(o.candidate);
  const base = {
    metric: o.metric,
    concurrency: o.concurrency,
    limitPct,
    baseline: o.baseline,
    candidate: o.candidate,
    baselineMedian,
    candidateMedian,
    confidence: o.confidence,
  };
  if (n < MIN_GATE_REPEATS) {
    const reason = `${name}: too few repeats to judge (${o.baseline.length} baseline, ${o.candidate.length} candidate; at least ${MIN_GATE_REPEATS} each needed)`;
    return { ...base, changePct: Number.NaN, ciPct: [Number.NaN, Number.NaN], medianVerdict: 'inconclusive', worst: null, verdict: 'inconclusive', reason };
  }
  if (!(baselineMedian > 0)) {
    const reason = `${name}: the baseline's median is ${valueText(o.metric, baselineMedian)}, so no ratio can be formed`;
    return { ...base, changePct: Number.NaN, ciPct: [Number.NaN, Number.NaN], medianVerdict: 'inconclusive', worst: null, verdict: 'inconclusive', reason };
  }
  const changePct = (candidateMedian / baselineMedian - 1) * 100;
  const ciPct = bootstrapRatioOfMedians(o.baseline, o.candidate, o.confidence);
  const pValue = bootstrapWorseP(o.baseline, o.candidate, higherBetter);
  const level = o.failLevel ?? (1 - o.confidence) / 2;
  // A real change in the worse direction: the fail side's test, at its corrected level.
  const real = o.realChange ?? pValue <= level;
  const [lo, hi] = ciPct;
  const worseLow = Math.min(worse(lo), worse(hi)); // the interval's best end, in the bad direction
  const worseHigh = Math.max(worse(lo), worse(hi));
  const ci = `${confidenceText(o.confidence)} CI ${pctText(lo)}..${pctText(hi)}`;
  const movement = higherBetter ? (changePct < 0 ? 'fell' : 'rose') : changePct > 0 ? 'rose' : 'fell';
  const medians = `median ${valueText(o.metric, candidateMedian)} vs ${valueText(o.metric, baselineMedian)}`;
  let medianVerdict: Verdict;
  let medianReason: string;
  const corrected = level < (1 - o.confidence) / 2 ? `; p = ${pValueText(pValue)}, held to ${pValueText(level)} for the gate's several tests` : '';
  if (real && worse(changePct) > o.allowedPct) {
    medianVerdict = 'fail';
    medianReason = `${name} ${movement} ${pctText(changePct).slice(1)} (${ci}; ${medians}), more than the allowed ${o.allowedPct}%`;
  } else if (worseHigh <= o.allowedPct) {
    medianVerdict = 'pass';
    medianReason = `${name} changed ${pctText(changePct)} (${ci}; ${medians}), within the allowed ${o.allowedPct}%`;
  } else {
    medianVerdict = 'inconclusive';
    medianReason = real
      ? `${name} ${movement} ${pctText(changePct).slice(1)} (${ci}; ${medians}): a real change, but not clearly beyond the allowed ${o.allowedPct}%`
      : worseLow > 0 && worse(changePct) > o.allowedPct
        ? `${name} ${movement} ${pctText(changePct).slice(1)} (${ci}; ${medians}${corrected}): not a real change after the correction for the gate's tests, and not within the allowed ${o.allowedPct}%`
        : `${name} changed ${pctText(changePct)} (${ci}; ${medians}): too noisy to rule out more than the allowed ${o.allowedPct}%`;
  }

  let worst: WorstRepeatJudgement | null = null;
  if (o.worstRepeat) {
    const baselineWorst = higherBetter ? Math.min(...o.baseline) : Math.max(...o.baseline);
    const bound = baselineWorst * (1 + limitPct / 100);
    const beyondBound = (v: number) => (higherBetter ? v < bound : v > bound);
    const beyond = o.candidate.filter(beyondBound).length;
    const candidateWorst = higherBetter ? Math.min(...o.candidate) : Math.max(...o.candidate);
    const worstChange = baselineWorst > 0 ? (candidateWorst / baselineWorst - 1) * 100 : Number.NaN;
    const verdict: Verdict = beyond >= o.worstRepeatCount ? 'fail' : 'pass';
    const side = higherBetter ? 'below' : 'above';
    const reason =
      `${name} was more than ${o.allowedPct}% ${side} the baseline's worst repeat (${valueText(o.metric, baselineWorst)}) in ${beyond} of ${o.candidate.length} candidate repeats` +
      (beyond > 0 ? ` (worst ${valueText(o.metric, candidateWorst)}, ${pctText(worstChange)})` : '') +
      (verdict === 'fail' && o.worstRepeatCount > 1 ? `; ${o.worstRepeatCount} fail the gate` : '');
    worst = { verdict, baselineWorst, bound, beyond, candidateWorst, reason };
  }
  const verdict: Verdict = medianVerdict === 'fail' || worst?.verdict === 'fail' ? 'fail' : medianVerdict;
  const failed = [medianVerdict === 'fail' ? medianReason : null, worst?.verdict === 'fail' ? worst.reason : null].filter((r): r is string => r !== null);
  const reason = failed.length ? failed.join('; ') : medianReason;
  return { ...base, changePct, ciPct, pValue, level, ...(o.leftOut && { leftOut: o.leftOut }), medianVerdict, worst, verdict, reason };
}

const pValueText = (p: number) => (p < 0.001 ? p.toExponential(1) : p.toFixed(p < 0.1 ? 4 : 2));

export interface EvaluateOptions {
  criteria: Required<Pick<Criteria, 'qpsDropPct' | 'p50RisePct' | 'confidence' | 'worstRepeatCount' | 'errorRisePts'>> &
    Pick<Criteria, 'p99RisePct' | 'rowsPerSecondDropPct' | 'cpuPer1kRowsRisePct' | 'firstRowP50RisePct' | 'badModeRate' | 'levels'> & { worstRepeat: boolean };
  /** Every load level of the gate (concurrency, or an open loop's rate), so that one with no successful repeat is still judged. */
  concurrency: number[];
  /** A level in words; "C=50" by default. */
  levelText?: (level: number) => string;
  /** The scenario's bimodal outcome (GateScenario.mode): the samples' `bad` flags are judged by it. */
  mode?: Pick<GateMode, 'bad' | 'repeatNoun' | 'detect' | 'reproduction'>;
  /** The arms in words for the mode's reason ("6.106.0"); "candidate" and "baseline" by default. */
  names?: { baseline: string; candidate: string };
}

const LEVEL_CRITERION: Partial<Record<GateMetric, (typeof LEVEL_CRITERIA)[number]>> = { qps: 'qpsDropPct', p50Ms: 'p50RisePct', p99Ms: 'p99RisePct' };

/** Whether the criteria judge p99 anywhere: a limit of it for the gate or for one of its levels (result-set-decode's judge none). */
export function judgesP99(c: Pick<Criteria, 'p99RisePct' | 'levels'>): boolean {
  return c.p99RisePct !== undefined || Object.values(c.levels ?? {}).some((l) => l.p99RisePct !== undefined);
}

/** The allowed change of a metric that a load level sets apart from the gate's (`criteria.levels`), if any. */
export function allowedAt(c: Pick<Criteria, 'levels'>, level: number, metric: GateMetric): number | undefined {
  const k = LEVEL_CRITERION[metric];
  return k && c.levels?.[String(level)]?.[k];
}

/** Judges every metric at every concurrency, and the mode where the scenario has one, and combines the verdicts. */
export function evaluateGate(samples: GateSample[], o: EvaluateOptions): GateEvaluation {
  const c = o.criteria;
  // A scan's metrics only where the criteria allow a change of them.
  const allowed: Record<GateMetric, number | undefined> = {
    qps: c.qpsDropPct,
    p50Ms: c.p50RisePct,
    p99Ms: c.p99RisePct,
    rowsPerSecond: c.rowsPerSecondDropPct,
    cpuMsPer1kRows: c.cpuPer1kRowsRisePct,
    firstRowP50Ms: c.firstRowP50RisePct,
  };
  const alpha = (1 - c.confidence) / 2;
  const names = o.names ?? { baseline: 'baseline', candidate: 'candidate' };
  const level = (concurrency: number) => o.levelText?.(concurrency) ?? `C=${concurrency}`;

  // What is judged, before any verdict: the median tests' inputs and the mode counts, per level.
  const medianInputs: Omit<JudgeOptions, 'failLevel'>[] = [];
  const modeInputs: { concurrency: number; baseline: { bad: number; of: number }; candidate: { bad: number; of: number }; unclassified: number; p: number }[] = [];
  const mixed: string[] = [];
  for (const concurrency of o.concurrency) {
    const at = (arm: Arm) => samples.filter((s) => s.arm === arm && s.concurrency === concurrency).sort((a, b) => a.repeat - b.repeat);
    // The good mode's repeats, where the scenario has a mode and each arm has enough of them.
    let judged = at;
    let leftOut: { baseline: number; candidate: number } | undefined;
    if (o.mode) {
      const count = (arm: Arm) => ({ bad: at(arm).filter((s) => s.bad === true).length, of: at(arm).filter((s) => s.bad !== undefined).length });
      const [b, cand] = [count('baseline'), count('candidate')];
      const unclassified = at('baseline').length + at('candidate').length - b.of - cand.of;
      const p = b.of && cand.of ? boschlooOneSided(b, cand) : 1;
      modeInputs.push({ concurrency, baseline: b, candidate: cand, unclassified, p });
      const good = (arm: Arm) => at(arm).filter((s) => s.bad !== true);
      if (good('baseline').length >= MIN_GATE_REPEATS && good('candidate').length >= MIN_GATE_REPEATS) {
        judged = good;
        leftOut = { baseline: b.bad, candidate: cand.bad };
      } else if (b.bad || cand.bad)
        mixed.push(
          `the medians at ${level(concurrency)} judged every repeat, ${o.mode.bad} or not: fewer than ${MIN_GATE_REPEATS} were not in an arm (${good('baseline').length} baseline, ${good('candidate').length} candidate)`,
        );
    }
    // A repeat without the figure (a cell stored before it was measured) is no repeat of that metric.
    const values = (arm: Arm, metric: GateMetric) => judged(arm).flatMap((s) => (s[metric] !== undefined && Number.isFinite(s[metric]) ? [s[metric]] : []));
    for (const metric of GATE_METRICS) {
      const allowedPct = allowedAt(c, concurrency, metric) ?? allowed[metric];
      if (allowedPct === undefined) continue;
      medianInputs.push({
        metric,
        concurrency,
        baseline: values('baseline', metric),
        candidate: values('candidate', metric),
        allowedPct,
        confidence: c.confidence,
        worstRepeat: c.worstRepeat,
        worstRepeatCount: c.worstRepeatCount,
        levelText: o.levelText?.(concurrency),
        ...(leftOut && { leftOut }),
      });
    }
  }

  // The correction: one family of every fail-side test, the mode tests sharing MODE_ALPHA_SHARE of the weight.
  const modeShare = modeInputs.length ? (medianInputs.length ? MODE_ALPHA_SHARE : 1) : 0;
  const family = [
    ...medianInputs.map((m) => {
      const n = Math.min(m.baseline.length, m.candidate.length);
      const b = median(m.baseline);
      return { p: n >= MIN_GATE_REPEATS && b > 0 ? bootstrapWorseP(m.baseline, m.candidate, HIGHER_IS_BETTER.has(m.metric)) : 1, weight: (1 - modeShare) / medianInputs.length };
    }),
    ...modeInputs.map((m) => ({ p: m.p, weight: modeShare / modeInputs.length })),
  ];
  const holm = weightedHolm(family, alpha);
  const metrics = medianInputs.map((m, i) => withRepeatsNeeded(judgeMetric({ ...m, failLevel: holm[i].level, realChange: holm[i].rejected }), alpha));
  const modes = modeInputs.map((m, i) => {
    const h = holm[medianInputs.length + i];
    const detect = o.mode!.detect;
    return judgeMode({
      concurrency: m.concurrency,
      bad: o.mode!.bad,
      repeatNoun: o.mode!.repeatNoun,
      baseline: m.baseline,
      candidate: m.candidate,
      unclassified: m.unclassified,
      alpha: alpha * (modeShare / modeInputs.length),
      level: h.level,
      rejected: h.rejected,
      pValue: m.p,
      names,
      detect: { baselineRate: detect.baselineRate, candidateRate: c.badModeRate ?? detect.candidateRate, power: detect.power },
      reproduction: o.mode!.reproduction,
      minRepeats: MIN_GATE_REPEATS,
      levelText: o.concurrency.length > 1 ? level(m.concurrency) : undefined,
    });
  });

  const errors = o.concurrency.map((concurrency) => {
    const at = (arm: Arm) => samples.filter((s) => s.arm === arm && s.concurrency === concurrency).map((s) => s.errorPct);
    return judgeErrors(concurrency, at('baseline'), at('candidate'), c.errorRisePts, o.levelText?.(concurrency));
  });
  const all: { verdict: Verdict; reason: string }[] = [...modes, ...metrics, ...errors.filter((e) => e.verdict === 'fail')];
  const failing = all.filter((m) => m.verdict === 'fail');
  const unsure = all.filter((m) => m.verdict === 'inconclusive');
  const verdict: Verdict = failing.length ? 'fail' : unsure.length ? 'inconclusive' : 'pass';
  // The mode's reason always leads (it is the scenario's question), then its power note where the repeats were too few.
  const modeReasons = [...modes.map((m) => m.reason), ...modes.flatMap((m) => (m.powerNote ? [m.powerNote] : [])), ...mixed];
  const chosen = failing.length ? failing : unsure.length ? unsure : metrics;
  // Where a median test was too noisy to tell, how many repeats it would have needed.
  const repeatNotes = failing.length ? [] : metrics.flatMap((m) => (m.repeatsNeeded ? [repeatsNote(m, level(m.concurrency))] : []));
  const reasons = [...new Set([...modeReasons, ...chosen.map((m) => m.reason), ...repeatNotes])];
  const persisting = verdict === 'pass' && modes.some((m) => m.persisting);
  return {
    verdict,
    reasons,
    metrics,
    errors,
    ...(o.mode && { modes, persisting }),
    method: o.mode ? `${GATE_METHOD}; ${MODE_METHOD}` : GATE_METHOD,
  };
}

/** The power a median test's repeats are weighed against (repeatsNeeded). */
export const MEDIAN_POWER = 0.8;

/**
 * An inconclusive median test's repeats against its noise: the repeats per arm at which a test of this
 * metric, varying as its repeats did (each arm's coefficient of variation, pooled), tells a change of the
 * allowed size from none MEDIAN_POWER of the time at the gate's one-sided level (repeatsForMedianPower,
 * a normal approximation); set only where that is more than the gate ran. The same count serves both
 * sides: an unchanged candidate passes (its interval's worse end within the limit) and a change of twice
 * the limit fails about that often.
 */
function withRepeatsNeeded(m: MetricJudgement, alpha: number): MetricJudgement {
  const n = Math.min(m.baseline.length, m.candidate.length);
  if (m.medianVerdict !== 'inconclusive' || n < MIN_GATE_REPEATS || m.limitPct === 0) return m;
  // Within each arm, pooled: a shift between the arms is no noise, and either arm's outliers are.
  const cvPct = Math.sqrt((coefficientOfVariationPct(m.baseline) ** 2 + coefficientOfVariationPct(m.candidate) ** 2) / 2);
  if (!Number.isFinite(cvPct)) return m;
  const needed = repeatsForMedianPower({ cvPct, changePct: Math.abs(m.limitPct), alpha, power: MEDIAN_POWER });
  return needed > n ? { ...m, repeatsCvPct: cvPct, repeatsNeeded: needed } : m;
}

/** The sample standard deviation over the mean, in percent (NaN for fewer than 2 values or a mean of 0). */
export function coefficientOfVariationPct(xs: number[]): number {
  if (xs.length < 2) return Number.NaN;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
  return mean === 0 ? Number.NaN : (100 * Math.sqrt(variance)) / Math.abs(mean);
}

const repeatsNote = (m: MetricJudgement, level: string) =>
  `with ${Math.min(m.baseline.length, m.candidate.length)} repeats per arm, ${METRIC_NAMES[m.metric]} at ${level} (its repeats varied by ${m.repeatsCvPct!.toFixed(1)}%) cannot tell a ${Math.abs(m.limitPct)}% change from none ${MEDIAN_POWER * 100}% of the time: that takes about ${m.repeatsNeeded} per arm`;

/** Fails when a candidate repeat's failed calls exceed the baseline's worst repeat by more than allowed. */
export function judgeErrors(concurrency: number, baseline: number[], candidate: number[], allowedPts: number, levelText = `C=${concurrency}`): ErrorJudgement {
  const baselineWorstPct = baseline.length ? Math.max(...baseline) : 0;
  const beyond = candidate.filter((e) => e > baselineWorstPct + allowedPts).length;
  const verdict: Verdict = beyond > 0 ? 'fail' : 'pass';
  const fmt = (v: number) => `${v < 10 ? v.toFixed(1) : v.toFixed(0)}%`;
  const points = `${allowedPts} percentage point${allowedPts === 1 ? '' : 's'}`;
  const reason =
    beyond > 0
      ? `errors at ${levelText}: up to ${fmt(Math.max(...candidate))} of calls failed in ${beyond} of ${candidate.length} candidate repeats (baseline at most ${fmt(baselineWorstPct)}; allowed ${points} more)`
      : `errors at ${levelText}: no candidate repeat's share of failed calls exceeded the baseline's worst (${fmt(baselineWorstPct)}) by more than ${points}`;
  return { concurrency, allowedPts, baselineWorstPct, candidatePct: candidate, beyond, verdict, reason };
}
