'use client';

import { REFERENCE_COLOR, SERIES_COLORS as COLORS } from './chart-colors';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface QpsPoint {
  concurrency: number;
  ideal: number;
  [series: string]: number | null;
}


/** qps versus concurrency, one line per configuration, with the ideal concurrency / latency. */
export function QpsChart({ data, series }: { data: QpsPoint[]; series: string[] }) {
  return (
    <div className="chart" data-testid="qps-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 10, right: 30, bottom: 30, left: 20 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="concurrency" type="number" domain={['dataMin', 'dataMax']} label={{ value: 'concurrency (operations in flight)', position: 'insideBottom', offset: -15 }} />
          <YAxis label={{ value: 'queries per second', angle: -90, position: 'insideLeft', offset: -5 }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? Math.round(v) : v)} />
          <Legend verticalAlign="top" />
          <Line dataKey="ideal" name="ideal (concurrency / latency)" stroke={REFERENCE_COLOR} strokeDasharray="6 4" dot={false} isAnimationActive={false} />
          {series.map((s, i) => (
            <Line key={s} dataKey={s} name={s} stroke={COLORS[i % COLORS.length]} strokeWidth={2} connectNulls isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
