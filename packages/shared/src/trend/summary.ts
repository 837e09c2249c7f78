// The trend chart's figures per point (language, scenario, concurrency, operation kind, metric,
// configuration, version), kept up to date as cells finish instead of recomputed from every cell per
// request (@scb/db's TrendPoint table). One fold, used both when a cell is stored and when the
// summary is rebuilt from the immutable results: adding the same cells in any order gives the same
// summary.
import type { VerdictKind } from '../results/verdict';
import type { TrendMetric } from './metrics';

/** Repeats a point keeps with their job and value (the newest cells); n, median and range count every repeat. */
export const TREND_SAMPLE_MAX = 50;

/** One repeat as a point keeps it. */
export interface TrendSample {
  /** The cell's id (store order): the sample keeps the largest. */
  cellId: number;
  jobId: string;
  /** The cell's index in its job: the sample is ordered by job, then index. */
  index: number;
  repeat: number;
  value: number;
  verdict: VerdictKind;
}

/** What a point of the chart shows, summarized over every repeat stored for it. */
export interface TrendPointSummary {
  version: string;
  configLabel: string;
  n: number;
  /** Jobs with a repeat at this point. */
  jobs: number;
  median: number;
  min: number;
  max: number;
  clientBound: number;
  harnessBound: number;
  /** Distinct option sets (optionText) stored under the label, sorted. */
  optionSets: string[];
  /** At most TREND_SAMPLE_MAX repeats, by job id and cell index. */
  sample: TrendSample[];
}

/** A point as stored: with every value, sorted, for the median (never read on a request). */
export interface StoredTrendPoint extends TrendPointSummary {
  values: number[];
}

/** One finished cell's contribution to one point. */
export interface TrendEntry extends TrendSample {
  optionSet: string;
  /** The cell's job has no earlier repeat at this point. */
  newJob: boolean;
}

/** The point's identity within a chart selection (language, scenario, concurrency, operation, metric). */
export interface TrendPointKey {
  language: string;
  scenarioKey: string;
  concurrency: number;
  /** An operation kind of the mix, '' for the cell total. */
  operation: string;
  metric: TrendMetric;
  configLabel: string;
  version: string;
}

export function trendPointKeyText(k: TrendPointKey): string {
  return [k.language, k.scenarioKey, k.concurrency, k.operation, k.metric, k.configLabel, k.version].join('\u0000');
}

function sampleOrder(a: TrendSample, b: TrendSample): number {
  return a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : a.index - b.index || a.cellId - b.cellId;
}

/** Index of the first element greater than `v` (after equal ones). */
function upperBound<T>(list: T[], v: T, cmp: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(list[mid]!, v) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The median of sorted values (as results/stats' median). */
export function sortedMedian(s: number[]): number {
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The point with one more repeat (a new object; `point` is not changed). */
export function addToTrendPoint(point: StoredTrendPoint | null, key: Pick<TrendPointKey, 'version' | 'configLabel'>, e: TrendEntry): StoredTrendPoint {
  const values = point ? [...point.values] : [];
  values.splice(
    upperBound(values, e.value, (a, b) => a - b),
    0,
    e.value,
  );
  const optionSets = point ? [...point.optionSets] : [];
  if (!optionSets.includes(e.optionSet)) {
    optionSets.push(e.optionSet);
    optionSets.sort();
  }
  const entry: TrendSample = { cellId: e.cellId, jobId: e.jobId, index: e.index, repeat: e.repeat, value: e.value, verdict: e.verdict };
  let sample = point ? [...point.sample] : [];
  sample.splice(upperBound(sample, entry, sampleOrder), 0, entry);
  if (sample.length > TREND_SAMPLE_MAX) {
    // Keep the newest cells: drop the one stored first.
    let oldest = 0;
    for (let i = 1; i < sample.length; i++) if (sample[i]!.cellId < sample[oldest]!.cellId) oldest = i;
    sample = sample.filter((_, i) => i !== oldest);
  }
  return {
    version: key.version,
    configLabel: key.configLabel,
    n: values.length,
    jobs: (point?.jobs ?? 0) + (e.newJob ? 1 : 0),
    median: sortedMedian(values),
    min: values[0]!,
    max: values[values.length - 1]!,
    clientBound: (point?.clientBound ?? 0) + (e.verdict === 'client-bound' ? 1 : 0),
    harnessBound: (point?.harnessBound ?? 0) + (e.verdict === 'harness-bound' ? 1 : 0),
    optionSets,
    sample,
    values,
  };
}

/**
 * Folds many entries of one point at once (a rebuild): the same summary as adding them one by one
 * with addToTrendPoint, in any order, without copying the values for each.
 */
export class TrendPointBuilder {
  private values: number[] = [];
  private sample: TrendSample[] = [];
  private optionSets = new Set<string>();
  private jobs = 0;
  private clientBound = 0;
  private harnessBound = 0;

  add(e: TrendEntry): void {
    this.values.push(e.value);
    this.optionSets.add(e.optionSet);
    if (e.newJob) this.jobs++;
    if (e.verdict === 'client-bound') this.clientBound++;
    if (e.verdict === 'harness-bound') this.harnessBound++;
    this.sample.push({ cellId: e.cellId, jobId: e.jobId, index: e.index, repeat: e.repeat, value: e.value, verdict: e.verdict });
    if (this.sample.length >= 4 * TREND_SAMPLE_MAX) this.trimSample();
  }

  private trimSample(): void {
    this.sample = this.sample.sort((a, b) => b.cellId - a.cellId).slice(0, TREND_SAMPLE_MAX);
  }

  build(key: Pick<TrendPointKey, 'version' | 'configLabel'>): StoredTrendPoint {
    this.trimSample();
    const values = this.values.sort((a, b) => a - b);
    return {
      version: key.version,
      configLabel: key.configLabel,
      n: values.length,
      jobs: this.jobs,
      median: sortedMedian(values),
      min: values[0]!,
      max: values[values.length - 1]!,
      clientBound: this.clientBound,
      harnessBound: this.harnessBound,
      optionSets: [...this.optionSets].sort(),
      sample: this.sample.sort(sampleOrder),
      values,
    };
  }
}
