// Registry look-ups (a language's published versions, their publish dates), remembered and shared:
// each language's registry is asked by one look-up at a time (callers meanwhile wait for its answer),
// an answer is reused for REGISTRY_ANSWER_TTL_MS and a failure for REGISTRY_FAILURE_TTL_MS. So requests
// to the web app (GET /api/versions, anonymous where reads are public) cost at most one `npm view` (or
// one round of HTTP requests to Maven or the Go proxy) per language per TTL, the registry up or down.
import { performance } from 'node:perf_hooks';
import type { Language } from '@scb/shared/job';

/** How long a registry's answer (a version list, a publish date) is reused. */
export const REGISTRY_ANSWER_TTL_MS = 5 * 60_000;
/** How long a registry's failure is reused (the registry is asked again after it), and an undated version stays undated. */
export const REGISTRY_FAILURE_TTL_MS = 30_000;

type Kind = 'versions' | 'dates';

interface LanguageLookups {
  /** The end of the language's queue: one look-up at a time. */
  tail: Promise<unknown>;
  versions?: { at: number; versions: string[] };
  /** Each version's publish date as the registry gave it; null: the registry did not date it. */
  dates: Map<string, { at: number; date: string | null }>;
  failed: Map<Kind, { at: number; error: unknown }>;
}

// On globalThis for the reason the plug-ins are (index.ts): the web app bundles copies of this package
// per route, and /api/versions and /api/watches must share one memory.
const KEY = Symbol.for('spanner-client-bench.registry-lookups');
const STATE: Map<string, LanguageLookups> = ((globalThis as Record<symbol, unknown>)[KEY] as Map<string, LanguageLookups> | undefined) ?? new Map();
(globalThis as Record<symbol, unknown>)[KEY] = STATE;

const now = () => performance.now();
const within = (at: number, ttl: number) => now() - at < ttl;

function stateOf(language: Language): LanguageLookups {
  let s = STATE.get(language);
  if (!s) STATE.set(language, (s = { tail: Promise.resolve(), dates: new Map(), failed: new Map() }));
  return s;
}

/** Runs `ask` after the language's earlier look-ups have settled. */
function inTurn<T>(s: LanguageLookups, ask: () => Promise<T>): Promise<T> {
  const turn = s.tail.then(ask, ask);
  s.tail = turn.catch(() => {});
  return turn;
}

/** The failure of this kind, if the registry failed within REGISTRY_FAILURE_TTL_MS. */
function recentFailure(s: LanguageLookups, kind: Kind): { error: unknown } | undefined {
  const f = s.failed.get(kind);
  return f && within(f.at, REGISTRY_FAILURE_TTL_MS) ? f : undefined;
}

/**
 * What `remembered` gives (an answer or a failure within its TTL), else `ask` in the language's turn,
 * unless a look-up that ran meanwhile brought what `remembered` gives now; its failure is remembered.
 */
function rememberedOrAsked<T>(s: LanguageLookups, kind: Kind, remembered: () => Promise<T> | undefined, ask: () => Promise<T>): Promise<T> {
  return remembered() ?? inTurn(s, () => remembered() ?? remembering(s, kind, ask));
}

async function remembering<T>(s: LanguageLookups, kind: Kind, ask: () => Promise<T>): Promise<T> {
  try {
    const answer = await ask();
    s.failed.delete(kind);
    return answer;
  } catch (e) {
    s.failed.set(kind, { at: now(), error: e });
    throw e;
  }
}

/**
 * The language's version list: the remembered one, else the one a look-up in flight brings, else asked
 * (`list`). `fresh` (the runner, before it installs or polls watches): asked again whatever is
 * remembered, still in the language's turn.
 */
export function lookUpVersions(language: Language, list: () => Promise<string[]>, { fresh = false } = {}): Promise<string[]> {
  const s = stateOf(language);
  const remembered = (): Promise<string[]> | undefined => {
    if (fresh) return undefined;
    if (s.versions && within(s.versions.at, REGISTRY_ANSWER_TTL_MS)) return Promise.resolve(s.versions.versions);
    const failed = recentFailure(s, 'versions');
    return failed ? Promise.reject(failed.error) : undefined;
  };
  return rememberedOrAsked(s, 'versions', remembered, async () => {
    const versions = await list();
    s.versions = { at: now(), versions };
    return versions;
  });
}

/** Publish dates of `versions`: those remembered, the others asked (`ask`, in the language's turn) and remembered. */
export function lookUpDates(language: Language, versions: readonly string[], ask: (versions: readonly string[]) => Promise<Record<string, string>>): Promise<Record<string, string>> {
  const s = stateOf(language);
  const known = (v: string) => {
    const d = s.dates.get(v);
    return d !== undefined && within(d.at, d.date === null ? REGISTRY_FAILURE_TTL_MS : REGISTRY_ANSWER_TTL_MS);
  };
  const answer = () => Object.fromEntries(versions.flatMap((v) => (s.dates.get(v)?.date ? [[v, s.dates.get(v)!.date!]] : [])));
  const remembered = (): Promise<Record<string, string>> | undefined => {
    if (versions.every(known)) return Promise.resolve(answer());
    const failed = recentFailure(s, 'dates');
    return failed ? Promise.reject(failed.error) : undefined;
  };
  return rememberedOrAsked(s, 'dates', remembered, async () => {
    const missing = [...new Set(versions.filter((v) => !known(v)))];
    const got = await ask(missing);
    const at = now();
    for (const [v, d] of s.dates) if (!within(d.at, REGISTRY_ANSWER_TTL_MS)) s.dates.delete(v);
    for (const v of missing) s.dates.set(v, { at, date: got[v] ?? null });
    return answer();
  });
}
