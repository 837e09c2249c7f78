import { cache } from 'react';
import { judgeCell } from '@scb/shared/verdict';
import { isOpenLoop } from '@scb/shared/job';
import {
  METRICS,
  TREND_METRICS,
  buildScenarioIndex,
  buildTrendModel,
  parseTrendQuery,
  resolveSelection,
  versionsHref,
  type QueryIssue,
  type ScenarioOption,
  type TrendCell,
  type TrendModel,
  type TrendQuery,
  type TrendSelection,
} from '@scb/shared/trend';
import { loadTrendJobs, loadTrendRows } from '@scb/db';
import { db } from './db';

/** Everything the /versions page and GET /api/versions-chart answer for one selection. */
export interface VersionsView {
  selection: TrendSelection;
  /** The page's own URL for this selection. */
  url: string;
  /** Parameters that were malformed or selected nothing; the selection fell back to the default for them. */
  fallbacks: QueryIssue[];
  scenario: { key: string; label: string; differsIn?: string[] } | null;
  /** The scenario is an open loop: its levels are arrival rates (ops/s), not concurrencies. */
  openLoop: boolean;
  options: {
    languages: { value: string; cells: number }[];
    scenarios: ScenarioOption[];
    metrics: { value: string; label: string; unit: string }[];
    concurrencies: { value: number; cells: number }[];
    /** The kinds of the scenario's mix; empty for a one-kind workload. */
    operations: string[];
  };
  chart: TrendModel;
  /** Stored jobs left out because they do not parse, one sentence each (absent when there are none). */
  invalidJobs?: string[];
}

/**
 * Two or three queries whatever the number of jobs (@scb/db's trend queries): succeeded cells
 * counted per job, language and concurrency; the specs of jobs not seen before (parsed and keyed
 * once per process); then the selected cells joined to the one result column the metric needs
 * (never the histogram or the timeline). 2,000 jobs with 72,000 cells: about 150 ms here.
 */
export async function loadVersionsView(query: TrendQuery, earlierIssues: QueryIssue[] = []): Promise<VersionsView> {
  const { jobs, invalid } = await loadTrendJobs(db());
  const facts = new Map(jobs.map((j) => [j.jobId, j]));
  const index = buildScenarioIndex(jobs);
  const { selection, issues } = resolveSelection(query, index);
  const option = index.scenarios[selection.language].find((s) => s.key === selection.scenario) ?? null;
  const scenarioJobs = selection.scenario ? index.jobsByScenario.get(selection.scenario) : undefined;

  let cells: TrendCell[] = [];
  if (scenarioJobs && selection.concurrency !== null) {
    const rows = await loadTrendRows(db(), {
      language: selection.language,
      concurrency: selection.concurrency,
      jobIds: scenarioJobs.jobIds,
      metric: selection.metric,
      operation: selection.operation,
    });
    // Configuration options come from the job specs, not from every cell.
    const configs = new Map<string, Record<string, unknown> | undefined>();
    const configOf = (jobId: string, label: string) => {
      const k = `${jobId}\u0000${label}`;
      if (!configs.has(k))
        configs.set(
          k,
          facts.get(jobId)?.spec.configurations.find((c) => c.label === label),
        );
      return configs.get(k);
    };
    // Only the selected metric is loaded; the model reads nothing else.
    const field = METRICS[selection.metric].field;
    const pick = (f: string, value: number) => (f === field ? value : Number.NaN);
    cells = rows.map((r) => ({
      qps: pick('qps', r.value),
      p50Ms: pick('p50Ms', r.value),
      p90Ms: pick('p90Ms', r.value),
      p99Ms: pick('p99Ms', r.value),
      p999Ms: pick('p999Ms', r.value),
      jobId: r.jobId,
      scenario: selection.scenario!,
      language: selection.language,
      version: r.version,
      configLabel: r.configLabel,
      config: configOf(r.jobId, r.configLabel),
      concurrency: selection.concurrency!,
      repeat: r.repeat,
      verdict: judgeCell(r, facts.get(r.jobId)?.cores ?? 0).kind,
    }));
  }

  return {
    selection,
    url: versionsHref(selection),
    fallbacks: [...earlierIssues, ...issues],
    scenario: option ? { key: option.key, label: option.label, differsIn: option.differsIn } : null,
    openLoop: scenarioJobs?.spec ? isOpenLoop(scenarioJobs.spec) : false,
    options: {
      languages: index.languages,
      scenarios: index.scenarios[selection.language],
      metrics: TREND_METRICS.map((value) => ({ value, label: METRICS[value].label, unit: METRICS[value].unit })),
      concurrencies: option?.concurrencies ?? [],
      operations: option && option.operations.length > 1 ? option.operations : [],
    },
    chart: buildTrendModel(cells, selection, scenarioJobs?.spec),
    ...(invalid.length ? { invalidJobs: invalid.map((j) => j.invalid) } : {}),
  };
}

/** The page's view, loaded once per request (metadata and page share it). */
export const versionsViewFor = cache((search: string) => {
  const { value, issues } = parseTrendQuery(new URLSearchParams(search));
  return loadVersionsView(value, issues);
});

/** Search parameters of a page as a canonical query string (the cache key above). */
export function searchString(sp: Record<string, string | string[] | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(sp).sort(([a], [b]) => a.localeCompare(b))) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  }
  return p.toString();
}
