import { startFakeSpanner } from '@scb/fake-spanner';
import type { FakeTarget } from '@scb/shared';
import type { TargetPlugin } from './target';

/** The bundled fake, on a free port; it counts every RPC per connection itself. */
export const fake: TargetPlugin<FakeTarget> = {
  async start(target, spec) {
    const server = await startFakeSpanner({ ...target.server, latencyMs: target.latencyMs, timeScale: spec.timeScale });
    return {
      endpoint: { host: server.host, port: server.port, security: 'plaintext' },
      // The fake serves any names: fixed ones keep logs readable.
      database: { projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db' },
      channelStats: () => {
        const s = server.stats();
        return { totalRpcs: s.totalRpcs, connections: s.connections };
      },
      addedLatency: () => server.stats().added,
      stop: () => server.stop(),
    };
  },
};
