'use client';

import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { REFERENCE_COLOR, SERIES_COLORS } from './chart-colors';

export interface GateChartMetric {
  title: string;
  unit: string;
  baseline: number[];
  candidate: number[];
  /** The line a candidate repeat may not cross (worst-repeat test), or the one its median may not. */
  limit: number | null;
  limitLabel: string;
}

/** Per metric: every repeat of both arms side by side, with the limit the gate applies as a line. */
export function GateCharts({ metrics }: { metrics: GateChartMetric[] }) {
  return (
    <div className="chart-row" data-testid="gate-charts">
      {metrics.map((m) => {
        const n = Math.max(m.baseline.length, m.candidate.length);
        const data = Array.from({ length: n }, (_, i) => ({ repeat: i + 1, baseline: m.baseline[i] ?? null, candidate: m.candidate[i] ?? null }));
        return (
          <div className="chart third" key={m.title}>
            <h3>{m.title}</h3>
            <ResponsiveContainer width="100%" height="88%">
              <BarChart data={data} margin={{ top: 10, right: 10, bottom: 25, left: 10 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="repeat" label={{ value: 'repeat', position: 'insideBottom', offset: -12 }} />
                <YAxis label={{ value: m.unit, angle: -90, position: 'insideLeft' }} />
                <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(m.unit === 'ms' ? 1 : 0) : v)} />
                <Legend verticalAlign="top" />
                <Bar dataKey="baseline" name="baseline" fill={SERIES_COLORS[0]} isAnimationActive={false} />
                <Bar dataKey="candidate" name="candidate" fill={SERIES_COLORS[1]} isAnimationActive={false} />
                {m.limit !== null && <ReferenceLine y={m.limit} stroke={REFERENCE_COLOR} strokeDasharray="6 4" label={{ value: m.limitLabel, position: 'insideTopRight' }} />}
              </BarChart>
            </ResponsiveContainer>
          </div>
        );
      })}
    </div>
  );
}
