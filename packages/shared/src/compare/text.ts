// The comparison in words: formats and never measures.
import { formatMs, formatOps, formatQps } from '../format';
import { formatLevel } from '../job/spec';
import { VERDICT_MARK, VERDICT_MEANING } from '../results/verdict';
import type { CompareEntry, CompareEnvironment, CompareNote, CompareRatio, CompareRefusal, CompareRow, CompareSeries, CompareVerdict, Comparison } from './types';

/** 0.42× */
export function formatCompareRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  return `${ratio >= 9.995 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}

/** The change a ratio means: -58%, +12%, -0.4%, ±0%. */
export function formatCompareChange(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  const pct = (ratio - 1) * 100;
  const small = Math.abs(pct) < 1;
  const shown = small ? Math.round(pct * 10) / 10 : Math.round(pct);
  if (shown === 0) return '±0%';
  return `${shown > 0 ? '+' : '-'}${small ? Math.abs(shown).toFixed(1) : Math.abs(shown)}%`;
}

export function compareVerdictText(v: CompareVerdict): string {
  return v === 'same' ? 'about the same' : v;
}

/** "0.42× (-58%, worse)" */
export function formatCompareRatioWithChange(r: CompareRatio): string {
  return `${formatCompareRatio(r.ratio)} (${formatCompareChange(r.ratio)}, ${compareVerdictText(r.verdict)})`;
}

/** "598 (597–600)" for qps with its range over repeats; "failed", "pending", "–" without a result. */
export function formatCompareQps(e: CompareEntry | null): string {
  if (!e) return 'no cell';
  if (e.qps === null) return e.pending > 0 ? 'pending' : e.failed > 0 ? 'failed' : '–';
  const range = e.repeats > 1 ? ` (${formatQps(e.qpsMin!)}–${formatQps(e.qpsMax!)})` : '';
  return `${formatQps(e.qps)}${range}${e.verdict !== 'clean' ? ` ${VERDICT_MARK[e.verdict]}` : ''}`;
}

/** "21% · peak 100": the hottest connection's median share of RPCs and its highest peak in flight. */
export function formatCompareHottest(e: CompareEntry | null): string {
  if (!e || e.hottestShare === null) return '–';
  return `${Math.round(e.hottestShare * 100)}% · peak ${e.hottestPeakMax}`;
}

export function formatCompareMs(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : formatMs(v);
}

export function compareSeriesByKey(c: Comparison, key: string): CompareSeries | undefined {
  return c.series.find((s) => s.key === key);
}

/** "java 6.105.0 vs java 6.104.0" (candidates, then the baseline). */
export function comparisonTitle(c: Comparison): string {
  const [base, ...rest] = c.series;
  if (!base) return 'Compare';
  if (!rest.length) return base.label;
  return `${rest.map((s) => s.label).join(', ')} vs ${base.label}`;
}

/** A value of a job spec field in words. */
export function formatCompareValue(v: unknown): string {
  if (v === undefined) return 'not set';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'min' in v && 'perConcurrency' in v) return formatOps(v as { min: number; perConcurrency: number });
  return JSON.stringify(v);
}

/** "grpc-gcp on · C=50"; an open loop's rows are rates: "100 ops/s". */
export function compareRowLabel(r: Pick<CompareRow, 'configuration' | 'concurrency'>, openLoop = false): string {
  const level = formatLevel(r.concurrency, openLoop);
  return r.configuration === null ? level : `${r.configuration} · ${level}`;
}

/** One sentence per candidate: "java 6.105.0: qps 0.42× (-58%), p99 2.10× (+110%) vs java 6.104.0 over 4 rows". */
export function comparisonDescription(c: Comparison): string {
  const base = c.series[0];
  if (!base) return 'Compare benchmark jobs side by side.';
  if (c.refusal) return `${comparisonTitle(c)}: ${compareRefusalText(c.refusal, c)}`;
  return c.summaries
    .map((s) => {
      const label = compareSeriesByKey(c, s.series)?.label ?? s.series;
      if (!s.qps) return `${label}: no result to compare with ${base.label} yet`;
      const p99 = s.p99Ms ? `, p99 ${formatCompareRatio(s.p99Ms.ratio)} (${formatCompareChange(s.p99Ms.ratio)})` : '';
      const over = s.rows === 1 && s.worstQps ? `at ${compareRowLabel(s.worstQps, c.openLoop)}` : `over ${s.rows} rows (geometric mean)`;
      return `${label}: qps ${formatCompareRatio(s.qps.ratio)} (${formatCompareChange(s.qps.ratio)})${p99} vs ${base.label} ${over}`;
    })
    .join('; ');
}

export function compareRefusalText(r: CompareRefusal, c: Comparison): string {
  const label = (key: string) => compareSeriesByKey(c, key)?.label ?? key;
  switch (r.kind) {
    case 'single-series':
      return 'the selection gives only one series: pick two or more jobs, a job with several clients or configurations, or two or more cells';
    case 'too-many-series':
      return `the selection gives ${r.series} series; compare at most ${r.max} at once`;
    case 'no-common-rows':
      return c.mode === 'cells'
        ? 'the cells do not share a concurrency with the baseline: concurrency is a row of the comparison, so pick cells that ran at the same concurrency'
        : 'the candidates share no configuration and concurrency with the baseline, so there is no row to compare';
    case 'scenario':
      return `the scenarios differ (${r.mismatches
        .map((m) => `${label(m.series)}: ${m.differences.map((d) => `${d.path} ${formatCompareValue(d.baseline)} → ${formatCompareValue(d.candidate)}`).join(', ')}`)
        .join('; ')}); a ratio would mix the client's effect with the scenario's`;
  }
}

export function compareNoteText(n: CompareNote, c: Comparison): string {
  const label = (key: string) => compareSeriesByKey(c, key)?.label ?? key;
  const base = c.series[0]?.label ?? 'the baseline';
  switch (n.kind) {
    case 'scenario':
      return `${label(n.series)} ran a different scenario than ${base} (${n.differences.map((d) => `${d.path}: ${formatCompareValue(d.baseline)} → ${formatCompareValue(d.candidate)}`).join(', ')}): its ratios mix the client's effect with the scenario's.`;
    case 'configuration-options':
      return `Configuration "${n.configuration}" sets different options in ${label(n.series)} than in ${base} (${n.options.map((o) => `${o.option}: ${formatCompareValue(o.baseline)} → ${formatCompareValue(o.candidate)}`).join(', ')}).`;
    case 'environment': {
      const m = ({ host, cores, ...targets }: CompareEnvironment) =>
        `${host ?? 'unknown host'}, ${cores ?? '?'} cores${Object.entries(targets)
          .map(([kind, v]) => `, ${kind} ${v ?? 'of unknown version'}`)
          .join('')}`;
      return `${label(n.series)} ran on a different machine than ${base} (${m(n.candidate)} vs ${m(n.baseline)}).`;
    }
    case 'client-bound':
    case 'harness-bound':
    case 'configuration-bound': {
      const kind = { 'client-bound': 'Client-bound', 'harness-bound': 'Harness-bound', 'configuration-bound': 'Configuration-bound' }[n.kind];
      return `${kind} cells (${VERDICT_MARK[n.kind]}) in ${n.series.map(label).join(', ')}: ${VERDICT_MEANING[n.kind]}.`;
    }
    case 'unfinished':
      return `Job ${compareSeriesByKey(c, n.series)?.jobId ?? ''} is still ${n.jobStatus}: its numbers may change.`;
    case 'missing':
      return n.series === c.series[0]?.key
        ? `${base} has no result in ${n.rows} row${n.rows === 1 ? '' : 's'}: nothing to compare there.`
        : `${label(n.series)} cannot be compared with ${base} in ${n.rows} row${n.rows === 1 ? '' : 's'} (no cell or no result on one side).`;
  }
}
