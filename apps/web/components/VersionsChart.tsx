'use client';

import { memo, useMemo, useState } from 'react';
import { CartesianGrid, ComposedChart, ErrorBar, Legend, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, usePlotArea, useXAxisScale, useYAxisScale, ZIndexLayer } from 'recharts';
// Types only: the chart model is built on the server.
import type { ChartData, MetricUnit } from '@scb/shared/trend';
import { VERDICTS, type VerdictKind } from '@scb/shared/verdict';
import { REFERENCE_COLOR, SERIES_COLORS } from './chart-colors';

type Point = NonNullable<ChartData['series'][number]['points'][number]>;
interface MedianDatum {
  x: number;
  median: number;
  err: [number, number];
  configuration: string;
  version: string;
  point: Point;
}
interface Dot {
  x: number;
  value: number;
  series: number;
  version: string;
  jobId: string;
  repeat: number;
  verdict: VerdictKind;
}

function format(v: number, unit: MetricUnit): string {
  if (!Number.isFinite(v)) return '–';
  if (unit !== 'ms') return `${Math.round(v)} ${unit}`;
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ms`;
}

/** 1, 2, 2.5, 5 × 10^k at or above v. */
function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= v - 1e-9 * p) ?? 10) * p;
}

/**
 * The y axis: the repeats are drawn outside Recharts' own items, so domain and ticks are set here to
 * cover them. Linear: 0 to a round top in at most 6 steps. Log: 1-2-5 ticks around the data.
 */
function yAxisOf(bottom: number, top: number, log: boolean): { domain: [number, number]; ticks: number[] } {
  if (log) {
    const around = (mantissas: number[]) => {
      const all: number[] = [];
      for (let e = Math.floor(Math.log10(bottom)) - 1; e <= Math.ceil(Math.log10(top)) + 1; e++) for (const m of mantissas) all.push(+(m * 10 ** e).toPrecision(12));
      const lo = [...all].reverse().find((t) => t <= bottom * 0.95) ?? all[0];
      const hi = all.find((t) => t >= top * 1.05) ?? all[all.length - 1];
      return { domain: [lo, hi] as [number, number], ticks: all.filter((t) => t >= lo && t <= hi) };
    };
    const coarse = around([1, 2, 5]);
    return coarse.ticks.length >= 4 ? coarse : around([1, 1.5, 2, 3, 5, 7]);
  }
  const step = niceCeil(Math.max(top * 1.05, 1e-6) / 5);
  const hi = Math.ceil((top * 1.05) / step - 1e-9) * step || step;
  return { domain: [0, hi], ticks: Array.from({ length: Math.round(hi / step) + 1 }, (_, i) => +(i * step).toPrecision(12)) };
}

/**
 * The metric across client versions (x: versions in semver order, evenly spaced), one line per
 * configuration through the medians, a min–max bar at each version and a dot for every repeat
 * (hover for its job, click to open it). Configurations are nudged sideways so their repeats do not
 * overlap.
 */
export function VersionsChart({ model }: { model: ChartData }) {
  const [log, setLog] = useState(false);
  const { versions, series, unit } = model;
  const k = series.length;
  const spread = k > 1 ? Math.min(0.36, 0.12 * (k - 1)) : 0;
  const offset = (i: number) => (k > 1 ? -spread / 2 + (spread * i) / (k - 1) : 0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: everything it reads derives from model
  const medians = useMemo(
    () =>
      series.map((s, i) =>
        s.points.flatMap((p, v): MedianDatum[] =>
          p ? [{ x: v + offset(i), median: p.median, err: [p.median - p.min, p.max - p.median], configuration: s.configuration, version: versions[v], point: p }] : [],
        ),
      ),
    [model],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: everything it reads derives from model
  const dots = useMemo(
    () =>
      series.flatMap((s, i) =>
        s.points.flatMap((p, v): Dot[] =>
          p
            ? p.repeats.map(([value, job, repeat, verdict], j) => ({
                // Repeats of one point fan out a little around it.
                x: v + offset(i) + (p.repeats.length > 1 ? (j / (p.repeats.length - 1) - 0.5) * 0.05 : 0),
                value,
                series: i,
                version: versions[v],
                jobId: model.jobIds[job],
                repeat,
                verdict: VERDICTS[verdict] ?? 'clean',
              }))
            : [],
        ),
      ),
    [model],
  );

  const configurations = useMemo(() => series.map((s) => s.configuration), [series]);
  const values = dots.map((d) => d.value);
  const positive = values.length > 0 && values.every((v) => v > 0);
  const useLog = log && unit === 'ms' && positive;
  const top = Math.max(0, ...values, model.reference?.value ?? 0);
  const bottom = Math.min(...values, model.reference?.value ?? Infinity);
  const y = yAxisOf(bottom, top, useLog);
  // Over a repeat dot, its own label replaces Recharts' tooltip of the nearest median.
  const [onRepeat, setOnRepeat] = useState(false);
  // Many versions: slanted tick labels so that 6.104.0, 6.105.0, ... do not run into each other.
  const tilt = versions.length > 7;
  const most = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p?.n ?? 0)));
  const dotRadius = most > 100 ? 2 : most > 20 ? 2.7 : 3.5;
  const refText = model.reference ? (unit === 'qps' ? `ideal ${Math.round(model.reference.value)}` : `server ${+model.reference.value.toPrecision(4)} ms`) : '';

  return (
    <figure className="versions-chart-figure">
      <div className="versions-chart" data-testid="versions-chart" role="img" aria-label={`${model.axis} by client version, one line per configuration; the table below has the numbers`}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart margin={{ top: 10, right: model.reference ? 95 : 30, bottom: tilt ? 20 : 35, left: 25 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis
              dataKey="x"
              type="number"
              domain={[-0.5, versions.length - 0.5]}
              ticks={versions.map((_, i) => i)}
              interval={0}
              angle={tilt ? -35 : 0}
              textAnchor={tilt ? 'end' : 'middle'}
              height={tilt ? 70 : 30}
              tickFormatter={(i: number) => versions[Math.round(i)] ?? ''}
              allowDecimals={false}
              label={{ value: `${model.language} client version (semver order)`, position: 'insideBottom', offset: tilt ? -12 : -20 }}
            />
            <YAxis
              type="number"
              scale={useLog ? 'log' : 'linear'}
              domain={y.domain}
              ticks={y.ticks}
              interval={0}
              allowDataOverflow
              tickFormatter={(v: number) => (unit === 'ms' ? String(+v.toPrecision(3)) : String(Math.round(v)))}
              label={{ value: model.axis, angle: -90, position: 'insideLeft', offset: -10, style: { textAnchor: 'middle' } }}
            />
            <Tooltip content={<MedianTip unit={unit} />} cursor={false} shared={false} active={onRepeat ? false : undefined} />
            <Legend verticalAlign="top" />
            {model.reference && <ReferenceLine y={model.reference.value} stroke={REFERENCE_COLOR} strokeDasharray="6 4" label={{ value: refText, position: 'right', fill: '#59636e', fontSize: 12 }} />}
            <RepeatDots dots={dots} radius={dotRadius} unit={unit} configurations={configurations} onHover={setOnRepeat} />
            {series.map((s, i) => (
              <Line
                key={s.configuration}
                name={s.configuration}
                data={medians[i]}
                dataKey="median"
                stroke={SERIES_COLORS[i % SERIES_COLORS.length]}
                strokeWidth={2.5}
                dot={{ r: 5, fill: SERIES_COLORS[i % SERIES_COLORS.length], stroke: '#fff', strokeWidth: 1.5 }}
                activeDot={{ r: 7, stroke: '#fff', strokeWidth: 2 }}
                connectNulls
                isAnimationActive={false}
              >
                <ErrorBar dataKey="err" width={6} strokeWidth={1.5} stroke={SERIES_COLORS[i % SERIES_COLORS.length]} direction="y" isAnimationActive={false} />
              </Line>
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted">
        Lines join the medians; bars span min–max; small dots are single repeats (hover for the job, click to open it).
        {model.reference && ' Dashed: ' + model.reference.label + '.'}
        {unit === 'ms' && (
          <label className="versions-log">
            <input type="checkbox" checked={useLog} disabled={!positive} onChange={(e) => setLog(e.target.checked)} /> log scale
          </label>
        )}
      </figcaption>
    </figure>
  );
}

/**
 * Every repeat as a plain SVG circle on the chart's own scales: thousands of them stay cheap (Recharts'
 * Scatter takes seconds for ten thousand points). One listener for hover and click.
 */
const RepeatDots = memo(function RepeatDots({
  dots,
  radius,
  unit,
  configurations,
  onHover,
}: {
  dots: Dot[];
  radius: number;
  unit: MetricUnit;
  configurations: string[];
  onHover: (on: boolean) => void;
}) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const area = usePlotArea();
  const [hover, setHover] = useState<number | null>(null);
  const circles = useMemo(
    () =>
      xScale && yScale
        ? dots.map((d, i) => <circle key={i} data-dot={i} cx={xScale(d.x)} cy={yScale(d.value)} r={radius} fill={SERIES_COLORS[d.series % SERIES_COLORS.length]} fillOpacity={0.45} />)
        : null,
    [dots, radius, xScale, yScale],
  );
  if (!xScale || !yScale || !circles) return null;
  const dotOf = (e: React.MouseEvent) => {
    const i = Number((e.target as Element).getAttribute?.('data-dot'));
    return Number.isInteger(i) && dots[i] ? i : null;
  };
  const h = hover !== null ? dots[hover] : undefined;
  const hx = h ? (xScale(h.x) ?? 0) : 0;
  const hy = h ? (yScale(h.value) ?? 0) : 0;
  const lines = h ? [`${h.version} · ${configurations[h.series]}`, `${format(h.value, unit)}${h.verdict !== 'clean' ? ` (${h.verdict})` : ''}`, `job ${h.jobId}, repeat ${h.repeat}`] : [];
  // The label sits up and to the right of the dot, or wherever it stays inside the plot.
  const boxW = Math.max(0, ...lines.map((l) => l.length)) * 6.6 + 16;
  const bx = area && hx + 10 + boxW > area.x + area.width ? hx - 10 - boxW : hx + 10;
  const by = area && hy - 52 < area.y ? hy + 8 : hy - 52;
  // Repeats above the grid and below the lines (400) and their dots; the hover label above everything.
  return (
    <ZIndexLayer zIndex={350}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: one handler for hundreds of SVG dots; the same jobs are links in the page's list */}
      <g
        className="versions-repeats"
        data-testid="repeat-dots"
        style={{ cursor: 'pointer' }}
        onMouseMove={(e) => {
          const i = dotOf(e);
          if (i !== hover) {
            setHover(i);
            onHover(i !== null);
          }
        }}
        onMouseLeave={() => {
          setHover(null);
          onHover(false);
        }}
        onClick={(e) => {
          const i = dotOf(e);
          if (i !== null) window.location.assign(`/jobs/${dots[i].jobId}`);
        }}
      >
        {circles}
      </g>
      {h && (
        <ZIndexLayer zIndex={2100}>
          <g pointerEvents="none" className="versions-dot-tip">
            <circle cx={hx} cy={hy} r={radius + 2.5} fill="none" stroke="#1f2328" strokeWidth={1.5} />
            <rect x={bx} y={by} width={boxW} height={50} rx={4} fill="#fff" stroke="#d1d9e0" />
            {lines.map((l, j) => (
              <text key={j} x={bx + 8} y={by + 16 + j * 15} fontSize={12} fill={j === 2 ? '#59636e' : '#1f2328'} fontWeight={j === 0 ? 600 : 400}>
                {l}
              </text>
            ))}
          </g>
        </ZIndexLayer>
      )}
    </ZIndexLayer>
  );
});

function MedianTip({ active, payload, unit }: { active?: boolean; payload?: { payload?: MedianDatum }[]; unit: MetricUnit }) {
  const d = active ? payload?.[0]?.payload : undefined;
  if (!d?.point) return null;
  const p = d.point;
  return (
    <div className="versions-tip">
      <strong>{d.version}</strong> · {d.configuration}
      <br />
      median {format(p.median, unit)}
      {p.n > 1 && (
        <>
          {' '}
          (min {format(p.min, unit)}, max {format(p.max, unit)})
        </>
      )}
      <br />
      <span className="muted">
        {p.n} repeat{p.n === 1 ? '' : 's'} from {p.jobs} job{p.jobs === 1 ? '' : 's'}
      </span>
    </div>
  );
}
