// The connection tap against the fake, which counts per connection itself: for the same cell the tap's
// per-connection RPCs and peaks in flight must equal the fake's, for both clients, grpc-gcp on and off.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import { prepareDriver } from '@scb/languages';
import type { Language } from '@scb/shared';
import { runDriver } from '../apps/runner/src/cell';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { startTap } from '../apps/runner/src/targets/tap';
import { defaultCellOn } from './helpers/cells';

const VERSIONS: Partial<Record<Language, string>> = { node: '9.0.0', java: '6.123.0' };

for (const [language, version] of Object.entries(VERSIONS) as [Language, string][]) {
  for (const grpcGcp of ['on', 'off'] as const) {
    test(`${language} ${version}, grpc-gcp ${grpcGcp}: the tap counts what the fake counts, connection by connection`, { timeout: 600_000 }, async () => {
      const client = { language, version };
      const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
      const fake = await startFakeSpanner({ latencyMs: 5 });
      const tap = await startTap({ host: fake.host, port: fake.port });
      try {
        const cell = { ...defaultCellOn(tap, client, { warmupOps: 100, measuredOps: 600 }, 50), configuration: { label: grpcGcp, grpcGcp } };
        const result = await runDriver(cell, launch);
        assert.equal(result.count, 600);
        const seen = tap.stats();
        const served = fake.stats();
        assert.equal(seen.totalRpcs, served.totalRpcs, `tap ${seen.totalRpcs} vs fake ${served.totalRpcs}`);
        // Both list connections in the order they were opened; the fake also lists connections that carried nothing.
        const used = (cs: { rpcs: number; peakInFlight: number }[]) => cs.filter((c) => c.rpcs > 0);
        const [t, f] = [used(seen.connections), used(served.connections)];
        assert.deepEqual(
          t.map((c) => c.rpcs),
          f.map((c) => c.rpcs),
          'RPCs per connection',
        );
        // The tap holds a stream open from the client's HEADERS until the server's END_STREAM passes it,
        // the fake from its handler's start to its end: the tap's peak is the fake's or a little above.
        t.forEach((c, i) => {
          const fp = f[i]!.peakInFlight;
          assert.ok(c.peakInFlight >= fp && c.peakInFlight <= Math.ceil(fp * 1.5) + 2, `connection ${i}: tap peak ${c.peakInFlight}, fake peak ${fp}`);
        });
        assert.ok(
          seen.connections.some((c) => c.peakInFlight > 1),
          'concurrent streams were seen',
        );
      } finally {
        await tap.stop();
        await fake.stop();
      }
    });
  }
}
