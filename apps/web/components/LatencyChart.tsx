'use client';

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SERIES_COLORS } from './chart-colors';

export interface LatencyPoint {
  concurrency: number;
  [series: string]: number | null;
}

/** p50 (solid) and p99 (dashed) versus concurrency per configuration, on a log axis. */
export function LatencyChart({ data, series, serverMs }: { data: LatencyPoint[]; series: string[]; serverMs: number }) {
  return (
    <div className="chart" data-testid="latency-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 10, right: 30, bottom: 30, left: 20 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="concurrency" type="number" domain={['dataMin', 'dataMax']} label={{ value: 'concurrency (operations in flight)', position: 'insideBottom', offset: -15 }} />
          <YAxis scale="log" domain={[Math.max(0.1, serverMs * 0.8), 'auto']} allowDataOverflow tickFormatter={(v) => String(Math.round(v))} label={{ value: 'latency, ms (log scale)', angle: -90, position: 'insideLeft', offset: -5 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? `${v.toFixed(1)} ms` : v)} />
          <Legend verticalAlign="top" />
          {series.flatMap((s, i) => [
            <Line key={`${s} p50`} dataKey={`${s} p50`} name={`${s} p50`} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} strokeWidth={2} connectNulls isAnimationActive={false} />,
            <Line key={`${s} p99`} dataKey={`${s} p99`} name={`${s} p99`} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} strokeDasharray="5 4" connectNulls isAnimationActive={false} />,
          ])}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
