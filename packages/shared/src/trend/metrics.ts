import type { JobSpec } from '../job/spec';
import { idealQps, modeledLatencyMs } from '../targets/index';

export const TREND_METRICS = ['qps', 'p50', 'p90', 'p99', 'p999', 'rowsPerSecond', 'cpuPer1kRows'] as const;
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
}

export const METRICS: Record<TrendMetric, { field: keyof MetricSource; label: string; unit: MetricUnit; axis: string; higherIsBetter: boolean; derived?: true }> = {
  qps: { field: 'qps', label: 'throughput', unit: 'qps', axis: 'queries per second', higherIsBetter: true },
  p50: { field: 'p50Ms', label: 'p50 latency', unit: 'ms', axis: 'p50 latency (ms)', higherIsBetter: false },
  p90: { field: 'p90Ms', label: 'p90 latency', unit: 'ms', axis: 'p90 latency (ms)', higherIsBetter: false },
  p99: { field: 'p99Ms', label: 'p99 latency', unit: 'ms', axis: 'p99 latency (ms)', higherIsBetter: false },
  p999: { field: 'p999Ms', label: 'p99.9 latency', unit: 'ms', axis: 'p99.9 latency (ms)', higherIsBetter: false },
  // Not columns of a result: derived from it and the job's result set (a scan's jobs only).
  rowsPerSecond: { field: 'rowsPerSecond', label: 'rows per second', unit: 'rows/s', axis: 'rows decoded per second', higherIsBetter: true, derived: true },
  cpuPer1kRows: { field: 'cpuMsPer1kRows', label: 'CPU per 1,000 rows', unit: 'ms', axis: "the driver's CPU per 1,000 rows (ms)", higherIsBetter: false, derived: true },
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
