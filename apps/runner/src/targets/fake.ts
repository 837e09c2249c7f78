import { startFakeSpannerThread } from '@scb/fake-spanner';
import type { FakeTarget } from '@scb/shared';
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
        return { channels: { source: 'fake', totalRpcs: s.totalRpcs, connections: s.connections }, added: s.added, load: s.loop, cpuShare: null, serverByOperation: s.operations };
      },
      markMeasuring: () => server.mark(),
      stop: () => server.stop(),
    };
  },
};
