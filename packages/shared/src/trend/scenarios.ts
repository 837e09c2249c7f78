// Which (language, scenario, concurrency) combinations of stored jobs have succeeded cells: the
// choices of the trend chart.
import { scenarioDifferences, scenarioLabel } from '../job/scenario';
import { languageNames } from '../job/languages';
import { workloadMix, type JobSpec, type Language, type Operation } from '../job/spec';

/** What the web app knows about one job before loading its cells: its spec and its succeeded cells per language and concurrency. */
export interface JobCellCounts {
  jobId: string;
  spec: JobSpec;
  /** Succeeded cells with a result, by client language and concurrency. */
  counts: { language: string; concurrency: number; cells: number }[];
  /** scenarioKey(spec), from @scb/shared/scenario-key (it needs Node; a spec never changes, so callers cache it). */
  scenarioKey: string;
  /** scenarioLabel(spec) when the caller already has it. */
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
  /** The operation kinds of the scenario's workload (the key includes the workload, so one list). */
  operations: Operation[];
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
  for (const job of jobs) {
    const key = job.scenarioKey;
    const entry = jobsByScenario.get(key) ?? { jobIds: [], spec: job.spec };
    entry.jobIds.push(job.jobId);
    jobsByScenario.set(key, entry);
    for (const c of job.counts) {
      if (!languageNames().includes(c.language) || c.cells <= 0) continue;
      const language = c.language;
      const byKey = acc.get(language) ?? new Map();
      acc.set(language, byKey);
      const s = byKey.get(key) ?? { label: job.scenarioLabel ?? scenarioLabel(job.spec), cells: 0, jobs: new Set<string>(), conc: new Map<number, number>() };
      byKey.set(key, s);
      s.cells += c.cells;
      s.jobs.add(job.jobId);
      s.conc.set(c.concurrency, (s.conc.get(c.concurrency) ?? 0) + c.cells);
    }
  }
  const summaries: ScenarioSummary[] = [...acc].flatMap(([language, byKey]) =>
    [...byKey].map(([key, s]) => ({ language, key, label: s.label, jobs: s.jobs.size, concurrencies: [...s.conc].map(([value, cells]) => ({ value, cells })) })),
  );
  return finishIndex(summaries, jobsByScenario);
}

/** One language's succeeded cells of one scenario, as the stored summary (TrendScenario) keeps them. */
export interface ScenarioSummary {
  language: string;
  key: string;
  label: string;
  /** Jobs with a succeeded cell of this language in the scenario. */
  jobs: number;
  /** Succeeded cells per concurrency. */
  concurrencies: { value: number; cells: number }[];
}

/** The index from stored summaries and one spec per scenario key (jobIds are not listed: empty). */
export function scenarioIndexFromSummaries(summaries: ScenarioSummary[], specs: Map<string, JobSpec>): ScenarioIndex {
  const jobsByScenario = new Map<string, { jobIds: string[]; spec: JobSpec }>();
  for (const [key, spec] of specs) jobsByScenario.set(key, { jobIds: [], spec });
  return finishIndex(
    summaries.filter((s) => specs.has(s.key) && languageNames().includes(s.language)),
    jobsByScenario,
  );
}

function finishIndex(summaries: ScenarioSummary[], jobsByScenario: Map<string, { jobIds: string[]; spec: JobSpec }>): ScenarioIndex {
  const perLanguage = new Map<string, number>();
  const scenarios = Object.fromEntries(languageNames().map((l) => [l, [] as ScenarioOption[]])) as Record<Language, ScenarioOption[]>;
  const byLanguage = new Map<Language, ScenarioOption[]>();
  for (const s of summaries) {
    const concurrencies = s.concurrencies.filter((c) => c.cells > 0).sort((a, b) => a.value - b.value);
    const cells = concurrencies.reduce((sum, c) => sum + c.cells, 0);
    if (cells <= 0) continue;
    perLanguage.set(s.language, (perLanguage.get(s.language) ?? 0) + cells);
    const list = byLanguage.get(s.language) ?? [];
    byLanguage.set(s.language, list);
    list.push({
      key: s.key,
      label: s.label,
      cells,
      jobs: s.jobs,
      concurrencies,
      operations: workloadMix(jobsByScenario.get(s.key)!.spec.workload).map((m) => m.operation),
    });
  }
  for (const [language, list] of byLanguage) {
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
    languages: languageNames().map((value) => ({ value, cells: perLanguage.get(value) ?? 0 })),
    scenarios,
    jobsByScenario,
  };
}

/** The scenario as the select shows it. */
export function scenarioOptionText(s: ScenarioOption): string {
  const differs = s.differsIn?.length ? ` [differs in ${s.differsIn.join(', ')}]` : '';
  return `${s.label}${differs} · ${s.cells} cell${s.cells === 1 ? '' : 's'}, ${s.jobs} job${s.jobs === 1 ? '' : 's'}`;
}
