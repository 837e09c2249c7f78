// The trend chart: one scenario, one metric, one concurrency; client versions on the x axis (semver
// order), one series per configuration label, every repeat of every stored job. Pure functions: the
// web app loads the rows, these turn them into the chart and table model.
import { median } from '../results/stats';
import { VERDICTS, type VerdictKind } from '../results/verdict';
import { optionText } from '../job/configuration';
import { oldestFirst } from '../job/semver';
import type { JobSpec } from '../job/spec';
import { METRICS, metricReference, metricValue, type MetricSource, type TrendMetric } from './metrics';
import type { TrendSelection } from './query';

/** One stored succeeded cell with what the view needs. */
export interface TrendCell extends MetricSource {
  jobId: string;
  /** Scenario key of the cell's job. */
  scenario: string;
  language: string;
  version: string;
  configLabel: string;
  /** The configuration's options (for telling apart option sets that share a label). */
  config?: Record<string, unknown> | null;
  concurrency: number;
  repeat: number;
  /** Which process limited the cell (results/verdict.ts). */
  verdict?: VerdictKind;
}

export interface RepeatValue {
  jobId: string;
  repeat: number;
  value: number;
  verdict: VerdictKind;
}

export interface TrendPoint {
  version: string;
  median: number;
  min: number;
  max: number;
  n: number;
  /** Every repeat, by job (oldest job id first as given) and repeat. */
  values: RepeatValue[];
  /** Jobs that produced the values, in the order first seen. */
  jobs: string[];
  /** Repeats that were client-bound, and harness-bound. */
  clientBound: number;
  harnessBound: number;
}

export interface TrendSeries {
  configuration: string;
  /** Distinct option sets stored under this label (more than one: the label means different things in different jobs). */
  optionSets: string[];
  /** Aligned with the model's versions; null where this configuration has no cell at that version. */
  points: (TrendPoint | null)[];
}

export interface TrendModel {
  language: string;
  scenario: string | null;
  metric: TrendMetric;
  unit: 'qps' | 'ms';
  axis: string;
  concurrency: number | null;
  /** The operation kind charted; null: the cell total. */
  operation: TrendSelection['operation'];
  /** Oldest first. */
  versions: string[];
  series: TrendSeries[];
  /** The ideal qps (C / latency) or the server's latency per query, for a horizontal reference line. */
  reference: { value: number; label: string } | null;
  cells: number;
}

/**
 * Groups the cells of one selection (language, scenario, concurrency; others are left out) into
 * series per configuration label and points per version: median, min, max, n and every repeat.
 */
export function buildTrendModel(cells: TrendCell[], selection: TrendSelection, spec?: Pick<JobSpec, 'target' | 'timeScale' | 'arrivalRates'>): TrendModel {
  const info = METRICS[selection.metric];
  const mine = cells.filter(
    (c) => c.language === selection.language && c.scenario === selection.scenario && c.concurrency === selection.concurrency && Number.isFinite(metricValue(c, selection.metric)),
  );
  const versions = oldestFirst(mine.map((c) => c.version));
  const labels = [...new Set(mine.map((c) => c.configLabel))].sort((a, b) => a.localeCompare(b));
  const byKey = new Map<string, TrendCell[]>();
  for (const c of mine) {
    const k = `${c.configLabel}\u0000${c.version}`;
    const list = byKey.get(k);
    if (list) list.push(c);
    else byKey.set(k, [c]);
  }
  const series = labels.map((configuration): TrendSeries => {
    const optionSets = new Set<string>();
    const points = versions.map((version): TrendPoint | null => {
      const group = byKey.get(`${configuration}\u0000${version}`);
      if (!group) return null;
      group.forEach((c) => optionSets.add(optionText(c.config)));
      const values = group.map((c) => ({ jobId: c.jobId, repeat: c.repeat, value: metricValue(c, selection.metric), verdict: c.verdict ?? 'clean' }));
      const nums = values.map((v) => v.value);
      return {
        version,
        median: median(nums),
        min: Math.min(...nums),
        max: Math.max(...nums),
        n: nums.length,
        values,
        jobs: [...new Set(values.map((v) => v.jobId))],
        clientBound: values.filter((v) => v.verdict === 'client-bound').length,
        harnessBound: values.filter((v) => v.verdict === 'harness-bound').length,
      };
    });
    return { configuration, optionSets: [...optionSets].sort(), points };
  });
  return {
    language: selection.language,
    scenario: selection.scenario,
    metric: selection.metric,
    unit: info.unit,
    axis: selection.operation ? `${selection.operation} ${info.axis}` : info.axis,
    concurrency: selection.concurrency,
    operation: selection.operation,
    versions,
    series,
    // The modeled time is per query, the ideal qps for the whole mix: neither is one kind's.
    reference: spec && !selection.operation ? metricReference(spec, selection.metric, selection.concurrency) : null,
    cells: mine.length,
  };
}

/**
 * What the browser chart needs, compact: with thousands of repeats the full model is megabytes of
 * JSON inside the page. Job ids are listed once; each repeat is [value, job index, repeat, verdict
 * (index in VERDICTS: 0 clean, 1 client-bound, 2 harness-bound)].
 */
export interface ChartData {
  language: string;
  unit: 'qps' | 'ms';
  axis: string;
  versions: string[];
  reference: TrendModel['reference'];
  jobIds: string[];
  series: {
    configuration: string;
    points: ({ median: number; min: number; max: number; n: number; jobs: number; repeats: [number, number, number, number][] } | null)[];
  }[];
}

/** Rounds to what a chart can show (4 significant digits are plenty). */
function chartNumber(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(4)) : v;
}

export function chartData(model: TrendModel): ChartData {
  const jobIndex = new Map<string, number>();
  const ref = (id: string) => {
    let i = jobIndex.get(id);
    if (i === undefined) jobIndex.set(id, (i = jobIndex.size));
    return i;
  };
  return {
    language: model.language,
    unit: model.unit,
    axis: model.axis,
    versions: model.versions,
    reference: model.reference,
    series: model.series.map((s) => ({
      configuration: s.configuration,
      points: s.points.map((p) =>
        p
          ? {
              median: chartNumber(p.median),
              min: chartNumber(p.min),
              max: chartNumber(p.max),
              n: p.n,
              jobs: p.jobs.length,
              repeats: p.values.map((v): [number, number, number, number] => [chartNumber(v.value), ref(v.jobId), v.repeat, VERDICTS.indexOf(v.verdict)]),
            }
          : null,
      ),
    })),
    jobIds: [...jobIndex.keys()],
  };
}

/**
 * Per version: the median's relative change from the previous version that has a point in the same
 * series (0.1 = 10% higher), null for the first point and where there is none.
 */
export function changeFromPrevious(series: Pick<TrendSeries, 'points'>): (number | null)[] {
  let previous: number | null = null;
  return series.points.map((p) => {
    if (!p) return null;
    const change = previous !== null && previous !== 0 ? (p.median - previous) / previous : null;
    previous = p.median;
    return change;
  });
}
