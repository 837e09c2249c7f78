// Release watches as the API answers them.
import { getWatch as readWatch, listWatches as readWatches } from '@scb/db';
import { watchScenarioId } from '@scb/shared/watch';
import { db } from './db';
import { gateUrl } from './gates';

export function watchUrl(id: string, origin: string): string {
  return new URL(`/watch/${id}`, origin).toString();
}

/** A watch and its releases, newest first, each with one gate per scenario; null when there is none. */
export async function getWatch(id: string, origin: string) {
  const w = await readWatch(db(), id);
  if (!w) return null;
  return {
    id: w.id,
    url: watchUrl(w.id, origin),
    createdAt: w.createdAt.toISOString(),
    createdBy: w.createdBy,
    spec: w.spec,
    scenarios: w.spec.scenarios.map(watchScenarioId),
    startAfter: w.startAfter,
    polledAt: w.polledAt?.toISOString() ?? null,
    pollError: w.pollError,
    releases: w.releases.map((r) => ({
      version: r.version,
      predecessor: r.predecessor,
      // Listings carry no publish date for every registry (Maven's has none): not known yet.
      publishedAt: null,
      gates: r.gates.map((g) => ({ ...g, url: gateUrl(g.gateId, origin) })),
    })),
  };
}

export async function listWatches(origin: string) {
  return (await readWatches(db())).map((w) => ({ id: w.id, url: watchUrl(w.id, origin), createdAt: w.createdAt.toISOString(), createdBy: w.createdBy, spec: w.spec, gates: w.gates }));
}
