// The query parameters of the list pages and their API routes (?page=, ?by=, the filters), read by one
// parser for both: a page answers a malformed one with a message, an API route with a 400 naming it.
import { z } from 'zod';
import { languageNames } from './job/languages';
import type { FieldIssue } from './job/spec';
import { REPRODUCTION_STATUSES } from './reproductions/reproduction';
import { CHIP_STATES } from './watch/chips';

/** The last page a list goes to: 10,000,000 rows at 100 a page, far past any list here. */
export const MAX_PAGE = 100_000;
/** The longest `by`: an identity's name (token:<name>, proxy:<user>, an e-mail) is far shorter. */
export const MAX_BY_LENGTH = 200;

/** A page number, 1 to MAX_PAGE, written as digits (no sign, fraction or exponent). */
const Page = z
  .string()
  .regex(/^\d{1,6}$/, `must be a whole number from 1 to ${MAX_PAGE}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_PAGE, `must be a whole number from 1 to ${MAX_PAGE}`);

/** An identity's name as stored: printable (PostgreSQL refuses a NUL in text; no name has a control character), bounded. */
const By = z
  .string()
  .max(MAX_BY_LENGTH, `must be at most ${MAX_BY_LENGTH} characters`)
  .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters');

/** One of the values, checked when read (languages include plug-ins' ones, registered at start). */
const oneOf = (values: () => readonly string[]) =>
  z.string().superRefine((v, ctx) => {
    if (!values().includes(v)) ctx.addIssue({ code: 'custom', message: `must be one of ${values().join(', ')}` });
  });

/** The parameters each list reads; any other parameter is left alone (Next.js adds its own, such as _rsc). */
export const LIST_QUERIES = {
  /** `/` and GET /api/jobs. */
  jobs: { page: Page, by: By },
  /** `/gates` and GET /api/gates. */
  gates: { page: Page },
  /** `/reproductions` and GET /api/reproductions. */
  reproductions: { language: oneOf(languageNames), status: oneOf(() => REPRODUCTION_STATUSES) },
  /** `/watch`. */
  watches: { language: oneOf(languageNames), verdict: oneOf(() => CHIP_STATES) },
  /** `/watch/<id>` and GET /api/watches/<id>: the page of its releases. */
  watch: { page: Page },
} satisfies Record<string, Record<string, z.ZodType<unknown, string>>>;

type Lists = typeof LIST_QUERIES;
/** A list's parameters as read: each absent (or empty) one undefined, `page` 1 when absent. */
export type ListQuery<L extends keyof Lists> = { [K in keyof Lists[L]]?: z.output<Lists[L][K]> } & (L extends 'jobs' | 'gates' | 'watch' ? { page: number } : unknown);

/** A page's searchParams or a request's URLSearchParams. */
export type QuerySource = URLSearchParams | Record<string, string | string[] | undefined>;

function valuesOf(source: QuerySource, name: string): string[] {
  if (source instanceof URLSearchParams) return source.getAll(name);
  const v = source[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * A list's parameters, or every malformed one named with why (`page`: must be a whole number …). An
 * empty value is no filter (the filter forms send one for "all"); a repeated parameter is refused.
 */
export function parseListQuery<L extends keyof Lists>(list: L, source: QuerySource): { ok: true; value: ListQuery<L> } | { ok: false; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const value: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(LIST_QUERIES[list]) as [string, z.ZodType<unknown, string>][]) {
    const given = valuesOf(source, name);
    if (given.length > 1) {
      issues.push({ path: name, message: 'is given more than once' });
      continue;
    }
    if (given.length === 0 || given[0] === '') continue;
    const r = schema.safeParse(given[0]);
    if (r.success) value[name] = r.data;
    else issues.push({ path: name, message: r.error.issues[0]!.message });
  }
  if (issues.length) return { ok: false, issues };
  if ('page' in LIST_QUERIES[list]) value.page ??= 1;
  return { ok: true, value: value as ListQuery<L> };
}
