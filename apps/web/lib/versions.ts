import { cache } from 'react';
import { isOpenLoop } from '@scb/shared/job';
import {
  METRICS,
  TREND_METRICS,
  buildTrendModelFromPoints,
  parseTrendQuery,
  resolveSelection,
  scenarioIndexFromSummaries,
  versionsHref,
  type QueryIssue,
  type ScenarioOption,
  type TrendModel,
  type TrendQuery,
  type TrendSelection,
} from '@scb/shared/trend';
import { loadTrendPoints, loadTrendScenarios } from '@scb/db';
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
 * Two or three queries whatever the number of stored cells, none of which reads a cell: the
 * scenario summary (per language and scenario: jobs and succeeded cells per concurrency), the specs
 * of one job per scenario (parsed once per process), then the selected points of the trend summary
 * (@scb/db's TrendPoint, kept up to date as cells finish: n, median, range, verdict counts, a
 * bounded sample of repeats).
 */
export async function loadVersionsView(query: TrendQuery, earlierIssues: QueryIssue[] = []): Promise<VersionsView> {
  const { summaries, specs, invalid } = await loadTrendScenarios(db());
  const index = scenarioIndexFromSummaries(summaries, specs);
  const { selection, issues } = resolveSelection(query, index);
  const option = index.scenarios[selection.language].find((s) => s.key === selection.scenario) ?? null;
  const scenarioJobs = selection.scenario ? index.jobsByScenario.get(selection.scenario) : undefined;
  const points =
    selection.scenario && selection.concurrency !== null
      ? await loadTrendPoints(db(), { language: selection.language, scenario: selection.scenario, concurrency: selection.concurrency, metric: selection.metric, operation: selection.operation })
      : [];

  return {
    selection,
    url: versionsHref(selection),
    fallbacks: [...earlierIssues, ...issues],
    scenario: option ? { key: option.key, label: option.label, differsIn: option.differsIn } : null,
    openLoop: scenarioJobs?.spec ? isOpenLoop(scenarioJobs.spec) : false,
    options: {
      languages: index.languages,
      scenarios: index.scenarios[selection.language],
      // A scan's rows per second and CPU per 1,000 rows are offered where the scenario's workload has a result set.
      metrics: TREND_METRICS.filter((m) => !METRICS[m].derived || scenarioJobs?.spec?.workload.resultSet).map((value) => ({ value, label: METRICS[value].label, unit: METRICS[value].unit })),
      concurrencies: option?.concurrencies ?? [],
      operations: option && option.operations.length > 1 ? option.operations : [],
    },
    chart: buildTrendModelFromPoints(points, selection, scenarioJobs?.spec),
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
