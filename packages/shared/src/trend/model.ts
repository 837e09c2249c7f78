// The trend chart: one scenario, one metric, one concurrency; client versions on the x axis (semver
// order), one series per configuration label, every repeat of every stored job. Pure functions: the
// web app loads the rows, these turn them into the chart and table model.
import { VERDICTS, type VerdictKind } from '../results/verdict';
import { optionText } from '../job/configuration';
import { oldestFirst } from '../job/semver';
import type { JobSpec } from '../job/spec';
import { METRICS, metricReference, metricValue, type MetricSource, type MetricUnit, type TrendMetric } from './metrics';
import type { TrendSelection } from './query';
import { addToTrendPoint, type StoredTrendPoint, type TrendPointSummary } from './summary';

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
  /** The cell's id and index in its job, where known (the order of repeats, and which a bounded sample keeps). */
  cellId?: number;
  index?: number;
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
  /** The repeats, by job id and cell index: every one up to TREND_SAMPLE_MAX, else the newest that many. */
  values: RepeatValue[];
  /** Jobs that produced these values, in the order first seen. */
  jobs: string[];
  /** Jobs with a repeat at this point (all of them, not only those of `values`). */
  jobCount: number;
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
  unit: MetricUnit;
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
 * series per configuration label and points per version: median, min, max, n and every repeat
 * (folded as the stored summary folds them, see summary.ts).
 */
export function buildTrendModel(cells: TrendCell[], selection: TrendSelection, spec?: Pick<JobSpec, 'target' | 'timeScale' | 'arrivalRates'>): TrendModel {
  const mine = cells.filter(
    (c) => c.language === selection.language && c.scenario === selection.scenario && c.concurrency === selection.concurrency && Number.isFinite(metricValue(c, selection.metric)),
  );
  const points = new Map<string, StoredTrendPoint>();
  const jobsSeen = new Set<string>();
  mine.forEach((c, i) => {
    const k = `${c.configLabel}\u0000${c.version}`;
    const jobKey = `${k}\u0000${c.jobId}`;
    const newJob = !jobsSeen.has(jobKey);
    jobsSeen.add(jobKey);
    points.set(
      k,
      addToTrendPoint(points.get(k) ?? null, c, {
        cellId: c.cellId ?? i,
        jobId: c.jobId,
        index: c.index ?? c.repeat,
        repeat: c.repeat,
        value: metricValue(c, selection.metric),
        verdict: c.verdict ?? 'clean',
        optionSet: optionText(c.config),
        newJob,
      }),
    );
  });
  return buildTrendModelFromPoints([...points.values()], selection, spec);
}

/** The chart and table model of one selection from its points' summaries (TrendPointSummary). */
export function buildTrendModelFromPoints(points: TrendPointSummary[], selection: TrendSelection, spec?: Pick<JobSpec, 'target' | 'timeScale' | 'arrivalRates'>): TrendModel {
  const info = METRICS[selection.metric];
  const versions = oldestFirst(points.map((p) => p.version));
  const labels = [...new Set(points.map((p) => p.configLabel))].sort((a, b) => a.localeCompare(b));
  const byKey = new Map(points.map((p) => [`${p.configLabel}\u0000${p.version}`, p]));
  const series = labels.map((configuration): TrendSeries => {
    const optionSets = new Set<string>();
    const seriesPoints = versions.map((version): TrendPoint | null => {
      const p = byKey.get(`${configuration}\u0000${version}`);
      if (!p) return null;
      p.optionSets.forEach((o) => optionSets.add(o));
      const values = p.sample.map((v) => ({ jobId: v.jobId, repeat: v.repeat, value: v.value, verdict: v.verdict }));
      return {
        version,
        median: p.median,
        min: p.min,
        max: p.max,
        n: p.n,
        values,
        jobs: [...new Set(values.map((v) => v.jobId))],
        jobCount: p.jobs,
        clientBound: p.clientBound,
        harnessBound: p.harnessBound,
      };
    });
    return { configuration, optionSets: [...optionSets].sort(), points: seriesPoints };
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
    cells: points.reduce((sum, p) => sum + p.n, 0),
  };
}

/**
 * What the browser chart needs, compact: with thousands of repeats the full model is megabytes of
 * JSON inside the page. Job ids are listed once; each repeat is [value, job index, repeat, verdict
 * (index in VERDICTS: 0 clean, 1 client-bound, 2 harness-bound)].
 */
export interface ChartData {
  language: string;
  unit: MetricUnit;
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
              jobs: p.jobCount,
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
