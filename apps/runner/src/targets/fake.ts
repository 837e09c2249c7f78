import { startFakeSpannerThread } from '@scb/fake-spanner';
import type { CellEvent, FakeTarget } from '@scb/shared';
import type { TargetPlugin } from './target';

/** The bundled fake, on a free port and a worker thread of its own; it counts every RPC per connection itself. */
export const fake: TargetPlugin<FakeTarget> = {
  async start(target, spec) {
    const server = await startFakeSpannerThread({ ...target.server, latencyMs: target.latencyMs, timeScale: spec.timeScale });
    return {
      endpoint: { host: server.host, port: server.port, security: 'plaintext' },
      // The fake serves any names: fixed ones keep logs readable.
      database: { projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db' },
      async stats() {
        const s = await server.stats();
        return {
          channels: { source: 'fake', totalRpcs: s.totalRpcs, connections: s.connections },
          added: s.added,
          load: s.loop,
          cpuShare: null,
          serverByOperation: s.operations,
          events: s.measureStartMs === null ? [] : fakeEvents(s, s.measureStartMs),
        };
      },
      markMeasuring: () => server.mark(),
      stop: () => server.stop(),
    };
  },
};

/** Everything the fake saw happen after the measured phase began, in time order. */
function fakeEvents(s: Awaited<ReturnType<Awaited<ReturnType<typeof startFakeSpannerThread>>['stats']>>, measureStartMs: number): CellEvent[] {
  const schedule: CellEvent[] = s.schedule.filter((c) => c.atMs >= measureStartMs).map((c) => ({ atMs: c.atMs - measureStartMs, kind: 'schedule-change', text: c.text }));
  const faults: CellEvent[] = s.faultsBySecond.map((f) => ({ atMs: f.second * 1000, kind: 'faults-injected', rpc: f.rpc, code: f.code, count: f.count }));
  return [...connectionEvents(s.connections, measureStartMs), ...schedule, ...faults].sort((a, b) => a.atMs - b.atMs);
}

/** Connections opened or closed after the measured phase began, in the order they happened. */
export function connectionEvents(connections: { connection: number; openedMs: number | null; closedMs: number | null }[], measureStartMs: number): CellEvent[] {
  const events: CellEvent[] = [];
  for (const c of connections) {
    if (c.openedMs !== null && c.openedMs >= measureStartMs) events.push({ atMs: c.openedMs - measureStartMs, kind: 'connection-opened', connection: c.connection });
    if (c.closedMs !== null && c.closedMs >= measureStartMs) events.push({ atMs: c.closedMs - measureStartMs, kind: 'connection-closed', connection: c.connection });
  }
  return events.sort((a, b) => a.atMs - b.atMs);
}
