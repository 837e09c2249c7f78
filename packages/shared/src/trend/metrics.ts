import type { JobSpec } from '../job/spec';
import { idealQps, modeledLatencyMs } from '../targets/index';

export const TREND_METRICS = ['qps', 'p50', 'p90', 'p99', 'p999', 'rowsPerSecond', 'cpuPer1kRows', 'firstRowP50', 'firstRowP99', 'lastRowP50', 'lastRowP99'] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];
export type MetricUnit = 'qps' | 'ms' | 'rows/s';

/** The stored numbers of one cell's result that a metric can read. */
export interface MetricSource {
  qps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** A scan's figures, from its stored result and its result set's rows (result-set/figures.ts); absent for other workloads. */
  rowsPerSecond?: number;
  cpuMsPer1kRows?: number;
  /** A scan's times from its start to its first row and to its last (CellResult.firstRowP50Ms…); absent for other workloads. */
  firstRowP50Ms?: number;
  firstRowP99Ms?: number;
  lastRowP50Ms?: number;
  lastRowP99Ms?: number;
}

export const METRICS: Record<TrendMetric, { field: keyof MetricSource; label: string; unit: MetricUnit; axis: string; higherIsBetter: boolean; derived?: true }> = {
  qps: { field: 'qps', label: 'throughput', unit: 'qps', axis: 'queries per second', higherIsBetter: true },
  p50: { field: 'p50Ms', label: 'p50 latency', unit: 'ms', axis: 'p50 latency (ms)', higherIsBetter: false },
  p90: { field: 'p90Ms', label: 'p90 latency', unit: 'ms', axis: 'p90 latency (ms)', higherIsBetter: false },
  p99: { field: 'p99Ms', label: 'p99 latency', unit: 'ms', axis: 'p99 latency (ms)', higherIsBetter: false },
  p999: { field: 'p999Ms', label: 'p99.9 latency', unit: 'ms', axis: 'p99.9 latency (ms)', higherIsBetter: false },
  // A scan's (the job's result set), kept in the across-versions summary only: derived from a result and
  // the job's result set, or the cell's row times, which are a scan's and no other kind's.
  rowsPerSecond: { field: 'rowsPerSecond', label: 'rows per second', unit: 'rows/s', axis: 'rows decoded per second', higherIsBetter: true, derived: true },
  cpuPer1kRows: { field: 'cpuMsPer1kRows', label: 'CPU per 1,000 rows', unit: 'ms', axis: "the driver's CPU per 1,000 rows (ms)", higherIsBetter: false, derived: true },
  firstRowP50: { field: 'firstRowP50Ms', label: 'first row p50', unit: 'ms', axis: 'time to the first row, p50 (ms)', higherIsBetter: false, derived: true },
  firstRowP99: { field: 'firstRowP99Ms', label: 'first row p99', unit: 'ms', axis: 'time to the first row, p99 (ms)', higherIsBetter: false, derived: true },
  lastRowP50: { field: 'lastRowP50Ms', label: 'last row p50', unit: 'ms', axis: 'time to the last row, p50 (ms)', higherIsBetter: false, derived: true },
  lastRowP99: { field: 'lastRowP99Ms', label: 'last row p99', unit: 'ms', axis: 'time to the last row, p99 (ms)', higherIsBetter: false, derived: true },
};

export function isTrendMetric(v: string): v is TrendMetric {
  return (TREND_METRICS as readonly string[]).includes(v);
}

export function metricValue(result: MetricSource, metric: TrendMetric): number {
  return result[METRICS[metric].field] ?? Number.NaN;
}

/** Reference line for the metric: ideal qps for throughput, the server's time per query for latency. */
export function metricReference(spec: Pick<JobSpec, 'target' | 'timeScale' | 'arrivalRates'>, metric: TrendMetric, concurrency: number | null): { value: number; label: string } | null {
  // An open loop's level is its rate: at most what arrives completes.
  if (METRICS[metric].derived) return null;
  if (metric === 'qps' && spec.arrivalRates && concurrency) return { value: concurrency, label: `offered ${concurrency} ops/s` };
  const latency = modeledLatencyMs(spec);
  if (latency === null) return null;
  if (metric === 'qps') {
    if (!concurrency || !(latency > 0)) return null;
    return { value: idealQps(concurrency, latency), label: `ideal ${concurrency} / ${latency} ms` };
  }
  return { value: latency, label: `server latency ${latency} ms` };
}
