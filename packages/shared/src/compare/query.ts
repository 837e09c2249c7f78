// The selection from URL parameters (jobs=a,b or cells=a:0,b:3), its canonical link, and what of it
// does not exist.
import type { FieldIssue, ParseResult } from '../job/spec';
import { MAX_COMPARE_CELLS, MAX_COMPARE_JOBS, type CompareCellRef, type CompareJobInput, type CompareSelection } from './types';

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
  if (!m) return token;
  // A malformed escape (`%25` decoded once is `%`) is simply not an id: the caller names it.
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
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
