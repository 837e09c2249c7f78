'use client';

import type { ReactNode } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { REFERENCE_COLOR, SERIES_COLORS } from './chart-colors';
import { ceilingKey } from './chart-keys';

export interface QpsPoint {
  concurrency: number;
  /** concurrency / latency, where the target models a latency: what no limit but the server allows. */
  ideal: number | null;
  [series: string]: number | null;
}

export interface LatencyPoint {
  concurrency: number;
  [series: string]: number | null;
}

/** A line chart over concurrency: the frame both charts of a job page share. */
function ConcurrencyFrame({ testId, data, open, children }: { testId: string; data: object[]; open?: boolean; children: ReactNode }) {
  return (
    <div className="chart" data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 10, right: 30, bottom: 30, left: 20 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="concurrency"
            type="number"
            domain={['dataMin', 'dataMax']}
            label={{ value: open ? 'arrivals per second (open loop)' : 'concurrency (operations in flight)', position: 'insideBottom', offset: -15 }}
          />
          <Legend verticalAlign="top" />
          {children}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

const color = (i: number) => SERIES_COLORS[i % SERIES_COLORS.length];

/**
 * qps versus concurrency (or an open loop's arrival rate), one line per configuration with its modeled
 * ceiling dashed in its colour where known, and "no limits" (concurrency / latency; an open loop: the
 * rate offered) in grey.
 */
export function QpsChart({ data, series, open }: { data: QpsPoint[]; series: string[]; open?: boolean }) {
  const modeled = series.filter((s) => data.some((p) => p[ceilingKey(s)] != null));
  return (
    <ConcurrencyFrame testId="qps-chart" data={data} open={open}>
      <YAxis label={{ value: 'queries per second', angle: -90, position: 'insideLeft', offset: -5 }} />
      <Tooltip formatter={(v) => (typeof v === 'number' ? Math.round(v) : v)} />
      <Line dataKey="ideal" name={open ? 'offered (the arrival rate)' : 'no limits (concurrency / latency)'} stroke={REFERENCE_COLOR} strokeDasharray="2 4" dot={false} isAnimationActive={false} />
      {series.map((s, i) => (
        <Line key={s} dataKey={s} name={s} stroke={color(i)} strokeWidth={2} connectNulls isAnimationActive={false} />
      ))}
      {modeled.map((s) => (
        <Line key={ceilingKey(s)} dataKey={ceilingKey(s)} name={ceilingKey(s)} stroke={color(series.indexOf(s))} strokeDasharray="6 4" dot={false} connectNulls isAnimationActive={false} />
      ))}
    </ConcurrencyFrame>
  );
}

/** p50 (solid) and p99 (dashed) versus concurrency per configuration, on a log axis. */
export function LatencyChart({ data, series, serverMs, open }: { data: LatencyPoint[]; series: string[]; serverMs: number | null; open?: boolean }) {
  return (
    <ConcurrencyFrame testId="latency-chart" data={data} open={open}>
      <YAxis
        scale="log"
        domain={[serverMs === null ? 'auto' : Math.max(0.1, serverMs * 0.8), 'auto']}
        allowDataOverflow
        tickFormatter={(v) => String(Math.round(v))}
        label={{ value: 'latency, ms (log scale)', angle: -90, position: 'insideLeft', offset: -5 }}
      />
      <Tooltip formatter={(v) => (typeof v === 'number' ? `${v.toFixed(1)} ms` : v)} />
      {series.flatMap((s, i) => [
        <Line key={`${s} p50`} dataKey={`${s} p50`} name={`${s} p50`} stroke={color(i)} strokeWidth={2} connectNulls isAnimationActive={false} />,
        <Line key={`${s} p99`} dataKey={`${s} p99`} name={`${s} p99`} stroke={color(i)} strokeDasharray="5 4" connectNulls isAnimationActive={false} />,
      ])}
    </ConcurrencyFrame>
  );
}

export interface ClientServerSeries {
  /** Operation kind and column (client and configuration). */
  title: string;
  points: { concurrency: number; clientP50: number; clientP99: number; serverP50: number; serverP99: number }[];
}

/**
 * Client p50 / p99 beside the server's time per operation over concurrency, one chart per operation
 * kind and column: where the lines part, the time is the client's (a session pool, streams, backoff).
 */
export function ClientServerCharts({ data }: { data: ClientServerSeries[] }) {
  if (!data.length) return null;
  return (
    <>
      {data.map((s) => (
        <div key={s.title}>
          <h3>Client vs server: {s.title}</h3>
          <ConcurrencyFrame testId="client-server-chart" data={s.points}>
            <YAxis
              scale="log"
              domain={['auto', 'auto']}
              allowDataOverflow
              tickFormatter={(v) => String(Math.round(v))}
              label={{ value: 'ms per operation (log scale)', angle: -90, position: 'insideLeft', offset: -5 }}
            />
            <Tooltip formatter={(v) => (typeof v === 'number' ? `${v.toFixed(1)} ms` : v)} />
            <Line dataKey="clientP50" name="client p50" stroke={color(0)} strokeWidth={2} isAnimationActive={false} />
            <Line dataKey="clientP99" name="client p99" stroke={color(0)} strokeDasharray="5 4" isAnimationActive={false} />
            <Line dataKey="serverP50" name="server p50" stroke={color(1)} strokeWidth={2} isAnimationActive={false} />
            <Line dataKey="serverP99" name="server p99" stroke={color(1)} strokeDasharray="5 4" isAnimationActive={false} />
          </ConcurrencyFrame>
        </div>
      ))}
    </>
  );
}
