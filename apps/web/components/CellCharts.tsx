'use client';

import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CellEvent } from '@scb/shared/stored';
import { REFERENCE_COLOR, SERIES_COLORS } from './chart-colors';

export interface CellChartData {
  index: number;
  label: string;
  channels: { connection: number; rpcs: number; peakInFlight: number }[];
  timeline: { second: number; count: number; errors: number; p99Ms: number; ms?: number; pool?: Record<string, number>; waiting?: number }[];
  /** Connections, schedule changes and injected faults while measuring, ms into the measured phase (the fake's accounting). */
  events: CellEvent[];
}

const secondOf = (e: CellEvent) => Math.floor(e.atMs / 1000) + 1;

/** Connection and schedule events by the second of the measured phase they fell in (1-based, as the timeline), in words. */
function eventMarks(events: CellChartData['events']): { second: number; text: string }[] {
  const bySecond = new Map<number, { opened: number; closed: number; schedule: string[] }>();
  for (const e of events) {
    if (e.kind === 'faults-injected') continue;
    const second = secondOf(e);
    const m = bySecond.get(second) ?? { opened: 0, closed: 0, schedule: [] };
    bySecond.set(second, m);
    if (e.kind === 'connection-opened') m.opened++;
    else if (e.kind === 'connection-closed') m.closed++;
    else if (e.kind === 'schedule-change') m.schedule.push(e.text);
  }
  return [...bySecond].map(([second, m]) => ({ second, text: [...m.schedule, m.closed && `${m.closed} closed`, m.opened && `${m.opened} opened`].filter(Boolean).join(', ') }));
}

/** Injected faults per second of the measured phase, and in all by RPC kind and code, in words. */
function faultsOf(events: CellChartData['events']): { perSecond: Map<number, number>; text: string } {
  const perSecond = new Map<number, number>();
  const byCode = new Map<string, number>();
  for (const e of events) {
    if (e.kind !== 'faults-injected') continue;
    perSecond.set(secondOf(e), (perSecond.get(secondOf(e)) ?? 0) + e.count);
    const k = `${e.code} on ${e.rpc}`;
    byCode.set(k, (byCode.get(k) ?? 0) + e.count);
  }
  const seconds = [...perSecond.keys()].sort((a, b) => a - b);
  const text = byCode.size ? `${[...byCode].map(([k, n]) => `${n} ${k}`).join(', ')} in seconds ${seconds[0]}–${seconds.at(-1)}` : '';
  return { perSecond, text };
}

/** For one chosen cell: how its RPCs spread over connections, and its measured seconds. */
export function CellCharts({ cells, streamLimit }: { cells: CellChartData[]; streamLimit: number | null }) {
  const [chosen, setChosen] = useState(cells[0]?.index ?? 0);
  const cell = cells.find((c) => c.index === chosen) ?? cells[0];
  if (!cell) return null;
  // Busiest first; connection numbers are the order the fake first saw them.
  // Rates, not counts: the last bucket is a partial second.
  const faults = faultsOf(cell.events);
  const marks = eventMarks(cell.events);
  const perSecond = cell.timeline.map((t) => {
    const seconds = (t.ms ?? 1000) / 1000;
    const injected = faults.perSecond.get(t.second);
    // A second in which no operation ended has no p99 (a stall): a gap in the line, not a 0.
    return {
      second: t.second,
      qps: t.count / seconds,
      errorsPerSecond: t.errors / seconds,
      p99Ms: t.count > 0 ? t.p99Ms : null,
      ...(injected !== undefined && { faultsPerSecond: injected / seconds }),
      // An open loop: the most arrivals in line for the outstanding cap during the second.
      ...(t.waiting !== undefined && { waiting: t.waiting }),
    };
  });
  const open = cell.timeline.some((t) => t.waiting !== undefined);
  const spread = [...cell.channels].sort((a, b) => b.rpcs - a.rpcs).map((c, rank) => ({ ...c, rank: rank + 1 }));
  return (
    <div data-testid="cell-charts">
      <label>
        Cell{' '}
        <select value={chosen} onChange={(e) => setChosen(Number(e.target.value))} aria-label="cell for the charts below">
          {cells.map((c) => (
            <option key={c.index} value={c.index}>
              {c.index + 1}: {c.label}
            </option>
          ))}
        </select>
      </label>
      <div className="chart-row">
        <div className="chart half" data-testid="channel-chart">
          <h3>RPCs and peak in-flight per connection</h3>
          <ResponsiveContainer width="100%" height="90%">
            <BarChart data={spread} margin={{ top: 10, right: 20, bottom: 30, left: 20 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="rank" label={{ value: 'connections, busiest first', position: 'insideBottom', offset: -15 }} />
              <YAxis yAxisId="rpcs" label={{ value: 'RPCs', angle: -90, position: 'insideLeft' }} />
              <YAxis
                yAxisId="streams"
                orientation="right"
                domain={[0, Math.max(streamLimit ?? 0, ...spread.map((c) => c.peakInFlight))]}
                label={{ value: 'peak streams in flight', angle: 90, position: 'insideRight' }}
              />
              <Tooltip />
              <Legend verticalAlign="top" />
              <Bar yAxisId="rpcs" dataKey="rpcs" name="RPCs" fill={SERIES_COLORS[0]} isAnimationActive={false} />
              <Bar yAxisId="streams" dataKey="peakInFlight" name="peak in-flight" fill={SERIES_COLORS[1]} isAnimationActive={false} />
              {streamLimit !== null && (
                <ReferenceLine yAxisId="streams" y={streamLimit} stroke={REFERENCE_COLOR} strokeDasharray="6 4" label={{ value: `stream limit ${streamLimit}`, position: 'insideTopRight' }} />
              )}
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="chart half" data-testid="timeline-chart">
          <h3>Per second while measuring</h3>
          {marks.length > 0 && (
            <p className="muted" data-testid="event-marks">
              Events: {marks.map((m) => `second ${m.second}: ${m.text}`).join('; ')}
            </p>
          )}
          {faults.text && (
            <p className="muted" data-testid="fault-marks">
              Faults injected by the fake: {faults.text}
            </p>
          )}
          <ResponsiveContainer width="100%" height="90%">
            <LineChart data={perSecond} margin={{ top: 10, right: 20, bottom: 30, left: 20 }}>
              <CartesianGrid strokeDasharray="3 3" />
              {/* A number axis: a mark in a second the timeline lacks (no operation ended in it) is still drawn. */}
              <XAxis
                type="number"
                dataKey="second"
                domain={[1, Math.max(1, perSecond.length, ...marks.map((m) => m.second))]}
                allowDecimals={false}
                label={{ value: 'second of the measured phase', position: 'insideBottom', offset: -15 }}
              />
              <YAxis yAxisId="qps" tickFormatter={(v) => String(Math.round(v))} label={{ value: 'per second', angle: -90, position: 'insideLeft' }} />
              <YAxis yAxisId="p99" orientation="right" label={{ value: 'p99, ms', angle: 90, position: 'insideRight' }} />
              <Tooltip />
              <Legend verticalAlign="top" />
              <Line yAxisId="qps" dataKey="qps" name="qps" stroke={SERIES_COLORS[0]} strokeWidth={2} isAnimationActive={false} />
              <Line yAxisId="qps" dataKey="errorsPerSecond" name="errors / s" stroke={SERIES_COLORS[1]} isAnimationActive={false} />
              <Line yAxisId="p99" dataKey="p99Ms" name="p99 ms" stroke={SERIES_COLORS[2]} strokeDasharray="5 4" isAnimationActive={false} />
              {open && (
                <Line
                  yAxisId="qps"
                  dataKey="waiting"
                  name="waiting for the outstanding cap (most at once)"
                  stroke={SERIES_COLORS[4 % SERIES_COLORS.length]}
                  strokeDasharray="8 3"
                  isAnimationActive={false}
                />
              )}
              {faults.text && <Line yAxisId="qps" dataKey="faultsPerSecond" name="faults injected / s" stroke={SERIES_COLORS[3]} strokeDasharray="2 2" isAnimationActive={false} />}
              {marks.map((m) => (
                <ReferenceLine key={m.second} yAxisId="qps" x={m.second} stroke={REFERENCE_COLOR} strokeDasharray="2 3" label={{ value: m.text, position: 'insideTop', fontSize: 11 }} />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </div>
      <PoolChart timeline={cell.timeline} />
    </div>
  );
}

/** The client's session pool per second, where its driver could read it (docs/job-spec.md, "Session pool figures"). */
function PoolChart({ timeline }: { timeline: CellChartData['timeline'] }) {
  const names = [...new Set(timeline.flatMap((t) => Object.keys(t.pool ?? {})))].sort();
  if (!names.length) return null;
  // A client on a multiplexed session reports a pool it never uses: say so instead of drawing zeros.
  if (timeline.every((t) => Object.values(t.pool ?? {}).every((v) => v === 0))) {
    return (
      <p className="muted" data-testid="pool-unused">
        Session pool: every figure ({names.join(', ')}) was 0 in every second; the client did not use its pool (a multiplexed session, for example).
      </p>
    );
  }
  const data = timeline.map((t) => ({ second: t.second, ...t.pool }));
  return (
    <div className="chart" data-testid="pool-chart">
      <h3>Session pool per second (the client&apos;s own figures, at the end of each second)</h3>
      <ResponsiveContainer width="100%" height="90%">
        <LineChart data={data} margin={{ top: 10, right: 20, bottom: 30, left: 20 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="second" label={{ value: 'second of the measured phase', position: 'insideBottom', offset: -15 }} />
          <YAxis label={{ value: 'sessions', angle: -90, position: 'insideLeft' }} />
          <Tooltip />
          <Legend verticalAlign="top" />
          {names.map((n, i) => (
            <Line key={n} dataKey={n} name={n.replaceAll('_', ' ')} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} strokeWidth={2} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
