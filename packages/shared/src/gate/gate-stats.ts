import { median } from '../results/stats';
import type { Arm } from '../job/spec';
import { z } from 'zod';

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
 * A metric fails if either test fails; with fewer than MIN_GATE_REPEATS repeats per arm it is
 * inconclusive. The gate fails if any metric fails, else is inconclusive if any is, else passes.
 */

export const MIN_GATE_REPEATS = 3;

const pct = z.number().min(0, 'must be at least 0').max(1000, 'must be at most 1000');

/** What a gate allows a candidate (its spec's `criteria`, gate.ts): each judged here. */
export const CriteriaSchema = z.strictObject({
  /** qps may not fall by more than this many percent. */
  qpsDropPct: pct.default(10),
  /** p50 and p99 may not rise by more than this many percent. */
  p50RisePct: pct.default(20),
  p99RisePct: pct.default(20),
  /** Also judge each candidate repeat against the baseline's worst repeat; default: on for burst scenarios. */
  worstRepeat: z.boolean().optional(),
  /** Candidate repeats beyond the baseline's worst (by more than the allowed change) that fail the metric. */
  worstRepeatCount: z.number().int().min(1).max(50).default(1),
  /** A candidate repeat whose share of failed calls exceeds the baseline's worst by more points fails. */
  errorRisePts: z.number().min(0).max(100).default(1),
  /** Two-sided confidence of the bootstrap interval (0.9 = two one-sided 5% tests). */
  confidence: z.number().min(0.5).max(0.999).default(0.9),
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

export type Verdict = 'pass' | 'fail' | 'inconclusive';
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
  method: string;
}

export const GATE_METHOD =
  "per concurrency and metric: ratio of the medians of per-repeat values with a seeded percentile bootstrap interval; fail when the interval excludes no change and the estimate exceeds the allowed change, pass when the worse end of the interval is within it; burst scenarios also fail a metric when a candidate repeat is worse than the baseline's worst repeat by more than the allowed change; any candidate repeat whose share of failed calls exceeds the baseline's worst by more than the allowed points fails the gate";

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
  ratios.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return [(quantile(ratios, tail) - 1) * 100, (quantile(ratios, 1 - tail) - 1) * 100];
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
  const [lo, hi] = ciPct;
  const worseLow = Math.min(worse(lo), worse(hi)); // the interval's best end, in the bad direction
  const worseHigh = Math.max(worse(lo), worse(hi));
  const ci = `${confidenceText(o.confidence)} CI ${pctText(lo)}..${pctText(hi)}`;
  const movement = higherBetter ? (changePct < 0 ? 'fell' : 'rose') : changePct > 0 ? 'rose' : 'fell';
  const medians = `median ${valueText(o.metric, candidateMedian)} vs ${valueText(o.metric, baselineMedian)}`;
  let medianVerdict: Verdict;
  let medianReason: string;
  if (worseLow > 0 && worse(changePct) > o.allowedPct) {
    medianVerdict = 'fail';
    medianReason = `${name} ${movement} ${pctText(changePct).slice(1)} (${ci}; ${medians}), more than the allowed ${o.allowedPct}%`;
  } else if (worseHigh <= o.allowedPct) {
    medianVerdict = 'pass';
    medianReason = `${name} changed ${pctText(changePct)} (${ci}; ${medians}), within the allowed ${o.allowedPct}%`;
  } else {
    medianVerdict = 'inconclusive';
    medianReason =
      worseLow > 0
        ? `${name} ${movement} ${pctText(changePct).slice(1)} (${ci}; ${medians}): a real change, but not clearly beyond the allowed ${o.allowedPct}%`
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
  return { ...base, changePct, ciPct, medianVerdict, worst, verdict, reason };
}

export interface EvaluateOptions {
  criteria: Required<Pick<Criteria, 'qpsDropPct' | 'p50RisePct' | 'p99RisePct' | 'confidence' | 'worstRepeatCount' | 'errorRisePts'>> &
    Pick<Criteria, 'rowsPerSecondDropPct' | 'cpuPer1kRowsRisePct' | 'firstRowP50RisePct'> & { worstRepeat: boolean };
  /** Every load level of the gate (concurrency, or an open loop's rate), so that one with no successful repeat is still judged. */
  concurrency: number[];
  /** A level in words; "C=50" by default. */
  levelText?: (level: number) => string;
}

/** Judges every metric at every concurrency and combines the verdicts. */
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
  const metrics: MetricJudgement[] = [];
  for (const concurrency of o.concurrency) {
    const at = (arm: Arm) => samples.filter((s) => s.arm === arm && s.concurrency === concurrency).sort((a, b) => a.repeat - b.repeat);
    // A repeat without the figure (a cell stored before it was measured) is no repeat of that metric.
    const values = (arm: Arm, metric: GateMetric) => at(arm).flatMap((s) => (s[metric] !== undefined && Number.isFinite(s[metric]) ? [s[metric]] : []));
    for (const metric of GATE_METRICS) {
      const allowedPct = allowed[metric];
      if (allowedPct === undefined) continue;
      metrics.push(
        judgeMetric({
          metric,
          concurrency,
          baseline: values('baseline', metric),
          candidate: values('candidate', metric),
          allowedPct,
          confidence: o.criteria.confidence,
          worstRepeat: o.criteria.worstRepeat,
          worstRepeatCount: o.criteria.worstRepeatCount,
          levelText: o.levelText?.(concurrency),
        }),
      );
    }
  }
  const errors = o.concurrency.map((concurrency) => {
    const at = (arm: Arm) => samples.filter((s) => s.arm === arm && s.concurrency === concurrency).map((s) => s.errorPct);
    return judgeErrors(concurrency, at('baseline'), at('candidate'), o.criteria.errorRisePts, o.levelText?.(concurrency));
  });
  const all: { verdict: Verdict; reason: string }[] = [...metrics, ...errors.filter((e) => e.verdict === 'fail')];
  const failing = all.filter((m) => m.verdict === 'fail');
  const unsure = all.filter((m) => m.verdict === 'inconclusive');
  const verdict: Verdict = failing.length ? 'fail' : unsure.length ? 'inconclusive' : 'pass';
  const reasons = failing.length ? failing.map((m) => m.reason) : unsure.length ? unsure.map((m) => m.reason) : metrics.map((m) => m.reason);
  return { verdict, reasons, metrics, errors, method: GATE_METHOD };
}

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
