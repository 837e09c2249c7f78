import type { FieldIssue, JobSpec, ParseResult } from './spec';
import { idealQps, modeledLatencyMs } from './targets/index';
import { scenarioDifferences, scenarioOf } from './scenario';
import { median } from './stats';
import { formatMs, formatOps, formatQps } from './table';

/*
 * Comparisons of jobs or cells: "did this client version or configuration make us slower?"
 *
 * The model (parseCompareQuery, findMissingCompared, buildComparison, comparisonCharts) measures and never
 * formats; the helpers at the end of this file format and never measure.
 */

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

/** What a comparison needs to know about one cell (the API's CellView fits). */
export interface CompareCellInput {
  /** 0-based, as in GET /api/jobs/<id>. */
  index: number;
  client: { language: string; version: string };
  configuration: { label: string; [option: string]: unknown };
  concurrency: number;
  repeat: number;
  status: string;
  error?: string | null;
  result: { qps: number; p50Ms: number; p99Ms: number; clientCpuBound?: boolean } | null;
  /** How the cell's RPCs spread over connections (the fake's accounting). */
  channelSummary?: { hottestShare: number; hottestPeakInFlight: number } | null;
}

/** What a comparison needs to know about one job (the API's JobView fits). */
export interface CompareJobInput {
  id: string;
  name?: string | null;
  status: string;
  spec: JobSpec;
  environment?: Record<string, unknown> | null;
  cells: CompareCellInput[];
}

export interface CompareCellRef {
  job: string;
  /** 0-based cell index. */
  index: number;
}

/**
 * What to compare; the first item is the baseline.
 * - jobs: each job gives one series per client it ran (a job with one client and several
 *   configurations gives one series per configuration); rows are configuration × concurrency.
 * - cells: each cell is a series of its own; rows are concurrency.
 */
export type CompareSelection =
  | { kind: 'jobs'; jobs: string[]; allowMismatch: boolean }
  | { kind: 'cells'; cells: CompareCellRef[]; allowMismatch: boolean };

export const MAX_COMPARE_JOBS = 8;
export const MAX_COMPARE_CELLS = 12;
export const MAX_COMPARE_SERIES = 12;
/** Changes smaller than this share count as "about the same" (ratio within 1 ± 3%). */
export const COMPARE_SAME_WITHIN = 0.03;

const JOB_ID = /^[A-Za-z0-9_-]{1,64}$/;

type QueryValue = string | string[] | undefined;

function values(q: URLSearchParams | Record<string, QueryValue>, name: string): string[] | undefined {
  if (q instanceof URLSearchParams) return q.has(name) ? q.getAll(name) : undefined;
  const v = q[name];
  return v === undefined ? undefined : Array.isArray(v) ? v : [v];
}

/** Items of a list parameter: commas or white space separate them; a parameter may also repeat. */
function tokens(vs: string[]): string[] {
  return vs.flatMap((v) => v.split(/[\s,]+/)).filter((t) => t.length > 0);
}

/** A job id, or a pasted job link (…/jobs/<id>) reduced to its id. */
function jobIdOf(token: string): string {
  const m = /\/jobs\/([^/?#\s]+)/.exec(token);
  return m ? decodeURIComponent(m[1]!) : token;
}

/**
 * Reads `jobs=<id>,<id>[,...]` or `cells=<jobId>:<index>,...` (and `mismatch=allow`) from a query.
 * `ok` with `null` when nothing is selected; issues name the parameter and item (`jobs.1`).
 */
export function parseCompareQuery(q: URLSearchParams | Record<string, QueryValue>): ParseResult<CompareSelection | null> {
  const issues: FieldIssue[] = [];
  const jobsRaw = values(q, 'jobs');
  const cellsRaw = values(q, 'cells');
  const mismatch = values(q, 'mismatch');
  const jobTokens = jobsRaw ? tokens(jobsRaw) : [];
  const cellTokens = cellsRaw ? tokens(cellsRaw) : [];
  let allowMismatch = false;
  if (mismatch && mismatch.length > 0) {
    const v = mismatch[mismatch.length - 1]!.trim();
    if (v === 'allow') allowMismatch = true;
    else if (v !== '' && v !== 'refuse') issues.push({ path: 'mismatch', message: 'must be "allow" (compare even when the scenarios differ) or "refuse"' });
  }
  if (jobTokens.length > 0 && cellTokens.length > 0) {
    issues.push({ path: 'cells', message: 'give either jobs or cells, not both' });
    return { ok: false, issues };
  }
  if (jobTokens.length > 0) {
    const jobs: string[] = [];
    jobTokens.forEach((t, i) => {
      const id = jobIdOf(t);
      if (!JOB_ID.test(id)) issues.push({ path: `jobs.${i}`, message: `"${t}" is not a job id (letters, digits, - and _)` });
      else if (jobs.includes(id)) issues.push({ path: `jobs.${i}`, message: `job ${id} is listed twice` });
      else jobs.push(id);
    });
    if (jobTokens.length > MAX_COMPARE_JOBS) issues.push({ path: 'jobs', message: `compare at most ${MAX_COMPARE_JOBS} jobs` });
    return issues.length ? { ok: false, issues } : { ok: true, value: { kind: 'jobs', jobs, allowMismatch } };
  }
  if (cellTokens.length > 0) {
    const cells: CompareCellRef[] = [];
    cellTokens.forEach((t, i) => {
      const m = /^(.+):(\d{1,6})$/.exec(t);
      const job = m ? jobIdOf(m[1]!) : '';
      if (!m || !JOB_ID.test(job)) {
        issues.push({ path: `cells.${i}`, message: `"${t}" is not <jobId>:<cellIndex> (the cell index is 0-based, as in the API)` });
      } else {
        const ref = { job, index: Number(m[2]) };
        if (cells.some((c) => c.job === ref.job && c.index === ref.index)) issues.push({ path: `cells.${i}`, message: `cell ${ref.job}:${ref.index} is listed twice` });
        else cells.push(ref);
      }
    });
    if (cellTokens.length > MAX_COMPARE_CELLS) issues.push({ path: 'cells', message: `compare at most ${MAX_COMPARE_CELLS} cells` });
    return issues.length ? { ok: false, issues } : { ok: true, value: { kind: 'cells', cells, allowMismatch } };
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: null };
}

/** The canonical query of a selection: `jobs=a,b` or `cells=a:0,b:3` (plus `&mismatch=allow`). */
export function compareQuery(s: CompareSelection, opts: { allowMismatch?: boolean } = {}): string {
  const items = s.kind === 'jobs' ? s.jobs.map(encodeURIComponent) : s.cells.map((c) => `${encodeURIComponent(c.job)}:${c.index}`);
  const allow = opts.allowMismatch ?? s.allowMismatch;
  return `${s.kind}=${items.join(',')}${allow ? '&mismatch=allow' : ''}`;
}

/** The page's path for a selection: /compare?jobs=a,b */
export function compareHref(s: CompareSelection, opts: { allowMismatch?: boolean } = {}): string {
  return `/compare?${compareQuery(s, opts)}`;
}

/** The job ids a selection needs, each once, in order. */
export function compareJobIds(s: CompareSelection): string[] {
  return [...new Set(s.kind === 'jobs' ? s.jobs : s.cells.map((c) => c.job))];
}

/** Unknown jobs and cell indexes out of range, each at its parameter item (`jobs.1`, `cells.0`). */
export function findMissingCompared(s: CompareSelection, jobs: ReadonlyMap<string, CompareJobInput | null | undefined>): FieldIssue[] {
  if (s.kind === 'jobs') {
    return s.jobs.flatMap((id, i) => (jobs.get(id) ? [] : [{ path: `jobs.${i}`, message: `no job with id "${id}"` }]));
  }
  return s.cells.flatMap((ref, i) => {
    const job = jobs.get(ref.job);
    if (!job) return [{ path: `cells.${i}`, message: `no job with id "${ref.job}"` }];
    if (!job.cells.some((c) => c.index === ref.index)) {
      const n = job.cells.length;
      return [{ path: `cells.${i}`, message: `job ${ref.job} has no cell ${ref.index} (it has ${n} cell${n === 1 ? '' : 's'}${n ? `, 0–${n - 1}` : ''})` }];
    }
    return [];
  });
}

// ---------------------------------------------------------------------------------------------
// The comparison model
// ---------------------------------------------------------------------------------------------

export type CompareVerdict = 'better' | 'worse' | 'same';

export interface CompareScenarioDifference {
  /** Dotted path in {target, workload, timeScale}, as scenarioDifferences gives it. */
  path: string;
  baseline: unknown;
  candidate: unknown;
}

export interface CompareSeries {
  /** Stable key for charts and JSON: s0 (the baseline), s1, ... */
  key: string;
  /** Short and unique among the series: what varies between them. */
  label: string;
  baseline: boolean;
  jobId: string;
  jobName: string | null;
  jobStatus: string;
  client: { language: string; version: string };
  /** The configuration when it belongs to the series (not a row), with its options. */
  configuration: { label: string; [option: string]: unknown } | null;
  /** Cell indexes (0-based) of the job that make up this series. */
  cells: number[];
  /** Server latency per query after the time scale, where the target models one. */
  latencyMs: number | null;
  repeats: number;
  /** How this series' scenario differs from the baseline's (empty when it is the same). */
  differences: CompareScenarioDifference[];
}

/** Medians over the repeats that produced a result; null when none did. */
export interface CompareEntry {
  qps: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  qpsMin: number | null;
  qpsMax: number | null;
  /** Repeats with a result. */
  repeats: number;
  failed: number;
  /** Cells still queued or running. */
  pending: number;
  cpuBound: boolean;
  /** The busiest connection's share of RPCs (median over repeats) and its highest peak in flight. */
  hottestShare: number | null;
  hottestPeakMax: number | null;
  cells: number[];
  error: string | null;
}

export interface CompareRatio {
  /** candidate / baseline */
  ratio: number;
  verdict: CompareVerdict;
}

export interface CompareRow {
  /** The configuration label when configuration is a row dimension, else null. */
  configuration: string | null;
  concurrency: number;
  /** One per series, in series order; null when the series has no cell here. */
  entries: (CompareEntry | null)[];
  /** One per series; null for the baseline and where either side has no result. */
  ratios: ({ qps: CompareRatio | null; p50Ms: CompareRatio | null; p99Ms: CompareRatio | null } | null)[];
}

export type CompareNote =
  | { kind: 'scenario'; severity: 'warning'; series: string; differences: CompareScenarioDifference[] }
  | { kind: 'configuration-options'; severity: 'warning'; series: string; configuration: string; options: { option: string; baseline: unknown; candidate: unknown }[] }
  | { kind: 'environment'; severity: 'warning'; series: string; baseline: { host: string | null; cores: number | null }; candidate: { host: string | null; cores: number | null } }
  | { kind: 'cpu-bound'; severity: 'warning'; series: string[] }
  | { kind: 'unfinished'; severity: 'info'; series: string; jobStatus: string }
  | { kind: 'missing'; severity: 'info'; series: string; rows: number };

export type CompareRefusal =
  | { kind: 'single-series'; series: number }
  | { kind: 'too-many-series'; series: number; max: number }
  | { kind: 'scenario'; mismatches: { series: string; differences: CompareScenarioDifference[] }[] }
  | { kind: 'no-common-rows' };

/** Geometric means of a candidate's ratios over the rows where both sides have a result. */
export interface CompareSummary {
  series: string;
  rows: number;
  qps: CompareRatio | null;
  p50Ms: CompareRatio | null;
  p99Ms: CompareRatio | null;
  /** The row where the candidate's qps ratio is lowest. */
  worstQps: { configuration: string | null; concurrency: number; ratio: number } | null;
}

export interface Comparison {
  mode: 'jobs' | 'cells';
  /** What distinguishes series: always the client and, when it is not a row, the configuration. */
  configurationIs: 'series' | 'row';
  series: CompareSeries[];
  rows: CompareRow[];
  /** ok: comparable; warned: ratios shown with warnings; refused: no ratios, see refusal. */
  status: 'ok' | 'warned' | 'refused';
  refusal: CompareRefusal | null;
  notes: CompareNote[];
  summaries: CompareSummary[];
  /** The shared server latency (after the time scale), for the ideal line; null when series differ. */
  idealLatencyMs: number | null;
  sameWithin: number;
}

interface Draft {
  job: CompareJobInput;
  client: { language: string; version: string };
  configuration: CompareCellInput['configuration'] | null;
  cells: CompareCellInput[];
}

const clientKey = (c: { language: string; version: string }) => `${c.language} ${c.version}`;

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

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
  return keys.filter((k) => canonical(a[k]) !== canonical(b[k])).map((option) => ({ option, baseline: a[option], candidate: b[option] }));
}

function uniqueInOrder<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
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
    for (const client of uniqueInOrder(job.cells.map((c) => c.client), clientKey)) {
      byClient.push({ job, client, configuration: null, cells: job.cells.filter((c) => clientKey(c.client) === clientKey(client)) });
    }
  }
  if (byClient.length === 1) {
    // One job, one client: compare its configurations.
    const only = byClient[0]!;
    const configs = uniqueInOrder(only.cells.map((c) => c.configuration), (c) => c.label);
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
  const spread = done.flatMap((c) => (c.channelSummary ? [c.channelSummary] : []));
  return {
    qps: any ? median(results.map((r) => r.qps)) : null,
    p50Ms: any ? median(results.map((r) => r.p50Ms)) : null,
    p99Ms: any ? median(results.map((r) => r.p99Ms)) : null,
    qpsMin: any ? Math.min(...results.map((r) => r.qps)) : null,
    qpsMax: any ? Math.max(...results.map((r) => r.qps)) : null,
    repeats: results.length,
    failed: failed.length,
    pending: cells.filter((c) => c.status === 'pending' || c.status === 'running' || c.status === 'queued').length,
    cpuBound: results.some((r) => r.clientCpuBound === true),
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

function envOf(job: CompareJobInput): { host: string | null; cores: number | null } | null {
  const e = job.environment;
  if (!e) return null;
  return { host: typeof e.host === 'string' ? e.host : null, cores: typeof e.cores === 'number' ? e.cores : null };
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
  const configLabels = configurationIs === 'row' ? uniqueInOrder(ds.flatMap((d) => d.cells.map((c) => c.configuration.label)), (l) => l) : [null];
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
      if (eb && ec && (eb.host !== ec.host || eb.cores !== ec.cores)) notes.push({ kind: 'environment', severity: 'warning', series: series[i]!.key, baseline: eb, candidate: ec });
    }
  }
  const cpuBound = series.filter((_, i) => rows.some((r) => r.entries[i]?.cpuBound)).map((s) => s.key);
  if (cpuBound.length) notes.push({ kind: 'cpu-bound', severity: 'warning', series: cpuBound });
  for (const s of uniqueInOrder(series, (s) => s.jobId)) {
    if (s.jobStatus === 'queued' || s.jobStatus === 'running') notes.push({ kind: 'unfinished', severity: 'info', series: s.key, jobStatus: s.jobStatus });
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
    sameWithin,
  };
}

/** One chart point: concurrency, the ideal qps (when the series share a latency), a value per series key. */
export interface CompareChartPoint {
  concurrency: number;
  ideal: number | null;
  [seriesKey: string]: number | null;
}

export interface CompareChartGroup {
  /** The configuration this group's rows belong to (when configuration is a row dimension). */
  configuration: string | null;
  qps: CompareChartPoint[];
  /** p99 in ms; values that a log axis cannot show (<= 0) are null. */
  p99Ms: CompareChartPoint[];
}

/** Chart data: one group per configuration row label (one group when configuration is a series). */
export function comparisonCharts(c: Comparison): CompareChartGroup[] {
  const groups = uniqueInOrder(c.rows.map((r) => r.configuration ?? ''), (x) => x);
  return groups.map((g) => {
    const rows = c.rows.filter((r) => (r.configuration ?? '') === g);
    const point = (r: CompareRow, m: 'qps' | 'p99Ms'): CompareChartPoint => {
      const p: CompareChartPoint = { concurrency: r.concurrency, ideal: m === 'qps' && c.idealLatencyMs !== null ? idealQps(r.concurrency, c.idealLatencyMs) : null };
      c.series.forEach((s, i) => {
        const v = r.entries[i]?.[m] ?? null;
        p[s.key] = v !== null && v > 0 ? v : null;
      });
      return p;
    };
    return { configuration: rows[0]?.configuration ?? null, qps: rows.map((r) => point(r, 'qps')), p99Ms: rows.map((r) => point(r, 'p99Ms')) };
  });
}

// ---------------------------------------------------------------------------------------------
// Formatting (never measures)
// ---------------------------------------------------------------------------------------------

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
  return `${formatQps(e.qps)}${range}${e.cpuBound ? ' *' : ''}`;
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

export function compareRowLabel(r: Pick<CompareRow, 'configuration' | 'concurrency'>): string {
  return r.configuration === null ? `C=${r.concurrency}` : `${r.configuration} · C=${r.concurrency}`;
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
      const over = s.rows === 1 && s.worstQps ? `at ${compareRowLabel(s.worstQps)}` : `over ${s.rows} rows (geometric mean)`;
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
      const m = (e: { host: string | null; cores: number | null }) => `${e.host ?? 'unknown host'}, ${e.cores ?? '?'} cores`;
      return `${label(n.series)} ran on a different machine than ${base} (${m(n.candidate)} vs ${m(n.baseline)}).`;
    }
    case 'cpu-bound':
      return `Client CPU-bound cells (*) in ${n.series.map(label).join(', ')}: the driver used more than 85% of the machine's cores, so that qps says more about the machine than about the client.`;
    case 'unfinished':
      return `Job ${compareSeriesByKey(c, n.series)?.jobId ?? ''} is still ${n.jobStatus}: its numbers may change.`;
    case 'missing':
      return n.series === c.series[0]?.key
        ? `${base} has no result in ${n.rows} row${n.rows === 1 ? '' : 's'}: nothing to compare there.`
        : `${label(n.series)} cannot be compared with ${base} in ${n.rows} row${n.rows === 1 ? '' : 's'} (no cell or no result on one side).`;
  }
}
