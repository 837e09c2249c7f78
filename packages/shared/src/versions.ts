// The across-versions view: one scenario, one metric, one concurrency; client versions on the x axis
// (semver order), one series per configuration label, every repeat of every stored job.
// Pure functions: the web app loads the rows, these turn them into the chart and table model.
import { LANGUAGES, type JobSpec, type Language } from './spec';
import { idealQps, modeledLatencyMs } from './targets/index';
import { scenarioDifferences, scenarioKey, scenarioLabel } from './scenario';
import { median } from './stats';

// ---------------------------------------------------------------------------------------------
// Semver order

const SEMVER_PARTS = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1; // a release is newer than its prereleases
  if (b === undefined) return -1;
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1; // fewer identifiers: older
    if (y[i] === undefined) return 1;
    const xn = /^\d+$/.test(x[i]);
    const yn = /^\d+$/.test(y[i]);
    if (xn && yn) {
      const d = Number(x[i]) - Number(y[i]);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) {
      return xn ? -1 : 1; // numeric identifiers sort before alphanumeric ones
    } else if (x[i] !== y[i]) {
      return x[i] < y[i] ? -1 : 1;
    }
  }
  return 0;
}

/**
 * Semver precedence, oldest first: numbers compare as numbers (6.9.0 < 6.10.0 < 6.104.0), a
 * prerelease comes before its release. Strings that are not semver sort after all semver ones.
 */
export function compareSemver(a: string, b: string): number {
  const x = SEMVER_PARTS.exec(a);
  const y = SEMVER_PARTS.exec(b);
  if (!x || !y) {
    if (x) return -1;
    if (y) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return Math.sign(d);
  }
  return comparePrerelease(x[4], y[4]);
}

/** Distinct versions, oldest first. */
export function oldestFirst(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort(compareSemver);
}

// ---------------------------------------------------------------------------------------------
// Metrics

export const VERSION_METRICS = ['qps', 'p50', 'p90', 'p99', 'p999'] as const;
export type VersionMetric = (typeof VERSION_METRICS)[number];

/** The stored numbers of one cell's result that a metric can read. */
export interface MetricSource {
  qps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
}

export const METRICS: Record<VersionMetric, { field: keyof MetricSource; label: string; unit: 'qps' | 'ms'; axis: string; higherIsBetter: boolean }> = {
  qps: { field: 'qps', label: 'throughput', unit: 'qps', axis: 'queries per second', higherIsBetter: true },
  p50: { field: 'p50Ms', label: 'p50 latency', unit: 'ms', axis: 'p50 latency (ms)', higherIsBetter: false },
  p90: { field: 'p90Ms', label: 'p90 latency', unit: 'ms', axis: 'p90 latency (ms)', higherIsBetter: false },
  p99: { field: 'p99Ms', label: 'p99 latency', unit: 'ms', axis: 'p99 latency (ms)', higherIsBetter: false },
  p999: { field: 'p999Ms', label: 'p99.9 latency', unit: 'ms', axis: 'p99.9 latency (ms)', higherIsBetter: false },
};

export function isVersionMetric(v: string): v is VersionMetric {
  return (VERSION_METRICS as readonly string[]).includes(v);
}

export function metricValue(result: MetricSource, metric: VersionMetric): number {
  return result[METRICS[metric].field];
}

// ---------------------------------------------------------------------------------------------
// Scenarios: which (language, scenario, concurrency) combinations have succeeded cells

/** What the web app knows about one job before loading its cells: its spec and its succeeded cells per language and concurrency. */
export interface JobCellCounts {
  jobId: string;
  spec: JobSpec;
  /** Succeeded cells with a result, by client language and concurrency. */
  counts: { language: string; concurrency: number; cells: number }[];
  /** scenarioKey(spec) and scenarioLabel(spec) when the caller already has them (a spec never changes). */
  scenarioKey?: string;
  scenarioLabel?: string;
}

export interface ScenarioOption {
  key: string;
  label: string;
  /** Set when another scenario has the same label: what this one differs in (dotted paths). */
  differsIn?: string[];
  cells: number;
  jobs: number;
  /** Concurrencies with succeeded cells, ascending. */
  concurrencies: { value: number; cells: number }[];
}

export interface ScenarioIndex {
  /** Succeeded cells per language (every language, zero included). */
  languages: { value: Language; cells: number }[];
  /** Per language: its scenarios, most cells first. */
  scenarios: Record<Language, ScenarioOption[]>;
  /** Per scenario key: the jobs of that scenario (any language) and one spec standing for it. */
  jobsByScenario: Map<string, { jobIds: string[]; spec: JobSpec }>;
}

export function buildScenarioIndex(jobs: JobCellCounts[]): ScenarioIndex {
  const jobsByScenario = new Map<string, { jobIds: string[]; spec: JobSpec }>();
  const acc = new Map<Language, Map<string, { label: string; cells: number; jobs: Set<string>; conc: Map<number, number> }>>();
  const perLanguage = new Map<Language, number>();
  for (const job of jobs) {
    const key = job.scenarioKey ?? scenarioKey(job.spec);
    const entry = jobsByScenario.get(key) ?? { jobIds: [], spec: job.spec };
    entry.jobIds.push(job.jobId);
    jobsByScenario.set(key, entry);
    for (const c of job.counts) {
      if (!(LANGUAGES as readonly string[]).includes(c.language) || c.cells <= 0) continue;
      const language = c.language as Language;
      perLanguage.set(language, (perLanguage.get(language) ?? 0) + c.cells);
      const byKey = acc.get(language) ?? new Map();
      acc.set(language, byKey);
      const s = byKey.get(key) ?? { label: job.scenarioLabel ?? scenarioLabel(job.spec), cells: 0, jobs: new Set<string>(), conc: new Map<number, number>() };
      byKey.set(key, s);
      s.cells += c.cells;
      s.jobs.add(job.jobId);
      s.conc.set(c.concurrency, (s.conc.get(c.concurrency) ?? 0) + c.cells);
    }
  }
  const scenarios = Object.fromEntries(LANGUAGES.map((l) => [l, [] as ScenarioOption[]])) as Record<Language, ScenarioOption[]>;
  for (const [language, byKey] of acc) {
    const list: ScenarioOption[] = [...byKey].map(([key, s]) => ({
      key,
      label: s.label,
      cells: s.cells,
      jobs: s.jobs.size,
      concurrencies: [...s.conc].sort((a, b) => a[0] - b[0]).map(([value, cells]) => ({ value, cells })),
    }));
    list.sort((a, b) => b.cells - a.cells || a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
    // Two scenarios with the same words: say what tells them apart (against the first with that label).
    const firstByLabel = new Map<string, ScenarioOption>();
    for (const s of list) {
      const first = firstByLabel.get(s.label);
      if (!first) firstByLabel.set(s.label, s);
      else s.differsIn = scenarioDifferences(jobsByScenario.get(first.key)!.spec, jobsByScenario.get(s.key)!.spec);
    }
    scenarios[language] = list;
  }
  return {
    languages: LANGUAGES.map((value) => ({ value, cells: perLanguage.get(value) ?? 0 })),
    scenarios,
    jobsByScenario,
  };
}

/** The scenario as the select shows it. */
export function scenarioOptionText(s: ScenarioOption): string {
  const differs = s.differsIn?.length ? ` [differs in ${s.differsIn.join(', ')}]` : '';
  return `${s.label}${differs} · ${s.cells} cell${s.cells === 1 ? '' : 's'}, ${s.jobs} job${s.jobs === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------
// The selection (URL parameters)

export interface VersionsSelection {
  language: Language;
  /** Null when the language has no succeeded cells at all. */
  scenario: string | null;
  metric: VersionMetric;
  concurrency: number | null;
}

export interface QueryIssue {
  path: string;
  message: string;
}

const PARAMS = ['language', 'scenario', 'metric', 'concurrency'] as const;

/** Raw parameters, checked for form only (what exists is checked by resolveSelection). */
export interface VersionsQuery {
  language?: Language;
  scenario?: string;
  metric?: VersionMetric;
  concurrency?: number;
}

type ParamSource = URLSearchParams | Record<string, string | string[] | undefined>;

function paramsOf(source: ParamSource): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (source instanceof URLSearchParams) {
    for (const [k, v] of source) out.set(k, [...(out.get(k) ?? []), v]);
  } else {
    for (const [k, v] of Object.entries(source)) if (v !== undefined) out.set(k, Array.isArray(v) ? v : [v]);
  }
  return out;
}

/**
 * Checks the URL parameters: language (node, java), scenario (a 12-hex-digit key), metric,
 * concurrency (1..2000). Empty values count as absent. With `strict`, unknown or repeated
 * parameters are issues too (the JSON API); the page ignores them.
 */
export function parseVersionsQuery(source: ParamSource, strict = false): { value: VersionsQuery; issues: QueryIssue[] } {
  const params = paramsOf(source);
  const issues: QueryIssue[] = [];
  const value: VersionsQuery = {};
  if (strict) {
    for (const [k, vs] of params) {
      if (!(PARAMS as readonly string[]).includes(k)) issues.push({ path: k, message: `unknown parameter (known: ${PARAMS.join(', ')})` });
      else if (vs.length > 1) issues.push({ path: k, message: 'given more than once' });
    }
  }
  const one = (k: (typeof PARAMS)[number]) => {
    const v = params.get(k)?.[0]?.trim();
    return v ? v : undefined;
  };
  const language = one('language');
  if (language !== undefined) {
    if ((LANGUAGES as readonly string[]).includes(language)) value.language = language as Language;
    else issues.push({ path: 'language', message: `must be one of ${LANGUAGES.join(', ')}` });
  }
  const scenario = one('scenario');
  if (scenario !== undefined) {
    if (/^[0-9a-f]{12}$/.test(scenario)) value.scenario = scenario;
    else issues.push({ path: 'scenario', message: 'must be a scenario key: 12 lowercase hex digits' });
  }
  const metric = one('metric');
  if (metric !== undefined) {
    if (isVersionMetric(metric)) value.metric = metric;
    else issues.push({ path: 'metric', message: `must be one of ${VERSION_METRICS.join(', ')}` });
  }
  const concurrency = one('concurrency');
  if (concurrency !== undefined) {
    const n = Number(concurrency);
    if (/^\d+$/.test(concurrency) && n >= 1 && n <= 2000) value.concurrency = n;
    else issues.push({ path: 'concurrency', message: 'must be a whole number from 1 to 2000' });
  }
  return { value, issues };
}

/**
 * Fills in defaults (the language with most succeeded cells, its scenario with the most cells, that
 * scenario's largest concurrency, qps) and reports parameters that select nothing; the selection then
 * falls back to the default for that parameter.
 */
export function resolveSelection(query: VersionsQuery, index: ScenarioIndex): { selection: VersionsSelection; issues: QueryIssue[] } {
  const issues: QueryIssue[] = [];
  const busiest = [...index.languages].sort((a, b) => b.cells - a.cells)[0];
  const language: Language = query.language ?? (busiest && busiest.cells > 0 ? busiest.value : LANGUAGES[0]);
  const scenarios = index.scenarios[language];
  let scenario = query.scenario ? scenarios.find((s) => s.key === query.scenario) : undefined;
  if (query.scenario && !scenario) {
    issues.push({ path: 'scenario', message: `no succeeded ${language} cells in scenario ${query.scenario}` });
  }
  scenario ??= scenarios[0];
  let concurrency: number | null = null;
  if (scenario) {
    const present = scenario.concurrencies.map((c) => c.value);
    if (query.concurrency !== undefined && !present.includes(query.concurrency)) {
      // Only a problem of the concurrency when the scenario was not itself replaced.
      if (!issues.length) {
        issues.push({ path: 'concurrency', message: `concurrency ${query.concurrency} has no succeeded ${language} cells in this scenario (present: ${present.join(', ')})` });
      }
    } else if (query.concurrency !== undefined) concurrency = query.concurrency;
    concurrency ??= present[present.length - 1] ?? null;
  }
  return { selection: { language, scenario: scenario?.key ?? null, metric: query.metric ?? 'qps', concurrency }, issues };
}

/** The page's URL for a selection (the whole selection is in it). */
export function versionsHref(s: Partial<VersionsSelection>, base = '/versions'): string {
  const p = new URLSearchParams();
  if (s.language) p.set('language', s.language);
  if (s.scenario) p.set('scenario', s.scenario);
  if (s.metric) p.set('metric', s.metric);
  if (s.concurrency) p.set('concurrency', String(s.concurrency));
  const q = p.toString();
  return q ? `${base}?${q}` : base;
}

// ---------------------------------------------------------------------------------------------
// The chart and table model

/** One stored succeeded cell with what the view needs. */
export interface VersionCell extends MetricSource {
  jobId: string;
  /** Scenario key of the cell's job. */
  scenario: string;
  language: string;
  version: string;
  configLabel: string;
  /** The configuration's options (for telling apart option sets that share a label). */
  config?: Record<string, unknown> | null;
  concurrency: number;
  repeat: number;
  /** The driver used more than 85% of the machine's cores. */
  cpuBound?: boolean;
}

export interface RepeatValue {
  jobId: string;
  repeat: number;
  value: number;
  cpuBound: boolean;
}

export interface VersionPoint {
  version: string;
  median: number;
  min: number;
  max: number;
  n: number;
  /** Every repeat, by job (oldest job id first as given) and repeat. */
  values: RepeatValue[];
  /** Jobs that produced the values, in the order first seen. */
  jobs: string[];
  cpuBound: number;
}

export interface VersionSeries {
  configuration: string;
  /** Distinct option sets stored under this label (more than one: the label means different things in different jobs). */
  optionSets: string[];
  /** Aligned with the model's versions; null where this configuration has no cell at that version. */
  points: (VersionPoint | null)[];
}

export interface VersionsModel {
  language: string;
  scenario: string | null;
  metric: VersionMetric;
  unit: 'qps' | 'ms';
  axis: string;
  concurrency: number | null;
  /** Oldest first. */
  versions: string[];
  series: VersionSeries[];
  /** The ideal qps (C / latency) or the server's latency per query, for a horizontal reference line. */
  reference: { value: number; label: string } | null;
  cells: number;
}

const optionTexts = new WeakMap<object, string>();

/** Options beyond the label, in a stable order, e.g. "grpcGcp=on, numChannels=32". */
export function optionText(config: Record<string, unknown> | null | undefined): string {
  if (!config) return '';
  let text = optionTexts.get(config);
  if (text === undefined) optionTexts.set(config, (text = optionTextOf(config)));
  return text;
}

function optionTextOf(config: Record<string, unknown>): string {
  return Object.keys(config)
    .filter((k) => k !== 'label' && config[k] !== undefined && config[k] !== 'default')
    .sort()
    .map((k) => `${k}=${typeof config[k] === 'object' ? JSON.stringify(config[k]) : String(config[k])}`)
    .join(', ');
}

/** Reference line for the metric: ideal qps for throughput, the server's time per query for latency. */
export function metricReference(spec: Pick<JobSpec, 'target' | 'timeScale'>, metric: VersionMetric, concurrency: number | null): VersionsModel['reference'] {
  const latency = modeledLatencyMs(spec);
  if (latency === null) return null;
  if (metric === 'qps') {
    if (!concurrency || !(latency > 0)) return null;
    return { value: idealQps(concurrency, latency), label: `ideal ${concurrency} / ${latency} ms` };
  }
  return { value: latency, label: `server latency ${latency} ms` };
}

/**
 * Groups the cells of one selection (language, scenario, concurrency; others are left out) into
 * series per configuration label and points per version: median, min, max, n and every repeat.
 */
export function buildVersionsModel(cells: VersionCell[], selection: VersionsSelection, spec?: Pick<JobSpec, 'target' | 'timeScale'>): VersionsModel {
  const info = METRICS[selection.metric];
  const mine = cells.filter(
    (c) => c.language === selection.language && c.scenario === selection.scenario && c.concurrency === selection.concurrency && Number.isFinite(metricValue(c, selection.metric)),
  );
  const versions = oldestFirst(mine.map((c) => c.version));
  const labels = [...new Set(mine.map((c) => c.configLabel))].sort((a, b) => a.localeCompare(b));
  const byKey = new Map<string, VersionCell[]>();
  for (const c of mine) {
    const k = `${c.configLabel}\u0000${c.version}`;
    const list = byKey.get(k);
    if (list) list.push(c);
    else byKey.set(k, [c]);
  }
  const series = labels.map((configuration): VersionSeries => {
    const optionSets = new Set<string>();
    const points = versions.map((version): VersionPoint | null => {
      const group = byKey.get(`${configuration}\u0000${version}`);
      if (!group) return null;
      group.forEach((c) => optionSets.add(optionText(c.config)));
      const values = group.map((c) => ({ jobId: c.jobId, repeat: c.repeat, value: metricValue(c, selection.metric), cpuBound: !!c.cpuBound }));
      const nums = values.map((v) => v.value);
      return {
        version,
        median: median(nums),
        min: Math.min(...nums),
        max: Math.max(...nums),
        n: nums.length,
        values,
        jobs: [...new Set(values.map((v) => v.jobId))],
        cpuBound: values.filter((v) => v.cpuBound).length,
      };
    });
    return { configuration, optionSets: [...optionSets].sort(), points };
  });
  return {
    language: selection.language,
    scenario: selection.scenario,
    metric: selection.metric,
    unit: info.unit,
    axis: info.axis,
    concurrency: selection.concurrency,
    versions,
    series,
    reference: spec ? metricReference(spec, selection.metric, selection.concurrency) : null,
    cells: mine.length,
  };
}

/**
 * What the browser chart needs, compact: with thousands of repeats the full model is megabytes of
 * JSON inside the page. Job ids are listed once; each repeat is [value, job index, repeat, cpuBound 0/1].
 */
export interface ChartData {
  language: string;
  unit: 'qps' | 'ms';
  axis: string;
  versions: string[];
  reference: VersionsModel['reference'];
  jobIds: string[];
  series: {
    configuration: string;
    points: ({ median: number; min: number; max: number; n: number; jobs: number; repeats: [number, number, number, 0 | 1][] } | null)[];
  }[];
}

/** Rounds to what a chart can show (4 significant digits are plenty). */
function chartNumber(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(4)) : v;
}

export function chartData(model: VersionsModel): ChartData {
  const jobIndex = new Map<string, number>();
  const ref = (id: string) => {
    let i = jobIndex.get(id);
    if (i === undefined) jobIndex.set(id, (i = jobIndex.size));
    return i;
  };
  return {
    language: model.language,
    unit: model.unit,
    axis: model.axis,
    versions: model.versions,
    reference: model.reference,
    series: model.series.map((s) => ({
      configuration: s.configuration,
      points: s.points.map((p) =>
        p
          ? {
              median: chartNumber(p.median),
              min: chartNumber(p.min),
              max: chartNumber(p.max),
              n: p.n,
              jobs: p.jobs.length,
              repeats: p.values.map((v): [number, number, number, 0 | 1] => [chartNumber(v.value), ref(v.jobId), v.repeat, v.cpuBound ? 1 : 0]),
            }
          : null,
      ),
    })),
    jobIds: [...jobIndex.keys()],
  };
}

/**
 * Per version: the median's relative change from the previous version that has a point in the same
 * series (0.1 = 10% higher), null for the first point and where there is none.
 */
export function changeFromPrevious(series: Pick<VersionSeries, 'points'>): (number | null)[] {
  let previous: number | null = null;
  return series.points.map((p) => {
    if (!p) return null;
    const change = previous !== null && previous !== 0 ? (p.median - previous) / previous : null;
    previous = p.median;
    return change;
  });
}

/** "551 (230–553, n=3)" for qps, "652.3 (650.1–700.0, n=3)" for latency. */
export function formatPoint(p: VersionPoint, unit: 'qps' | 'ms'): string {
  const f = (v: number) => formatValue(v, unit);
  return p.n > 1 ? `${f(p.median)} (${f(p.min)}–${f(p.max)}, n=${p.n})` : `${f(p.median)} (n=1)`;
}

export function formatValue(v: number, unit: 'qps' | 'ms'): string {
  if (!Number.isFinite(v)) return '–';
  if (unit === 'qps') return Math.round(v).toString();
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}
