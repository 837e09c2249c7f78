import { cache } from 'react';
import { CPU_BOUND_SHARE, cpuShare } from '@scb/shared/channels';
import { scenarioKey, scenarioLabel } from '@scb/shared/scenario';
import type { JobSpec } from '@scb/shared/spec';
import {
  METRICS,
  VERSION_METRICS,
  buildScenarioIndex,
  buildVersionsModel,
  parseVersionsQuery,
  resolveSelection,
  versionsHref,
  type QueryIssue,
  type ScenarioOption,
  type VersionCell,
  type VersionsModel,
  type VersionsQuery,
  type VersionsSelection,
} from '@scb/shared/versions';
import { Prisma } from '@scb/db';
import { db } from './db';

/** Everything the /versions page and GET /api/versions-chart answer for one selection. */
export interface VersionsView {
  selection: VersionsSelection;
  /** The page's own URL for this selection. */
  url: string;
  /** Parameters that were malformed or selected nothing; the selection fell back to the default for them. */
  fallbacks: QueryIssue[];
  scenario: { key: string; label: string; differsIn?: string[] } | null;
  options: {
    languages: { value: string; cells: number }[];
    scenarios: ScenarioOption[];
    metrics: { value: string; label: string; unit: string }[];
    concurrencies: { value: number; cells: number }[];
  };
  chart: VersionsModel;
}

/** One selected cell as the cells query returns it. */
interface CellRow {
  jobId: string;
  version: string;
  configLabel: string;
  repeat: number;
  value: number;
  cpuMs: number;
  elapsedMs: number;
}

/** What a job contributes here; a job's spec never changes, nor its environment once a cell has run. */
interface JobFacts {
  spec: JobSpec;
  scenarioKey: string;
  scenarioLabel: string;
  cores: number;
}

/** Per server process: jobs with succeeded cells already seen (bounded; cleared when full). */
const factsCache = new Map<string, JobFacts>();
const FACTS_CACHE_MAX = 50_000;

async function jobFacts(ids: string[]): Promise<Map<string, JobFacts>> {
  const missing = ids.filter((id) => !factsCache.has(id));
  if (missing.length) {
    if (factsCache.size + missing.length > FACTS_CACHE_MAX) factsCache.clear();
    const rows = await db().job.findMany({ where: { id: { in: missing } }, select: { id: true, spec: true, environment: true } });
    for (const r of rows) {
      const spec = r.spec as unknown as JobSpec;
      factsCache.set(r.id, {
        spec,
        scenarioKey: scenarioKey(spec),
        scenarioLabel: scenarioLabel(spec),
        cores: Number((r.environment as { cores?: number } | null)?.cores ?? 0),
      });
    }
  }
  return new Map(ids.flatMap((id) => (factsCache.has(id) ? [[id, factsCache.get(id)!] as const] : [])));
}

/**
 * Two or three queries whatever the number of jobs: succeeded cells counted per job, language and
 * concurrency; the specs of jobs not seen before (scenario keys are computed from the spec, once);
 * then the selected cells joined to the one result column the metric needs (never the histogram or
 * the timeline). 2,000 jobs with 72,000 cells: about 150 ms here.
 */
export async function loadVersionsView(query: VersionsQuery, earlierIssues: QueryIssue[] = []): Promise<VersionsView> {
  const counts = await db().cell.groupBy({ by: ['jobId', 'clientLanguage', 'concurrency'], where: { status: 'succeeded' }, _count: { _all: true } });
  const countsByJob = new Map<string, { language: string; concurrency: number; cells: number }[]>();
  for (const c of counts) {
    const list = countsByJob.get(c.jobId) ?? [];
    list.push({ language: c.clientLanguage, concurrency: c.concurrency, cells: c._count._all });
    countsByJob.set(c.jobId, list);
  }
  const facts = await jobFacts([...countsByJob.keys()]);
  const index = buildScenarioIndex(
    [...facts].map(([jobId, f]) => ({ jobId, spec: f.spec, scenarioKey: f.scenarioKey, scenarioLabel: f.scenarioLabel, counts: countsByJob.get(jobId) ?? [] })),
  );
  const { selection, issues } = resolveSelection(query, index);
  const option = index.scenarios[selection.language].find((s) => s.key === selection.scenario) ?? null;
  const scenarioJobs = selection.scenario ? index.jobsByScenario.get(selection.scenario) : undefined;

  let cells: VersionCell[] = [];
  if (scenarioJobs && selection.concurrency !== null) {
    // The column comes from a fixed list (METRICS), never from the request.
    const column = Prisma.raw(`r."${METRICS[selection.metric].field}"`);
    const rows = await db().$queryRaw<CellRow[]>`
      SELECT c."jobId", c."clientVersion" AS version, c."configLabel", c.repeat, ${column} AS value, r."cpuMs", r."elapsedMs"
      FROM "Cell" c JOIN "CellResult" r ON r."cellId" = c.id
      WHERE c.status = 'succeeded' AND c."clientLanguage" = ${selection.language} AND c.concurrency = ${selection.concurrency}
        AND c."jobId" = ANY(${scenarioJobs.jobIds})
      ORDER BY c."jobId", c.index`;
    // Configuration options come from the job specs, not from every cell.
    const configs = new Map<string, Record<string, unknown> | undefined>();
    const configOf = (jobId: string, label: string) => {
      const k = `${jobId}\u0000${label}`;
      if (!configs.has(k)) configs.set(k, facts.get(jobId)?.spec.configurations.find((c) => c.label === label) as Record<string, unknown> | undefined);
      return configs.get(k);
    };
    // Only the selected metric is loaded; the model reads nothing else.
    const field = METRICS[selection.metric].field;
    const pick = (f: string, value: number) => (f === field ? value : Number.NaN);
    cells = rows.map((r) => {
      const value = Number(r.value);
      return {
        qps: pick('qps', value),
        p50Ms: pick('p50Ms', value),
        p90Ms: pick('p90Ms', value),
        p99Ms: pick('p99Ms', value),
        p999Ms: pick('p999Ms', value),
        jobId: r.jobId,
        scenario: selection.scenario!,
        language: selection.language,
        version: r.version,
        configLabel: r.configLabel,
        config: configOf(r.jobId, r.configLabel),
        concurrency: selection.concurrency!,
        repeat: r.repeat,
        cpuBound: cpuShare(Number(r.cpuMs), Number(r.elapsedMs), facts.get(r.jobId)?.cores ?? 0) > CPU_BOUND_SHARE,
      };
    });
  }

  return {
    selection,
    url: versionsHref(selection),
    fallbacks: [...earlierIssues, ...issues],
    scenario: option ? { key: option.key, label: option.label, differsIn: option.differsIn } : null,
    options: {
      languages: index.languages,
      scenarios: index.scenarios[selection.language],
      metrics: VERSION_METRICS.map((value) => ({ value, label: METRICS[value].label, unit: METRICS[value].unit })),
      concurrencies: option?.concurrencies ?? [],
    },
    chart: buildVersionsModel(cells, selection, scenarioJobs?.spec),
  };
}

/** The page's view, loaded once per request (metadata and page share it). */
export const versionsViewFor = cache((search: string) => {
  const { value, issues } = parseVersionsQuery(new URLSearchParams(search));
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
