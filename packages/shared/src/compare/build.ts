// Builds the comparison model: measures and never formats (text.ts formats and never measures).
import { canonicalJson } from '../canonical-json';
import { median, medianOverRepeats } from '../results/stats';
import { isFinishedCell, isUnfinishedJob } from '../results/status';
import { worstVerdict } from '../results/verdict';
import { scenarioDifferences, scenarioOf } from '../job/scenario';
import { clientText, isOpenLoop, type JobSpec } from '../job/spec';
import { idealQps, modeledLatencyMs } from '../targets/index';
import { runnerTargetVersion } from '../stored';
import {
  type CompareEnvironment,
  COMPARE_SAME_WITHIN,
  MAX_COMPARE_SERIES,
  type CompareCellInput,
  type CompareChartGroup,
  type CompareChartPoint,
  type CompareEntry,
  type CompareJobInput,
  type CompareNote,
  type CompareRatio,
  type CompareRefusal,
  type CompareRow,
  type CompareScenarioDifference,
  type CompareSelection,
  type CompareSeries,
  type CompareSummary,
  type CompareVerdict,
  type Comparison,
} from './types';

interface Draft {
  job: CompareJobInput;
  client: { language: string; version: string; grpcVersion?: string | null };
  configuration: CompareCellInput['configuration'] | null;
  cells: CompareCellInput[];
}

const clientKey = clientText;

function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

/** Scenario fields (target, workload, time scale) in which `candidate` differs from `baseline`. */
export function compareScenarioDifferences(baseline: JobSpec, candidate: JobSpec): CompareScenarioDifference[] {
  const a = scenarioOf(baseline);
  const b = scenarioOf(candidate);
  return scenarioDifferences(baseline, candidate).map((path) => ({ path, baseline: at(a, path), candidate: at(b, path) }));
}

function optionDifferences(a: Record<string, unknown>, b: Record<string, unknown>) {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'label').sort();
  return keys.filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k])).map((option) => ({ option, baseline: a[option], candidate: b[option] }));
}

function uniqueInOrder<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function drafts(selection: CompareSelection, jobs: ReadonlyMap<string, CompareJobInput | null | undefined>): { drafts: Draft[]; configurationIs: 'series' | 'row' } {
  if (selection.kind === 'cells') {
    return {
      configurationIs: 'series',
      drafts: selection.cells.map((ref) => {
        const job = jobs.get(ref.job)!;
        const cell = job.cells.find((c) => c.index === ref.index)!;
        return { job, client: cell.client, configuration: cell.configuration, cells: [cell] };
      }),
    };
  }
  const byClient: Draft[] = [];
  for (const id of selection.jobs) {
    const job = jobs.get(id)!;
    for (const client of uniqueInOrder(
      job.cells.map((c) => c.client),
      clientKey,
    )) {
      byClient.push({ job, client, configuration: null, cells: job.cells.filter((c) => clientKey(c.client) === clientKey(client)) });
    }
  }
  if (byClient.length === 1) {
    // One job, one client: compare its configurations.
    const only = byClient[0]!;
    const configs = uniqueInOrder(
      only.cells.map((c) => c.configuration),
      (c) => c.label,
    );
    if (configs.length > 1) {
      return {
        configurationIs: 'series',
        drafts: configs.map((configuration) => ({ ...only, configuration, cells: only.cells.filter((c) => c.configuration.label === configuration.label) })),
      };
    }
  }
  // When every series ran exactly one configuration, it belongs to the series; otherwise it is a row.
  const single = byClient.every((d) => new Set(d.cells.map((c) => c.configuration.label)).size === 1);
  if (single) {
    for (const d of byClient) d.configuration = d.cells[0]?.configuration ?? null;
    return { configurationIs: 'series', drafts: byClient };
  }
  return { configurationIs: 'row', drafts: byClient };
}

/** Labels that name what varies between the series, made unique with the job id and cell when needed. */
function labels(ds: Draft[], mode: 'jobs' | 'cells'): string[] {
  const vary = (f: (d: Draft) => string) => new Set(ds.map(f)).size > 1;
  const clientsVary = vary((d) => clientKey(d.client));
  const configsVary = vary((d) => d.configuration?.label ?? '');
  let out = ds.map((d) => {
    const parts: string[] = [];
    if (clientsVary || !configsVary) parts.push(clientKey(d.client));
    if (configsVary && d.configuration) parts.push(d.configuration.label);
    return parts.join(' · ');
  });
  const dupes = (ls: string[]) => ls.some((l, i) => ls.indexOf(l) !== i);
  if (dupes(out)) out = out.map((l, i) => (out.filter((x) => x === l).length > 1 ? `${l} · job ${ds[i]!.job.id}` : l));
  if (dupes(out) && mode === 'cells') {
    out = out.map((l, i) => {
      const c = ds[i]!.cells[0]!;
      return out.filter((x) => x === l).length > 1 ? `${l} · cell ${c.index} (C=${c.concurrency}, repeat ${c.repeat})` : l;
    });
  }
  if (dupes(out)) out = out.map((l, i) => `${l} #${i + 1}`);
  return out;
}

function entryOf(cells: CompareCellInput[]): CompareEntry {
  const done = cells.filter((c) => c.result);
  const results = done.map((c) => c.result!);
  const failed = cells.filter((c) => c.status === 'failed' || c.status === 'cancelled');
  const any = results.length > 0;
  const m = medianOverRepeats(results);
  const spread = done.flatMap((c) => (c.channelSummary ? [c.channelSummary] : []));
  return {
    qps: any ? m.qps : null,
    p50Ms: any ? m.p50Ms : null,
    p99Ms: any ? m.p99Ms : null,
    qpsMin: any ? m.qpsMin : null,
    qpsMax: any ? m.qpsMax : null,
    repeats: m.repeats,
    failed: failed.length,
    pending: cells.filter((c) => !isFinishedCell(c.status)).length,
    verdict: worstVerdict(results.map((r) => r.verdict?.kind)),
    hottestShare: spread.length ? median(spread.map((c) => c.hottestShare)) : null,
    hottestPeakMax: spread.length ? Math.max(...spread.map((c) => c.hottestPeakInFlight)) : null,
    cells: cells.map((c) => c.index),
    error: failed.find((c) => c.error)?.error ?? null,
  };
}

/** candidate / baseline, judged in the metric's direction (qps: higher is better; latency: lower). */
export function compareRatioOf(baseline: number | null | undefined, candidate: number | null | undefined, higherIsBetter: boolean, sameWithin = COMPARE_SAME_WITHIN): CompareRatio | null {
  if (baseline == null || candidate == null || !Number.isFinite(baseline) || !Number.isFinite(candidate) || baseline <= 0) return null;
  const ratio = candidate / baseline;
  const up = ratio >= 1 + sameWithin;
  const down = ratio <= 1 - sameWithin;
  const verdict: CompareVerdict = !up && !down ? 'same' : up === higherIsBetter ? 'better' : 'worse';
  return { ratio, verdict };
}

function geoMean(xs: number[]): number | null {
  const ok = xs.filter((x) => x > 0 && Number.isFinite(x));
  return ok.length ? Math.exp(ok.reduce((s, x) => s + Math.log(x), 0) / ok.length) : null;
}

function envOf(job: CompareJobInput): CompareEnvironment | null {
  const e = job.environment;
  if (!e) return null;
  // The version of a target the runner started itself (a fresh emulator per cell) matters only where the job ran on it.
  const version = runnerTargetVersion(job.spec.target, e);
  return {
    host: typeof e.host === 'string' ? e.host : null,
    cores: typeof e.cores === 'number' ? e.cores : null,
    ...(version !== undefined ? { [job.spec.target.kind]: version } : {}),
  };
}

/**
 * Builds the comparison of the selected jobs or cells; the first series is the baseline. Every
 * selected id must be present in `jobs` (check with findMissingCompared first).
 */
export function buildComparison(selection: CompareSelection, jobs: ReadonlyMap<string, CompareJobInput | null | undefined>, opts: { sameWithin?: number } = {}): Comparison {
  const sameWithin = opts.sameWithin ?? COMPARE_SAME_WITHIN;
  const { drafts: ds, configurationIs } = drafts(selection, jobs);
  const names = labels(ds, selection.kind);
  const base = ds[0];
  const series: CompareSeries[] = ds.map((d, i) => ({
    key: `s${i}`,
    label: names[i]!,
    baseline: i === 0,
    jobId: d.job.id,
    jobName: d.job.name ?? null,
    jobStatus: d.job.status,
    client: d.client,
    configuration: d.configuration,
    cells: d.cells.map((c) => c.index),
    latencyMs: modeledLatencyMs(d.job.spec),
    repeats: new Set(d.cells.map((c) => c.repeat)).size,
    differences: i === 0 || d.job.id === base!.job.id ? [] : compareScenarioDifferences(base!.job.spec, d.job.spec),
  }));

  // Rows: configuration (when a row dimension, in order of first appearance) × concurrency ascending.
  const rowKeys: { configuration: string | null; concurrency: number }[] = [];
  const configLabels =
    configurationIs === 'row'
      ? uniqueInOrder(
          ds.flatMap((d) => d.cells.map((c) => c.configuration.label)),
          (l) => l,
        )
      : [null];
  for (const label of configLabels) {
    const cs = [...new Set(ds.flatMap((d) => d.cells.filter((c) => label === null || c.configuration.label === label).map((c) => c.concurrency)))].sort((a, b) => a - b);
    for (const concurrency of cs) rowKeys.push({ configuration: label, concurrency });
  }

  const notes: CompareNote[] = [];
  let refusal: CompareRefusal | null = null;
  const mismatches = series.filter((s) => s.differences.length > 0);
  if (series.length < 2) refusal = { kind: 'single-series', series: series.length };
  else if (series.length > MAX_COMPARE_SERIES) refusal = { kind: 'too-many-series', series: series.length, max: MAX_COMPARE_SERIES };
  else if (mismatches.length > 0 && !selection.allowMismatch) {
    refusal = { kind: 'scenario', mismatches: mismatches.map((s) => ({ series: s.key, differences: s.differences })) };
  }
  for (const s of mismatches) if (selection.allowMismatch) notes.push({ kind: 'scenario', severity: 'warning', series: s.key, differences: s.differences });

  const rows: CompareRow[] = rowKeys.map(({ configuration, concurrency }) => {
    const entries = ds.map((d) => {
      const cells = d.cells.filter((c) => c.concurrency === concurrency && (configuration === null || c.configuration.label === configuration));
      return cells.length ? entryOf(cells) : null;
    });
    const b = entries[0];
    const ratios = entries.map((e, i) => {
      if (i === 0 || refusal || !e || !b || e.repeats === 0 || b.repeats === 0) return null;
      return {
        qps: compareRatioOf(b.qps, e.qps, true, sameWithin),
        p50Ms: compareRatioOf(b.p50Ms, e.p50Ms, false, sameWithin),
        p99Ms: compareRatioOf(b.p99Ms, e.p99Ms, false, sameWithin),
      };
    });
    return { configuration, concurrency, entries, ratios };
  });

  if (!refusal && !rows.some((r) => r.entries[0] && r.entries.slice(1).some((e) => e !== null))) refusal = { kind: 'no-common-rows' };

  // Configuration options that differ under the same label.
  for (const [i, d] of ds.entries()) {
    if (i === 0) continue;
    const baseConfigs = new Map(base!.cells.map((c) => [c.configuration.label, c.configuration]));
    const seen = new Set<string>();
    for (const c of d.cells) {
      const label = c.configuration.label;
      if (seen.has(label)) continue;
      seen.add(label);
      const bc = baseConfigs.get(label);
      if (!bc) continue;
      const options = optionDifferences(bc, c.configuration);
      if (options.length) notes.push({ kind: 'configuration-options', severity: 'warning', series: series[i]!.key, configuration: label, options });
    }
    if (d.job.id !== base!.job.id) {
      const eb = envOf(base!.job);
      const ec = envOf(d.job);
      if (eb && ec && canonicalJson(eb) !== canonicalJson(ec)) notes.push({ kind: 'environment', severity: 'warning', series: series[i]!.key, baseline: eb, candidate: ec });
    }
  }
  for (const kind of ['harness-bound', 'client-bound', 'configuration-bound'] as const) {
    const bound = series.filter((_, i) => rows.some((r) => r.entries[i]?.verdict === kind)).map((s) => s.key);
    if (bound.length) notes.push(kind === 'configuration-bound' ? { kind, severity: 'info', series: bound } : { kind, severity: 'warning', series: bound });
  }
  for (const s of uniqueInOrder(series, (s) => s.jobId)) {
    if (isUnfinishedJob(s.jobStatus)) notes.push({ kind: 'unfinished', severity: 'info', series: s.key, jobStatus: s.jobStatus });
  }
  if (!refusal) {
    for (const [i, s] of series.entries()) {
      // Rows where this series (or, for the baseline, any candidate) cannot be compared.
      const missing = rows.filter((r) => (i === 0 ? !r.entries[0] || r.entries[0].repeats === 0 : !r.ratios[i])).length;
      if (missing > 0) notes.push({ kind: 'missing', severity: 'info', series: s.key, rows: missing });
    }
  }

  const summaries: CompareSummary[] = refusal
    ? []
    : series.slice(1).map((s, j) => {
        const i = j + 1;
        const withRatio = rows.filter((r) => r.ratios[i]?.qps);
        const g = (m: 'qps' | 'p50Ms' | 'p99Ms', higher: boolean) => {
          const gm = geoMean(rows.map((r) => r.ratios[i]?.[m]?.ratio ?? NaN));
          return gm === null ? null : compareRatioOf(1, gm, higher, sameWithin);
        };
        const worst = withRatio.reduce<CompareRow | null>((w, r) => (!w || r.ratios[i]!.qps!.ratio < w.ratios[i]!.qps!.ratio ? r : w), null);
        return {
          series: s.key,
          rows: withRatio.length,
          qps: g('qps', true),
          p50Ms: g('p50Ms', false),
          p99Ms: g('p99Ms', false),
          worstQps: worst ? { configuration: worst.configuration, concurrency: worst.concurrency, ratio: worst.ratios[i]!.qps!.ratio } : null,
        };
      });

  const latencies = new Set(series.map((s) => s.latencyMs));
  const hasWarning = notes.some((n) => n.severity === 'warning');
  return {
    mode: selection.kind,
    configurationIs,
    series,
    rows,
    status: refusal ? 'refused' : hasWarning ? 'warned' : 'ok',
    refusal,
    notes,
    summaries,
    idealLatencyMs: latencies.size === 1 ? [...latencies][0]! : null,
    openLoop: ds.length > 0 && ds.every((d) => isOpenLoop(d.job.spec)),
    sameWithin,
  };
}

/** Chart data: one group per configuration row label (one group when configuration is a series). */
export function comparisonCharts(c: Comparison): CompareChartGroup[] {
  const groups = uniqueInOrder(
    c.rows.map((r) => r.configuration ?? ''),
    (x) => x,
  );
  return groups.map((g) => {
    const rows = c.rows.filter((r) => (r.configuration ?? '') === g);
    const point = (r: CompareRow, m: 'qps' | 'p99Ms'): CompareChartPoint => {
      // An open loop completes at most what arrives: its rate.
      const ideal = m !== 'qps' ? null : c.openLoop ? r.concurrency : c.idealLatencyMs !== null ? idealQps(r.concurrency, c.idealLatencyMs) : null;
      const p: CompareChartPoint = { concurrency: r.concurrency, ideal };
      c.series.forEach((s, i) => {
        const v = r.entries[i]?.[m] ?? null;
        p[s.key] = v !== null && v > 0 ? v : null;
      });
      return p;
    };
    return { configuration: rows[0]?.configuration ?? null, qps: rows.map((r) => point(r, 'qps')), p99Ms: rows.map((r) => point(r, 'p99Ms')) };
  });
}
