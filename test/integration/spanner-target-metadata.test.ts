// The Cloud Spanner target's code (endpoint policy, credentials, table check) against the fake in
// credentials mode: TLS with a CA made for the run, and a GCE metadata server as the runner's only
// credentials, found through the runner's GCE_METADATA_HOST as on a Google Cloud VM. The fake refuses and
// counts any RPC without a valid token; the metadata server counts the token requests, which come only
// from the cells of the target the operator allows.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createJob } from '@scb/db';
import { newTokenSecret, startFakeSpanner, type FakeSpanner } from '@scb/fake-spanner';
import { parseJobSpec } from '@scb/shared';
import { makeCellCa } from '../../packages/targets/src/fake/ca';
import { startMetadataServer } from '../../packages/targets/src/fake/metadata';

// The runner reads its environment once, when it is loaded: set it first. No key file, no gcloud: the
// metadata server is the runner's only source of credentials.
const ca = await makeCellCa();
const secret = newTokenSecret();
const metadata = await startMetadataServer(secret, { tokenLifetimeMs: 3_600_000, tokenDelayMs: 0, tokenFailures: 0, projectId: 'bench-project' });
const fake: FakeSpanner = await startFakeSpanner({ host: '127.0.0.1', latencyMs: 5, tls: ca, tokenSecret: secret });
delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
process.env.CLOUDSDK_CONFIG = ca.caFile.replace(/ca\.pem$/, 'no-gcloud');
process.env.GCE_METADATA_HOST = metadata.host;
process.env.SCB_ALLOW_SPANNER = '1';
process.env.SCB_SPANNER_ENDPOINTS = `127.0.0.1:${fake.port}`;
process.env.SCB_SPANNER_DATABASES = 'bench-project/bench-instance/bench-db';
process.env.SCB_TEST_TLS_ROOTS = ca.caFile;
const { useRunner, waitForJob } = await import('../helpers/jobs');

const stack = useRunner();
after(async () => {
  await fake?.stop();
  await metadata.stop();
  ca.remove();
});

const CLIENTS = [
  { language: 'node', version: '9.0.0' },
  { language: 'java', version: '6.123.0' },
  { language: 'go', version: '1.96.1' },
];
// A cost cap by time far above what a cell takes: in the idle cgroup, where npm test runs this file, a
// starved Java cell once took over 30 s for its 220 operations.
const target = { kind: 'spanner', projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db', endpoint: `127.0.0.1:${fake.port}`, maxOpsPerCell: 5000, maxSecondsPerCell: 120 };

test('the Cloud Spanner target on a token-checking fake: every RPC of every client carries a token from the metadata server; fake cells never ask it', { timeout: 600_000 }, async () => {
  const job = await stack.runSpec({ clients: CLIENTS, configurations: [{ label: 'default' }], concurrency: [4], workload: { warmupOps: 20, measuredOps: 200 }, target }, 300_000);
  assert.equal(job.status, 'succeeded', job.error ?? stack.logs.join('\n'));
  for (const cell of job.cells) {
    assert.equal(cell.status, 'succeeded', cell.error ?? '');
    assert.equal(cell.result!.count, 200, `${cell.clientLanguage}: ${JSON.stringify(cell.result!.errors)}`);
  }
  const s = fake.stats();
  assert.ok(s.tokens, 'the fake checked tokens');
  const { valid, ...refused } = s.tokens;
  assert.deepEqual(refused, { missing: 0, expired: 0, invalid: 0 });
  assert.equal(valid, s.totalRpcs, 'every RPC (the table check and each driver) carried a valid token');
  const requests = metadata.tokenRequests().length;
  assert.ok(requests >= CLIENTS.length, `each client asked the metadata server (${requests} token requests)`);
  console.log(`# ${s.totalRpcs} RPCs, all with a valid token; ${requests} token requests`);

  // A fake cell on the same runner: its driver is not given the runner's metadata server.
  const local = await stack.runSpec(
    { clients: [CLIENTS[0]], configurations: [{ label: 'default' }], concurrency: [2], workload: { warmupOps: 5, measuredOps: 20 }, target: { kind: 'fake', latencyMs: 1 } },
    300_000,
  );
  assert.equal(local.status, 'succeeded', local.error ?? '');
  assert.equal(metadata.tokenRequests().length, requests, 'no token request from a cell on the fake');
});

test('tokens go only where the policy allows: a token-checking fake outside it gets no connection and no token is fetched for it; the cost cap ends a cell', { timeout: 600_000 }, async () => {
  // The same CA and token secret: a client that reached it would be served, and counted.
  const outside = await startFakeSpanner({ host: '127.0.0.1', latencyMs: 5, tls: ca, tokenSecret: secret });
  try {
    const before = metadata.tokenRequests().length;
    // Stored straight into the database, as a script could: the runner's own policy refuses it.
    const parsed = parseJobSpec({
      clients: [CLIENTS[2]],
      configurations: [{ label: 'default' }],
      concurrency: [2],
      workload: { warmupOps: 5, measuredOps: 20 },
      target: { ...target, endpoint: `127.0.0.1:${outside.port}` },
    });
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
    const refused = await waitForJob(stack.db, await createJob(stack.db, stack.databaseUrl, parsed.value), 60_000, stack.logs);
    assert.equal(refused.status, 'failed');
    assert.match(refused.error ?? '', /target\.endpoint: this endpoint is not among the Cloud Spanner endpoints this server's operator allows/);
    const o = outside.stats();
    assert.equal(o.connections.length, 0, 'the fake outside the policy saw no connection');
    assert.equal(o.totalRpcs, 0, 'and no RPC, with a token or without');
    assert.equal(metadata.tokenRequests().length, before, 'no token was fetched for the refused target');
  } finally {
    await outside.stop();
  }

  // Measured by time, capped at 100 operations: the Go driver stops at the cap, every RPC with a token.
  // 100 operations of 5 ms at C=4 take a fraction of a second; 60 s leave a starved driver (this file
  // yields) room to reach the cap (it ran 10 s short of it once, beside four packed files).
  const validBefore = fake.stats().tokens?.valid ?? 0;
  const capped = await stack.runSpec(
    { clients: [CLIENTS[2]], configurations: [{ label: 'default' }], concurrency: [4], workload: { warmupOps: 20, durationSeconds: 60 }, target: { ...target, maxOpsPerCell: 100 } },
    300_000,
  );
  const c = capped.cells[0]!;
  assert.equal(c.status, 'succeeded', c.error ?? '');
  assert.equal(c.result!.capped, 'ops');
  assert.ok(c.result!.count + c.result!.errorCount <= 80, `${c.result!.count} measured after 20 warm-up ops under a cap of 100`);
  const { valid, ...refusedTokens } = fake.stats().tokens!;
  assert.deepEqual(refusedTokens, { missing: 0, expired: 0, invalid: 0 });
  assert.ok(valid - validBefore >= 100, `the capped cell's RPCs carried tokens (${valid - validBefore})`);
});
