// Release watches as the API, the pages, the feeds and the badge read them.
import { getWatch as readWatch, latestGateCalibration, listDeliveries, listWatches as readWatches, listWatchVerdicts, WATCH_RELEASES_PAGE, type WatchVerdict } from '@scb/db';
import { clientName } from '@scb/shared/job';
import { atomFeed, badgeSvg, chipState, releaseState, watchGateSpec, watchScenarioId, type ChipState } from '@scb/shared/watch';
import type { CalibratedGate, GateCalibration } from '@scb/shared/calibration';
import { db } from './db';
import { gateUrl } from './gates';

export function watchUrl(id: string, origin: string): string {
  return new URL(`/watch/${id}`, origin).toString();
}

/**
 * A watch and one page of its releases (`size` a page, WATCH_RELEASES_PAGE by default), newest first,
 * each with one gate per scenario; null when there is none.
 */
export async function getWatch(id: string, origin: string, { page = 1, size = WATCH_RELEASES_PAGE }: { page?: number; size?: number } = {}) {
  const w = await readWatch(db(), id, { limit: size, offset: (page - 1) * size });
  if (!w) return null;
  // Each scenario's calibration for the watch's language (its newest, of any release): how far its verdicts can be trusted.
  const calibrations = await Promise.all(
    w.spec.scenarios.map(async (scenario) => {
      const id = watchScenarioId(scenario);
      const calibration = await latestGateCalibration(db(), { scenario: id, language: w.spec.language });
      // The gate the watch runs for this scenario, at the calibrated release, to say where it differs from the calibrated one.
      const version = calibration?.version ?? '0.0.0';
      let gate: CalibratedGate;
      try {
        gate = watchGateSpec(w.spec, scenario, { version, predecessor: version });
      } catch {
        // A stored watch whose scenario no longer makes a gate: nothing to compare, the calibration as it is.
        gate = { scenario: id, language: w.spec.language, baseline: version, repeats: calibration?.repeats ?? 0, criteria: calibration?.criteria ?? {} };
      }
      return { scenario: id, calibration, gate };
    }),
  );
  return {
    calibrations: calibrations as { scenario: string; calibration: GateCalibration | null; gate: CalibratedGate }[],
    id: w.id,
    url: watchUrl(w.id, origin),
    feedUrl: new URL(`/watch/${w.id}/feed.xml`, origin).toString(),
    badgeUrl: new URL(`/api/watches/${w.id}/badge.svg`, origin).toString(),
    createdAt: w.createdAt.toISOString(),
    createdBy: w.createdBy,
    spec: w.spec,
    client: clientName(w.spec.language),
    scenarios: w.spec.scenarios.map(watchScenarioId),
    startAfter: w.startAfter,
    polledAt: w.polledAt?.toISOString() ?? null,
    pollError: w.pollError,
    stoppedAt: w.stoppedAt?.toISOString() ?? null,
    stoppedBy: w.stoppedBy,
    /** Every release it gated; `releases` holds page `page` of them, `pageSize` a page. */
    releaseCount: w.releaseCount,
    page,
    pageSize: size,
    releases: w.releases.map((r) => ({
      version: r.version,
      predecessor: r.predecessor,
      publishedAt: r.publishedAt,
      unlisted: r.unlisted,
      state: releaseState(r.gates),
      runSeconds: Math.round(r.runSeconds),
      gates: r.gates.map((g) => ({
        scenario: g.scenario,
        scenarioIndex: g.scenarioIndex,
        gateId: g.gateId,
        status: g.status,
        verdict: g.verdict,
        state: chipState(g),
        reason: g.installFailure ?? g.reason,
        persisting: g.persisting,
        finishedAt: g.finishedAt?.toISOString() ?? null,
        url: gateUrl(g.gateId, origin),
      })),
    })),
  };
}

export type WatchView = NonNullable<Awaited<ReturnType<typeof getWatch>>>;

export async function listWatches(origin: string) {
  return (await readWatches(db())).map((w) => ({
    id: w.id,
    url: watchUrl(w.id, origin),
    createdAt: w.createdAt.toISOString(),
    createdBy: w.createdBy,
    spec: w.spec,
    gates: w.gates,
    stoppedAt: w.stoppedAt?.toISOString() ?? null,
  }));
}

/** Releases the /watch page shows of each watch: the newest. */
export const LIST_RELEASES = 10;

/** Every watch (the newest 100) with its LIST_RELEASES newest releases, newest watch first, for the /watch page. */
export async function listWatchViews(origin: string): Promise<WatchView[]> {
  const views = await Promise.all((await readWatches(db())).map((w) => getWatch(w.id, origin, { size: LIST_RELEASES })));
  return views.filter((v): v is WatchView => v !== null);
}

/** A watch's webhook deliveries, newest first. */
export async function watchDeliveries(id: string) {
  return (await listDeliveries(db(), id)).map((d) => ({
    webhook: d.webhook,
    gateId: d.gateId,
    version: d.gate.watchVersion,
    verdict: d.gate.verdict,
    status: d.status,
    attempts: d.attempts,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    lastError: d.lastError,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  }));
}

/** A feed entry: a pass that keeps its predecessor's bad mode is "persisting", not a new failure (nor a clean pass). */
const entryOf = (v: WatchVerdict, origin: string) => ({
  id: gateUrl(v.gateId, origin),
  title: `${clientName(v.language)} ${v.version} vs ${v.predecessor} on ${v.scenario}: ${chipState({ status: 'succeeded', verdict: v.verdict, installFailure: null, persisting: v.persisting })}`,
  updated: v.finishedAt,
  link: gateUrl(v.gateId, origin),
  category: chipState({ status: 'succeeded', verdict: v.verdict, installFailure: null, persisting: v.persisting }),
  summary: v.reasons.join('\n') || v.verdict,
});

/** The Atom feed of one watch's verdicts (null when there is no such watch), or of every watch's. */
export async function watchFeed(origin: string, id?: string): Promise<string | null> {
  if (id === undefined) {
    const verdicts = await listWatchVerdicts(db());
    const self = new URL('/watch/feed.xml', origin).toString();
    return atomFeed({
      self,
      alternate: new URL('/watch', origin).toString(),
      title: 'spanner-client-bench: release watch verdicts',
      updated: new Date(0),
      entries: verdicts.map((v) => entryOf(v, origin)),
    });
  }
  // The feed needs none of its releases: its entries are the newest verdicts.
  const w = await readWatch(db(), id, { limit: 0 });
  if (!w) return null;
  const verdicts = await listWatchVerdicts(db(), { watchId: w.id });
  return atomFeed({
    self: new URL(`/watch/${w.id}/feed.xml`, origin).toString(),
    alternate: watchUrl(w.id, origin),
    title: `spanner-client-bench: ${w.spec.name ?? `${clientName(w.spec.language)} releases`} (${w.spec.scenarios.map(watchScenarioId).join(', ')})`,
    updated: w.createdAt,
    entries: verdicts.map((v) => entryOf(v, origin)),
  });
}

/** The badge of a watch's newest release that has a gate: "google-cloud-spanner 6.116.0 | pass"; null when there is no such watch. */
export async function watchBadge(id: string): Promise<string | null> {
  const w = await readWatch(db(), id, { limit: 1 });
  if (!w) return null;
  const newest = w.releases[0];
  const label = clientName(w.spec.language);
  if (!newest) return badgeSvg(label, 'none');
  const state: ChipState = releaseState(newest.gates);
  return badgeSvg(`${label} ${newest.version}`, state);
}
