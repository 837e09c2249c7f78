import type { FieldIssue } from '@scb/shared/job';
import { scenarioKey } from '@scb/shared/scenario-key';
import { buildComparison, compareJobIds, findMissingCompared, parseCompareQuery, type CompareSelection, type Comparison } from '@scb/shared/compare';
import { listSucceededJobs } from '@scb/db';
import { db } from './db';
import { getJob, isInvalidJob, type JobView } from './jobs';

type Query = URLSearchParams | Record<string, string | string[] | undefined>;

/** What the compare page and GET /api/compare make of a query. */
export type CompareLoad =
  /** Nothing selected yet. */
  | { kind: 'empty' }
  /** The query itself is wrong (issues name the parameter: jobs.1, cells.0, mismatch). */
  | { kind: 'invalid'; issues: FieldIssue[] }
  /** Well-formed, but some jobs or cells do not exist. */
  | { kind: 'not-found'; selection: CompareSelection; issues: FieldIssue[] }
  /** Some selected jobs are stored but do not parse (issues name the parameter and say why). */
  | { kind: 'unreadable'; selection: CompareSelection; issues: FieldIssue[] }
  | { kind: 'ok'; selection: CompareSelection; comparison: Comparison; jobs: Map<string, JobView> };

/** Reads the selection from a query, loads its jobs and builds the comparison. */
export async function loadComparison(query: Query): Promise<CompareLoad> {
  const parsed = parseCompareQuery(query);
  if (!parsed.ok) return { kind: 'invalid', issues: parsed.issues };
  const selection = parsed.value;
  if (!selection) return { kind: 'empty' };
  const ids = compareJobIds(selection);
  const loaded = await Promise.all(ids.map((id) => getJob(id)));
  const jobs = new Map<string, JobView>();
  const unreadable: FieldIssue[] = [];
  loaded.forEach((j, i) => {
    if (!j) return;
    if (isInvalidJob(j)) unreadable.push({ path: selectionPathOf(selection, j.id), message: j.invalid });
    else jobs.set(ids[i]!, j);
  });
  if (unreadable.length) return { kind: 'unreadable', selection, issues: unreadable };
  const missing = findMissingCompared(selection, jobs);
  if (missing.length) return { kind: 'not-found', selection, issues: missing };
  return { kind: 'ok', selection, comparison: buildComparison(selection, jobs), jobs };
}

/** The query parameter that selects a job first: jobs.<i>, or cells.<i> for its first selected cell. */
function selectionPathOf(selection: CompareSelection, jobId: string): string {
  return selection.kind === 'jobs' ? `jobs.${selection.jobs.indexOf(jobId)}` : `cells.${selection.cells.findIndex((c) => c.job === jobId)}`;
}

/**
 * Two recent finished jobs that ran the same scenario, [older, newer], for the empty page's example
 * link (a pair that the comparison will not refuse); null when there is none.
 */
export async function recentComparablePair(limit = 40): Promise<[string, string] | null> {
  const newest = new Map<string, string>();
  for (const j of await listSucceededJobs(db(), limit)) {
    if (!j.ok) continue; // a stored job that does not parse has no scenario to compare
    const key = scenarioKey(j.spec);
    const newer = newest.get(key);
    if (newer) return [j.id, newer];
    newest.set(key, j.id);
  }
  return null;
}
