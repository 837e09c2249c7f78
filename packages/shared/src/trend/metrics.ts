import type { JobSpec } from '../job/spec';
import { idealQps, modeledLatencyMs } from '../targets/index';

export const TREND_METRICS = ['qps', 'p50', 'p90', 'p99', 'p999'] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

/** The stored numbers of one cell's result that a metric can read. */
export interface MetricSource {
  qps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
}

export const METRICS: Record<TrendMetric, { field: keyof MetricSource; label: string; unit: 'qps' | 'ms'; axis: string; higherIsBetter: boolean }> = {
  qps: { field: 'qps', label: 'throughput', unit: 'qps', axis: 'queries per second', higherIsBetter: true },
  p50: { field: 'p50Ms', label: 'p50 latency', unit: 'ms', axis: 'p50 latency (ms)', higherIsBetter: false },
  p90: { field: 'p90Ms', label: 'p90 latency', unit: 'ms', axis: 'p90 latency (ms)', higherIsBetter: false },
  p99: { field: 'p99Ms', label: 'p99 latency', unit: 'ms', axis: 'p99 latency (ms)', higherIsBetter: false },
  p999: { field: 'p999Ms', label: 'p99.9 latency', unit: 'ms', axis: 'p99.9 latency (ms)', higherIsBetter: false },
};

export function isTrendMetric(v: string): v is TrendMetric {
  return (TREND_METRICS as readonly string[]).includes(v);
}

export function metricValue(result: MetricSource, metric: TrendMetric): number {
  return result[METRICS[metric].field];
}

/** Reference line for the metric: ideal qps for throughput, the server's time per query for latency. */
export function metricReference(spec: Pick<JobSpec, 'target' | 'timeScale' | 'arrivalRates'>, metric: TrendMetric, concurrency: number | null): { value: number; label: string } | null {
  // An open loop's level is its rate: at most what arrives completes.
  if (metric === 'qps' && spec.arrivalRates && concurrency) return { value: concurrency, label: `offered ${concurrency} ops/s` };
  const latency = modeledLatencyMs(spec);
  if (latency === null) return null;
  if (metric === 'qps') {
    if (!concurrency || !(latency > 0)) return null;
    return { value: idealQps(concurrency, latency), label: `ideal ${concurrency} / ${latency} ms` };
  }
  return { value: latency, label: `server latency ${latency} ms` };
}
