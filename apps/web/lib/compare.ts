import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { FieldIssue } from '@scb/shared/job';
import { scenarioKey } from '@scb/shared/scenario-key';
import { buildComparison, compareHref, compareJobIds, compareQuery, findMissingCompared, parseCompareQuery, type CompareSelection, type Comparison } from '@scb/shared/compare';
import { listSucceededJobs } from '@scb/db';
import { db } from './db';
import { getJob, isInvalidJob, listJobs, type JobListItem, type JobView } from './jobs';

/** A page's search parameters, as Next.js passes them. */
export type SearchParams = Record<string, string | string[] | undefined>;
type Query = URLSearchParams | SearchParams;

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

/** The parameters the compare page reads. */
const PARAMS = ['jobs', 'cells', 'mismatch'] as const;

/** The parameters the page reads, as a stable key (so metadata and page share one load per request). */
function paramsKey(sp: SearchParams): string {
  return JSON.stringify(PARAMS.map((k) => [k, sp[k] ?? null]));
}

const loadByKey = cache(async (key: string): Promise<CompareLoad> => {
  const q: SearchParams = {};
  for (const [k, v] of JSON.parse(key) as [string, string | string[] | null][]) if (v !== null) q[k] = v;
  return loadComparison(q);
});

/** The compare page's load for its search parameters, once per request (metadata and page share it). */
export function compareLoadFor(sp: SearchParams): Promise<CompareLoad> {
  return loadByKey(paramsKey(sp));
}

/** The selection a load read, or null when the query had none or did not parse. */
export function selectionOf(l: CompareLoad): CompareSelection | null {
  return l.kind === 'ok' || l.kind === 'not-found' || l.kind === 'unreadable' ? l.selection : null;
}

/** Is the query already the canonical, shareable one (jobs=a,b; no spaces, links or repeats)? */
function isCanonical(sp: SearchParams, selection: CompareSelection): boolean {
  const want = new URLSearchParams(compareQuery(selection));
  return PARAMS.every((k) => (sp[k] ?? null) === want.get(k) || (sp[k] === undefined && !want.has(k)));
}

/**
 * The compare page's load: redirects to the canonical URL of a selection given any other way
 * (spaces, job links, repeats), so every comparison has one permanent link; otherwise the load.
 */
export async function loadComparePage(sp: SearchParams): Promise<CompareLoad> {
  const l = await compareLoadFor(sp);
  const selection = selectionOf(l);
  if (selection && !isCanonical(sp, selection)) redirect(compareHref(selection));
  return l;
}

/** What the empty compare page suggests: recent jobs with a result, and a pair that compares cleanly. */
export async function compareSuggestions(): Promise<{ jobs: JobListItem[]; pair: [string, string] | null }> {
  const [jobs, pair] = await Promise.all([listJobs(12).then((js) => js.filter((j) => j.cellsDone > 0 && !j.invalid)), recentComparablePair()]);
  return { jobs, pair };
}
