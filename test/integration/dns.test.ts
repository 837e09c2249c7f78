// The cell's DNS server (a step of the slow-DNS scenario): Node's own resolver (c-ares, as grpc-js uses
// for a dns://server/name target) gets 127.0.0.1 for its one name after the delay, NXDOMAIN for another,
// and every lookup is recorded.
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { test } from 'node:test';
import { startDnsServer } from '../../apps/runner/src/targets/fake/dns';

test('the DNS server answers its one name after its delay, refuses others, and records each lookup', async () => {
  const dns = await startDnsServer({ name: 'spanner.bench.test', delayMs: 300, ttlSeconds: 0 });
  try {
    const resolver = new Resolver({ timeout: 5000, tries: 1 });
    resolver.setServers([dns.host]);
    const t0 = performance.now();
    assert.deepEqual(await resolver.resolve4('spanner.bench.test'), ['127.0.0.1']);
    const took = performance.now() - t0;
    assert.ok(took >= 290, `answered after ${took.toFixed(0)} ms, not before the 300 ms delay`);
    assert.deepEqual(await resolver.resolve6('Spanner.Bench.Test').catch((e: NodeJS.ErrnoException) => e.code), 'ENODATA', 'no AAAA record');
    assert.equal(await resolver.resolve4('other.bench.test').catch((e: NodeJS.ErrnoException) => e.code), 'ENOTFOUND');
    assert.deepEqual(
      dns.lookups().map((l) => `${l.type} ${l.name}`),
      ['A spanner.bench.test', 'AAAA spanner.bench.test', 'A other.bench.test'],
    );
  } finally {
    await dns.stop();
  }
});
