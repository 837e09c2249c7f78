'use client';

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CompareChartGroup } from '@scb/shared/compare';
import { REFERENCE_COLOR, SERIES_COLORS } from './chart-colors';

export interface ChartSeries {
  key: string;
  label: string;
}

const qpsText = (v: unknown) => (typeof v === 'number' ? String(Math.round(v)) : String(v));
const msText = (v: unknown) => (typeof v === 'number' ? (v >= 100 ? v.toFixed(0) : v.toFixed(1)) : String(v));
const tickText = (v: unknown) => (typeof v === 'number' ? String(Number(v.toPrecision(3))) : String(v));
const MARGIN = { top: 10, right: 30, bottom: 30, left: 20 };

/** A log axis that shows every value (and the reference) with round ticks: 1-2-5 per decade, denser when the range is narrow. */
function logAxis(values: number[]): { domain: [number, number]; ticks: number[] } | null {
  const vs = values.filter((v) => Number.isFinite(v) && v > 0);
  if (!vs.length) return null;
  const lo = Math.min(...vs) / 1.15;
  const hi = Math.max(...vs) * 1.15;
  const within = (steps: number[]) => {
    const out: number[] = [];
    for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++)
      for (const m of steps) {
        const t = Number((m * 10 ** k).toPrecision(6));
        if (t >= lo && t <= hi) out.push(t);
      }
    return out;
  };
  let ticks = within([1, 2, 5]);
  if (ticks.length < 4) ticks = within([1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9]);
  return { domain: [lo, hi], ticks };
}
/** The x axis: concurrency, or an open loop's arrival rate. */
const xLabel = (open: boolean) => ({ value: open ? 'arrivals per second (open loop)' : 'concurrency (operations in flight)', position: 'insideBottom' as const, offset: -15 });

function qpsLines({ group, series, idealLatencyMs, open }: { group: CompareChartGroup; series: ChartSeries[]; idealLatencyMs: number | null; open: boolean }) {
  return (
    <LineChart data={group.qps} margin={MARGIN}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="concurrency" type="number" domain={['dataMin', 'dataMax']} label={xLabel(open)} />
      <YAxis tickFormatter={qpsText} label={{ value: 'queries per second', angle: -90, position: 'insideLeft', offset: -5 }} />
      <Tooltip formatter={qpsText} itemSorter="dataKey" />
      <Legend verticalAlign="top" itemSorter={null} />
      {series.map((s, i) => (
        <Line key={s.key} dataKey={s.key} name={s.label} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} strokeWidth={i === 0 ? 3 : 2} connectNulls isAnimationActive={false} />
      ))}
      {(open || idealLatencyMs !== null) && (
        <Line
          dataKey="ideal"
          name={open ? 'offered (the arrival rate)' : `ideal (concurrency / ${msText(idealLatencyMs!)} ms)`}
          stroke={REFERENCE_COLOR}
          strokeDasharray="6 4"
          dot={false}
          isAnimationActive={false}
        />
      )}
    </LineChart>
  );
}

function p99Lines({ group, series, idealLatencyMs, open }: { group: CompareChartGroup; series: ChartSeries[]; idealLatencyMs: number | null; open: boolean }) {
  const values = group.p99Ms.flatMap((p) => series.map((s) => p[s.key] ?? NaN));
  const axis = logAxis(idealLatencyMs !== null ? [...values, idealLatencyMs] : values);
  return (
    <LineChart data={group.p99Ms} margin={MARGIN}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="concurrency" type="number" domain={['dataMin', 'dataMax']} label={xLabel(open)} />
      <YAxis
        scale="log"
        domain={axis?.domain ?? ['auto', 'auto']}
        ticks={axis?.ticks}
        allowDataOverflow
        tickFormatter={tickText}
        label={{ value: 'p99 ms (log scale)', angle: -90, position: 'insideLeft', offset: -5 }}
      />
      <Tooltip formatter={msText} itemSorter="dataKey" />
      <Legend verticalAlign="top" itemSorter={null} />
      {idealLatencyMs !== null && <ReferenceLine y={idealLatencyMs} stroke={REFERENCE_COLOR} strokeDasharray="6 4" strokeWidth={1.5} />}
      {series.map((s, i) => (
        <Line key={s.key} dataKey={s.key} name={s.label} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} strokeWidth={i === 0 ? 3 : 2} connectNulls isAnimationActive={false} />
      ))}
    </LineChart>
  );
}

// These return the chart element itself (called, not rendered as components): ResponsiveContainer sizes its direct child.

/** One concurrency: a line has nothing to join, so bars (from zero) per series, with the ideal as a dashed reference line (named in the caption). */
function bars({ data, series, reference, unit, open }: { data: CompareChartGroup['qps']; series: ChartSeries[]; reference: number | null; unit: 'qps' | 'ms'; open: boolean }) {
  const text = unit === 'qps' ? qpsText : msText;
  return (
    <BarChart data={data} margin={MARGIN}>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="concurrency" type="category" label={xLabel(open)} />
      <YAxis tickFormatter={tickText} label={{ value: unit === 'qps' ? 'queries per second' : 'p99 latency, ms', angle: -90, position: 'insideLeft', offset: -5 }} />
      <Tooltip formatter={text} itemSorter="dataKey" />
      <Legend verticalAlign="top" itemSorter={null} />
      {reference !== null && <ReferenceLine y={reference} stroke={REFERENCE_COLOR} strokeDasharray="6 4" strokeWidth={1.5} ifOverflow="extendDomain" />}
      {series.map((s, i) => (
        <Bar key={s.key} dataKey={s.key} name={s.label} fill={SERIES_COLORS[i % SERIES_COLORS.length]} maxBarSize={90} isAnimationActive={false} />
      ))}
    </BarChart>
  );
}

/** Overlaid charts of a comparison: qps and p99 versus concurrency, one line (or bar) per series. */
export function CompareCharts({ groups, series, idealLatencyMs, open = false }: { groups: CompareChartGroup[]; series: ChartSeries[]; idealLatencyMs: number | null; open?: boolean }) {
  const at = (level: number) => (open ? `at ${level} ops/s` : `at concurrency ${level}`);
  const versus = open ? 'vs arrival rate' : 'vs concurrency';
  return (
    <>
      {groups.map((g) => {
        const single = g.qps.length === 1;
        const ideal = single && (open || idealLatencyMs !== null) ? g.qps[0]!.ideal : null;
        const idealNote = ideal === null ? null : open ? `dashed: offered ${qpsText(ideal)} ops/s` : `dashed: ideal ${qpsText(ideal)} qps (concurrency / ${msText(idealLatencyMs!)} ms)`;
        return (
          <section key={g.configuration ?? ''} className="cmp-chart-group" aria-label={g.configuration ? `charts for ${g.configuration}` : 'charts'}>
            {g.configuration !== null && <h3>{g.configuration}</h3>}
            <div className="cmp-charts">
              <ChartFigure
                testId="compare-qps-chart"
                title={`Throughput (qps) ${single ? at(g.qps[0]!.concurrency) : versus}`}
                note={single ? idealNote : null}
                chart={single ? bars({ data: g.qps, series, unit: 'qps', reference: ideal, open }) : qpsLines({ group: g, series, idealLatencyMs, open })}
              />
              <ChartFigure
                testId="compare-p99-chart"
                title={`p99 latency (ms) ${single ? at(g.p99Ms[0]!.concurrency) : `${versus}, log scale`}`}
                note={idealLatencyMs !== null ? `dashed: server latency ${msText(idealLatencyMs)} ms` : null}
                chart={single ? bars({ data: g.p99Ms, series, unit: 'ms', reference: idealLatencyMs, open }) : p99Lines({ group: g, series, idealLatencyMs, open })}
              />
            </div>
          </section>
        );
      })}
    </>
  );
}

/** One captioned chart of the comparison. */
function ChartFigure({ testId, title, note, chart }: { testId: string; title: string; note: string | null; chart: React.ReactElement }) {
  return (
    <figure>
      <figcaption>
        {title}
        {note && <span className="cmp-caption-note"> · {note}</span>}
      </figcaption>
      <div className="chart cmp-chart" data-testid={testId}>
        <ResponsiveContainer width="100%" height="100%">
          {chart}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
