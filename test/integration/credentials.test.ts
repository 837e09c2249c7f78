// The fake's credentials mode, per client: TLS with a CA made for the cell, and a bearer token on every
// RPC that the client's own credential code fetched from the cell's GCE metadata server (found through
// GCE_METADATA_HOST); and a cell whose metadata server is not there fails saying so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareDriver } from '@scb/languages';
import { parseJobSpec, planCells, type JobSpecInput } from '@scb/shared';
import { runCell } from '../../apps/runner/src/cell';
import { CACHE_DIR } from '../../apps/runner/src/paths';

const CLIENTS = [
  { language: 'node', version: '9.0.0' },
  { language: 'go', version: '1.96.1' },
  { language: 'java', version: '6.123.0' },
  // Its auth library (1.40.0) reads the default service account from the list of every account.
  { language: 'java', version: '6.104.0' },
] as const;

function cellOf(client: (typeof CLIENTS)[number], credentials: object, workload: JobSpecInput['workload'] = { operation: 'select1', warmupOps: 20, measuredOps: 60 }, dns?: object) {
  const input: JobSpecInput = {
    clients: [client],
    configurations: [{ label: 'client default' }],
    concurrency: [4],
    target: { kind: 'fake', latencyMs: 5, credentials, ...(dns && { dns }) },
    workload,
  };
  const spec = parseJobSpec(input);
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  return { spec: spec.value, plan: planCells(spec.value)[0]! };
}

for (const client of CLIENTS) {
  test(`${client.language} ${client.version}: a credentials-mode cell succeeds over TLS, and the fake saw no RPC without a valid token`, { timeout: 600_000 }, async () => {
    const { spec, plan } = cellOf(client, {});
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const out = await runCell(spec, plan, launch);
    assert.equal(out.result.count, 60);
    assert.deepEqual(out.result.errors, {});
    assert.ok(out.tokens, 'the fake checked tokens');
    const { valid, ...rest } = out.tokens;
    assert.deepEqual(rest, { missing: 0, expired: 0, invalid: 0 });
    assert.ok((valid ?? 0) >= 80, `every RPC carried a valid token (${valid})`);
  });
}

test('an unreachable metadata server fails the cell with a sentence naming it', { timeout: 600_000 }, async () => {
  const { spec, plan } = cellOf(CLIENTS[0], { unreachable: true });
  const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
  await assert.rejects(runCell(spec, plan, launch), (e: Error) => {
    assert.match(
      e.message,
      /^the cell's GCE metadata server \(GCE_METADATA_HOST=127\.0\.0\.1:\d+\) was unreachable \(credentials\.unreachable\), so the client had no token: every operation failed \(\d+ [A-Z_]+/,
    );
    return true;
  });
});

// Tokens living 20 s answered in 500 ms: under their refresh margins (Java 3 min, Node 5 min) these two
// fetch a token for every request; Go 1.96.1 fetches ahead in the background. Each second whose p99 is the
// token endpoint's sits on a token request's mark, in it or the second before.
for (const client of [CLIENTS[0], CLIENTS[1], CLIENTS[2]]) {
  test(`${client.language} ${client.version}: with short-lived tokens and a slow metadata server, the seconds that waited sit on token-request marks`, { timeout: 600_000 }, async () => {
    const { spec, plan } = cellOf(client, { tokenLifetimeMs: 20_000, tokenDelayMs: 500 }, { operation: 'select1', warmupOps: 8, durationSeconds: 4 });
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const out = await runCell(spec, plan, launch);
    assert.deepEqual(out.result.errors, {});
    const marks = (out.events ?? []).filter((e) => e.kind === 'schedule-change' && /^token request answered in \d+ ms$/.test(e.text)).map((e) => Math.floor(e.atMs / 1000) + 1);
    const stalled = out.result.timeline.filter((t) => t.p99Ms >= 450).map((t) => t.second);
    console.log(`# ${client.language} ${client.version}: token requests in seconds ${marks.join(', ')}; p99 ${out.result.timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')} ms`);
    assert.ok(marks.length >= 1, 'token requests during the measured phase are marks');
    for (const s of stalled)
      assert.ok(
        marks.some((m) => s === m || s === m + 1),
        `second ${s} waited without a token request in it or the one before`,
      );
    if (client.language === 'go') assert.deepEqual(stalled, [], 'Go 1.96.1 refreshes in the background');
    else assert.ok(stalled.length >= 2, `${client.language} waits for a token in most seconds (${stalled.join(', ')})`);
  });
}

// The deployment's whole path: a name resolved through a DNS server, TLS to that name, a token per RPC.
for (const client of [CLIENTS[0], CLIENTS[1]]) {
  test(`${client.language} ${client.version}: TLS and tokens to a name resolved through the cell's DNS server`, { timeout: 600_000 }, async () => {
    const { spec, plan } = cellOf(client, {}, undefined, { lookupDelayMs: 100 });
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const out = await runCell(spec, plan, launch);
    assert.equal(out.result.count, 60);
    assert.deepEqual(out.result.errors, {});
    const { valid, ...rest } = out.tokens!;
    assert.deepEqual(rest, { missing: 0, expired: 0, invalid: 0 });
    assert.ok((valid ?? 0) >= 80, `every RPC carried a valid token (${valid})`);
  });
}
