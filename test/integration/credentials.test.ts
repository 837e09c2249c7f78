// The fake's credentials mode, per client: TLS with a CA made for the cell, and a bearer token on every
// RPC that the client's own credential code fetched from the cell's GCE metadata server (found through
// GCE_METADATA_HOST); and a cell whose metadata server is not there fails saying so. A driver start is
// most of a small cell's CPU (Node about 1.6 s, Java 1.4 s), so a check that another cell here already
// runs on the same path rides on that cell: Node's and Go's credentials-mode cells are the ones that
// resolve the fake's name through the cell's DNS server, the short-lived tokens' cells check every RPC's
// token too, and Go 1.96.1's background refresh is the token-refresh preset's cell
// (test/integration/presets.test.ts).
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

// Node and Go reach the fake by a name resolved through the cell's DNS server: the deployment's whole path
// (a name resolved through a DNS server, TLS to that name, a token per RPC) in the cell that checks the
// credentials; their cells without DNS are the short-lived tokens' below. Java's clients connect to the
// fake's address (grpc-java's resolver ignores the server a dns:// target names: the slow-dns preset).
for (const client of CLIENTS) {
  const dns = client.language === 'java' ? undefined : { lookupDelayMs: 100 };
  const title = dns ? "TLS and tokens to a name resolved through the cell's DNS server: a credentials-mode cell succeeds" : 'a credentials-mode cell succeeds over TLS';
  test(`${client.language} ${client.version}: ${title}, and the fake saw no RPC without a valid token`, { timeout: 600_000 }, async () => {
    const { spec, plan } = cellOf(client, {}, undefined, dns);
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
// fetch a token for every request. Each second whose p99 is the token endpoint's sits on a token request's
// mark, in it or the second before. Go 1.96.1, which fetches ahead in the background and whose seconds
// wait for none, is the token-refresh preset's cell in test/integration/presets.test.ts (the same fake,
// tokens living 20 s, answered in 1 s there: its marks, its tokens, no error and no second that waited);
// here it was some 2,800 operations over TLS for the same checks.
for (const client of [CLIENTS[0], CLIENTS[2]]) {
  test(`${client.language} ${client.version}: with short-lived tokens and a slow metadata server, the seconds that waited sit on token-request marks`, { timeout: 600_000 }, async () => {
    const warmupOps = 8;
    const { spec, plan } = cellOf(client, { tokenLifetimeMs: 20_000, tokenDelayMs: 500 }, { operation: 'select1', warmupOps, durationSeconds: 4 });
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const out = await runCell(spec, plan, launch);
    assert.deepEqual(out.result.errors, {});
    // The cell without DNS of Node's credentials check (its cell above resolves a name): every RPC, the
    // warm-up's and the measured ones, carried a valid token.
    assert.ok(out.tokens, 'the fake checked tokens');
    const { valid, ...rest } = out.tokens;
    assert.deepEqual(rest, { missing: 0, expired: 0, invalid: 0 });
    assert.ok((valid ?? 0) >= warmupOps + out.result.count, `every RPC carried a valid token (${valid} for ${warmupOps} + ${out.result.count} operations)`);
    const marks = (out.events ?? []).filter((e) => e.kind === 'schedule-change' && /^token request answered in \d+ ms$/.test(e.text)).map((e) => Math.floor(e.atMs / 1000) + 1);
    const stalled = out.result.timeline.filter((t) => t.p99Ms >= 450).map((t) => t.second);
    console.log(`# ${client.language} ${client.version}: token requests in seconds ${marks.join(', ')}; p99 ${out.result.timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')} ms`);
    assert.ok(marks.length >= 1, 'token requests during the measured phase are marks');
    for (const s of stalled)
      assert.ok(
        marks.some((m) => s === m || s === m + 1),
        `second ${s} waited without a token request in it or the one before`,
      );
    assert.ok(stalled.length >= 2, `${client.language} waits for a token in most seconds (${stalled.join(', ')})`);
  });
}
