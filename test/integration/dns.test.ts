// The cell's DNS server of the slow-DNS scenario: Node's own resolver (c-ares, as grpc-js uses for a
// dns://server/name target) gets 127.0.0.1 for its one name after the delay, NXDOMAIN for another, and
// every lookup is recorded; Go, Node and Python clients reach the fake by that name through it.
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { test } from 'node:test';
import { prepareDriver } from '@scb/languages';
import { parseJobSpec, planCells } from '@scb/shared';
import { runCell } from '../../apps/runner/src/cell';
import { CACHE_DIR } from '../../apps/runner/src/paths';
import { startDnsServer } from '../../packages/targets/src/fake/dns';

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

// spanner.bench.test resolves nowhere but through the cell's DNS server (.test is reserved): a cell whose
// every operation succeeds reached the fake by that name through it.
for (const client of [
  { language: 'go', version: '1.96.1' },
  { language: 'node', version: '9.0.0' },
  // grpcio's c-ares resolver asks the server a dns:// target names.
  { language: 'python', version: '3.71.0' },
]) {
  test(`${client.language} ${client.version} reaches the fake by a name resolved through the cell's DNS server`, { timeout: 600_000 }, async () => {
    const spec = parseJobSpec({
      clients: [client],
      configurations: [{ label: 'client default' }],
      concurrency: [4],
      target: { kind: 'fake', latencyMs: 5, dns: { lookupDelayMs: 200 } },
      workload: { operation: 'select1', warmupOps: 20, measuredOps: 200 },
    });
    assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
    const plan = planCells(spec.value)[0]!;
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const out = await runCell(spec.value, plan, launch);
    assert.equal(out.result.count, 200);
    assert.deepEqual(out.result.errors, {});
  });
}
