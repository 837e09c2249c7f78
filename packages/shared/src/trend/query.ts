// The trend chart's selection as URL parameters of the /versions page and GET /api/versions-chart.
import { languageNames } from '../job/languages';
import { OPERATIONS, type Language, type Operation } from '../job/spec';
import { TREND_METRICS, isTrendMetric, type TrendMetric } from './metrics';
import type { ScenarioIndex } from './scenarios';

export interface TrendSelection {
  language: Language;
  /** Null when the language has no succeeded cells at all. */
  scenario: string | null;
  metric: TrendMetric;
  concurrency: number | null;
  /** One operation kind of the scenario's mix; null: the cell total (and always for a one-kind workload). */
  operation: Operation | null;
}

export interface QueryIssue {
  path: string;
  message: string;
}

const PARAMS = ['language', 'scenario', 'metric', 'concurrency', 'operation'] as const;

/** Raw parameters, checked for form only (what exists is checked by resolveSelection). */
export interface TrendQuery {
  language?: Language;
  scenario?: string;
  metric?: TrendMetric;
  concurrency?: number;
  operation?: Operation;
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
export function parseTrendQuery(source: ParamSource, strict = false): { value: TrendQuery; issues: QueryIssue[] } {
  const params = paramsOf(source);
  const issues: QueryIssue[] = [];
  const value: TrendQuery = {};
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
    if (languageNames().includes(language)) value.language = language;
    else issues.push({ path: 'language', message: `must be one of ${languageNames().join(', ')}` });
  }
  const scenario = one('scenario');
  if (scenario !== undefined) {
    if (/^[0-9a-f]{12}$/.test(scenario)) value.scenario = scenario;
    else issues.push({ path: 'scenario', message: 'must be a scenario key: 12 lowercase hex digits' });
  }
  const metric = one('metric');
  if (metric !== undefined) {
    if (isTrendMetric(metric)) value.metric = metric;
    else issues.push({ path: 'metric', message: `must be one of ${TREND_METRICS.join(', ')}` });
  }
  const concurrency = one('concurrency');
  if (concurrency !== undefined) {
    const n = Number(concurrency);
    if (/^\d+$/.test(concurrency) && n >= 1 && n <= 2000) value.concurrency = n;
    else issues.push({ path: 'concurrency', message: 'must be a whole number from 1 to 2000' });
  }
  const operation = one('operation');
  if (operation !== undefined) {
    if ((OPERATIONS as readonly string[]).includes(operation)) value.operation = operation as Operation;
    else issues.push({ path: 'operation', message: `must be one of ${OPERATIONS.join(', ')}` });
  }
  return { value, issues };
}

/**
 * Fills in defaults (the language with most succeeded cells, its scenario with the most cells, that
 * scenario's largest concurrency, qps) and reports parameters that select nothing; the selection then
 * falls back to the default for that parameter.
 */
export function resolveSelection(query: TrendQuery, index: ScenarioIndex): { selection: TrendSelection; issues: QueryIssue[] } {
  const issues: QueryIssue[] = [];
  const busiest = [...index.languages].sort((a, b) => b.cells - a.cells)[0];
  const language: Language = query.language ?? (busiest && busiest.cells > 0 ? busiest.value : languageNames()[0]!);
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
  // A kind of a mix; the only kind of a one-kind workload is its total already.
  let operation: Operation | null = null;
  if (query.operation && scenario) {
    if (!scenario.operations.includes(query.operation)) {
      if (!issues.length) issues.push({ path: 'operation', message: `${query.operation} is not in this scenario's workload (${scenario.operations.join(', ')})` });
    } else if (scenario.operations.length > 1) operation = query.operation;
  }
  return { selection: { language, scenario: scenario?.key ?? null, metric: query.metric ?? 'qps', concurrency, operation }, issues };
}

/** The page's URL for a selection (the whole selection is in it). */
export function versionsHref(s: Partial<TrendSelection>, base = '/versions'): string {
  const p = new URLSearchParams();
  if (s.language) p.set('language', s.language);
  if (s.scenario) p.set('scenario', s.scenario);
  if (s.metric) p.set('metric', s.metric);
  if (s.concurrency) p.set('concurrency', String(s.concurrency));
  if (s.operation) p.set('operation', s.operation);
  const q = p.toString();
  return q ? `${base}?${q}` : base;
}
