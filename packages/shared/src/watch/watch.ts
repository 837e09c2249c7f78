// A release watch (issue "Release watch"): a language's releases, each gated against its predecessor on
// the scenarios a team cares about. This module is the watch's spec and the pure release logic: which
// versions a watch gates, against which predecessor, and the gate spec of each. Polling, storage and
// pages build on it.
import { z } from 'zod';
import { CriteriaSchema, GATE_SCENARIO_IDS, gateRunsScan, GateSpecSchema, MIN_GATE_REPEATS, SCAN_CRITERIA, type GateSpec } from '../gate/gate';
import { gateReproduction } from '../gate/reproduction-gate';
import { compareSemver } from '../job/semver';
import { LanguageSchema, parseSpecWith, SEMVER, toFieldIssues, type ParseResult } from '../job/spec';
import { WEBHOOK_NAME } from '../policy/policy';

const version = z.string().regex(SEMVER, 'must be a plain semver such as 6.105.0');

/**
 * A scenario to judge each release on: a gate scenario's id, or a gate spec of the watch's own without
 * its language and versions (those are the watch's and the release's), e.g. a smaller affinity burst.
 */
const WatchScenarioSchema = z.union([z.enum(GATE_SCENARIO_IDS), z.record(z.string(), z.unknown())], {
  error: () => `must be one of ${GATE_SCENARIO_IDS.join(', ')}, or a gate spec (an object)`,
});

export const WatchSpecSchema = z
  .strictObject({
    name: z.string().trim().max(120).optional(),
    language: LanguageSchema,
    scenarios: z.array(WatchScenarioSchema).min(1, 'list at least one scenario').max(10),
    /** This release and every later one is gated against its predecessor (a backfill); without it, releases from now on. */
    since: version.optional(),
    /** No release after this one is gated (bounds a backfill). */
    until: version.optional(),
    /** Whether pre-releases (6.106.0-rc1) are gated too; they are never a predecessor. */
    prereleases: z.boolean().default(false),
    /** Per arm, for every scenario that does not set its own. */
    repeats: z.number().int().min(MIN_GATE_REPEATS, `must be at least ${MIN_GATE_REPEATS}: fewer repeats can never decide`).max(50).optional(),
    criteria: CriteriaSchema.optional(),
    /** Webhooks each finished verdict is POSTed to, by the names the operator gave them (SCB_WEBHOOKS). */
    webhooks: z
      .array(z.string().regex(WEBHOOK_NAME, "must be the name of one of the operator's webhooks (SCB_WEBHOOKS), not a URL"))
      .max(5)
      .refine((w) => new Set(w).size === w.length, 'names a webhook twice')
      .default([]),
  })
  .superRefine((w, ctx) => {
    if (w.since && w.until && SEMVER.test(w.since) && SEMVER.test(w.until) && compareSemver(w.since, w.until) > 0)
      ctx.addIssue({ code: 'custom', path: ['until'], message: `must not be before since (${w.since})` });
    // Its scenarios run different load levels: a level's own limits are a scenario's to set.
    if (w.criteria?.levels) ctx.addIssue({ code: 'custom', path: ['criteria', 'levels'], message: "sets limits of load levels, which differ by scenario: give them in a scenario's own criteria" });
    // A scenario of the watch's own is checked as the gate it becomes, on a placeholder pair of versions.
    w.scenarios.forEach((s, i) => {
      if (typeof s === 'string') {
        // An object scenario is checked below, as its gate.
        const repro = gateReproduction(s);
        if (repro && repro.language !== w.language) ctx.addIssue({ code: 'custom', path: ['scenarios', i], message: `reproduction ${repro.id} runs ${repro.language}, not ${w.language}` });
        return;
      }
      for (const field of ['language', 'baseline', 'candidate', 'name'])
        if (field in s) ctx.addIssue({ code: 'custom', path: ['scenarios', i, field], message: "is the watch's to set, not a scenario's" });
      const r = GateSpecSchema.safeParse({ ...s, language: w.language, baseline: '0.0.0', candidate: '0.0.1' });
      if (!r.success) for (const issue of toFieldIssues(r.error)) ctx.addIssue({ code: 'custom', path: ['scenarios', i, ...issue.path.split('.')], message: issue.message });
    });
  });

export type WatchSpec = z.output<typeof WatchSpecSchema>;

export function parseWatchSpec(input: unknown): ParseResult<WatchSpec> {
  return parseSpecWith(WatchSpecSchema, input);
}

/** A release a watch gates, and the release it is judged against. */
export interface ReleasePair {
  version: string;
  predecessor: string;
}

const isPrerelease = (v: string) => v.includes('-');

/**
 * The releases a watch gates among those a registry lists, oldest first, each with its predecessor: the
 * newest stable release below it in semver order (so a patch on an older line, 6.80.1 published after
 * 6.81.0, is judged against 6.80.0, and 6.81.0 against the newest 6.80.x). Listings carry no reliable
 * publish order (Maven's has none), hence semver order. A release with no stable one below it has no
 * predecessor and is not gated; versions that are not plain semver are ignored.
 */
export function releasePairs(listed: readonly string[], o: Pick<WatchSpec, 'since' | 'until' | 'prereleases'>): ReleasePair[] {
  const versions = [...new Set(listed.filter((v) => SEMVER.test(v)))].sort(compareSemver);
  const stable = versions.filter((v) => !isPrerelease(v));
  const pairs: ReleasePair[] = [];
  for (const v of versions) {
    if (isPrerelease(v) && !o.prereleases) continue;
    if (o.since && compareSemver(v, o.since) < 0) continue;
    if (o.until && compareSemver(v, o.until) > 0) continue;
    const predecessor = stable.filter((s) => compareSemver(s, v) < 0).at(-1);
    if (predecessor) pairs.push({ version: v, predecessor });
  }
  return pairs;
}

/**
 * What a poll of a watch without `since` gates: the releases listed now that were not listed when it was
 * made (`seen`), with their predecessors; a patch on an older line too.
 */
export function newReleasePairs(listed: readonly string[], seen: ReadonlySet<string>, o: Pick<WatchSpec, 'since' | 'until' | 'prereleases'>): ReleasePair[] {
  return releasePairs(listed, o).filter((p) => !seen.has(p.version));
}

/** The gate spec of one scenario of a watch for one release: the scenario's own settings, the watch's repeats and criteria. */
export function watchGateSpec(watch: WatchSpec, scenario: WatchSpec['scenarios'][number], pair: ReleasePair): GateSpec {
  const own = typeof scenario === 'string' ? { scenario } : scenario;
  // A reproduction is judged by its expectations on its own repeats: the watch's repeats and criteria are the comparisons'.
  const comparison = !gateReproduction(String(own.scenario));
  // The watch's scan criteria apply to its scenarios that run a scan.
  const scans = gateRunsScan({ scenario: String(own.scenario), workload: own.workload });
  const criteria = watch.criteria && (scans ? watch.criteria : Object.fromEntries(Object.entries(watch.criteria).filter(([k]) => !(SCAN_CRITERIA as readonly string[]).includes(k))));
  return GateSpecSchema.parse({
    ...(comparison && watch.repeats !== undefined && { repeats: watch.repeats }),
    ...(comparison && criteria && { criteria }),
    ...own,
    name: `watch${watch.name ? ` ${watch.name}` : ''}: ${watch.language} ${pair.version} vs ${pair.predecessor} (${String(own.scenario)})`.slice(0, 120),
    language: watch.language,
    baseline: pair.predecessor,
    candidate: pair.version,
  });
}

/** The scenario id of a watch's scenario entry, for its chips and feed. */
export function watchScenarioId(scenario: WatchSpec['scenarios'][number]): string {
  return typeof scenario === 'string' ? scenario : String(scenario.scenario);
}
