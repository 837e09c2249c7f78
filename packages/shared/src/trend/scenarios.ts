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
  const perLanguage = new Map<Language, number>();
  for (const job of jobs) {
    const key = job.scenarioKey;
    const entry = jobsByScenario.get(key) ?? { jobIds: [], spec: job.spec };
    entry.jobIds.push(job.jobId);
    jobsByScenario.set(key, entry);
    for (const c of job.counts) {
      if (!languageNames().includes(c.language) || c.cells <= 0) continue;
      const language = c.language;
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
  const scenarios = Object.fromEntries(languageNames().map((l) => [l, [] as ScenarioOption[]])) as Record<Language, ScenarioOption[]>;
  for (const [language, byKey] of acc) {
    const list: ScenarioOption[] = [...byKey].map(([key, s]) => ({
      key,
      label: s.label,
      cells: s.cells,
      jobs: s.jobs.size,
      concurrencies: [...s.conc].sort((a, b) => a[0] - b[0]).map(([value, cells]) => ({ value, cells })),
      operations: workloadMix(jobsByScenario.get(key)!.spec.workload).map((m) => m.operation),
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
