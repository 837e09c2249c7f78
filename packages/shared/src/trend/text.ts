import { formatMs, formatQps } from '../format';
import type { MetricUnit } from './metrics';
import type { TrendPoint } from './model';

/** "551 (230–553, n=3)" for qps, "652.3 (650.1–700.0, n=3)" for latency. */
export function formatPoint(p: TrendPoint, unit: MetricUnit): string {
  const f = (v: number) => formatValue(v, unit);
  return p.n > 1 ? `${f(p.median)} (${f(p.min)}–${f(p.max)}, n=${p.n})` : `${f(p.median)} (n=1)`;
}

/** A value of the chart in its unit: "551" qps, "652.3" ms. */
export function formatValue(v: number, unit: MetricUnit): string {
  return unit === 'ms' ? formatMs(v) : formatQps(v);
}
