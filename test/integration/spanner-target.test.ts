// The Cloud Spanner target's path, as far as this machine can take it: the fake served over TLS with a
// CA made for this run, the drivers connecting with TLS and Application Default Credentials from the
// runner's environment (a service-account key made now, its token server on loopback), the cost cap
// enforced by the driver, and no credential in the runner's output, the database or the API's answers.
// Only DNS and real authentication are left out.
import assert from 'node:assert/strict';
import { createServer as createTlsServer } from 'node:tls';
import { after, test } from 'node:test';
import { startFakeSpanner, type FakeSpanner } from '@scb/fake-spanner';
import { createJob } from '@scb/db';
import { parseJobSpec } from '@scb/shared';
import { makeTestCredentials, type TestCredentials } from '../helpers/credentials';
import { makeTestCa } from '../helpers/tls';

// The runner reads its environment once, when it is loaded: set it first. Its policy allows the
// TLS fake standing in for Cloud Spanner, and one database.
const ca = makeTestCa();
const creds: TestCredentials = await makeTestCredentials(ca.dir);
// At 50 ms: no assertion here is about speed, and fewer operations a second keep the drivers' CPU low.
const fake: FakeSpanner = await startFakeSpanner({ host: '127.0.0.1', latencyMs: 50, tls: ca });
process.env.SCB_ALLOW_SPANNER = '1';
process.env.SCB_SPANNER_ENDPOINTS = `localhost:${fake.port}`;
process.env.SCB_SPANNER_DATABASES = 'bench-project/bench-instance/bench-db';
process.env.SCB_TEST_TLS_ROOTS = ca.caFile;
process.env.GOOGLE_APPLICATION_CREDENTIALS = creds.file;
const { useRunner, waitForJob } = await import('../helpers/jobs');

const stack = useRunner();
after(async () => {
  await fake?.stop();
  await creds.stop();
});

const CLIENTS = [
  { language: 'node', version: '9.0.0' },
  { language: 'java', version: '6.123.0' },
  { language: 'go', version: '1.96.1' },
];
/** The drivers that count per gRPC channel themselves; the Go driver does not (yet). */
const COUNTS_CHANNELS = new Set(['node', 'java']);
const target = (over: object = {}) => ({
  kind: 'spanner',
  projectId: 'bench-project',
  instanceId: 'bench-instance',
  databaseId: 'bench-db',
  endpoint: `localhost:${fake.port}`,
  maxOpsPerCell: 5000,
  maxSecondsPerCell: 30,
  ...over,
});

test('bad Cloud Spanner targets are refused field by field, the cost caps are required and checked against the workload', () => {
  const base = { clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [10, 50] };
  const bad = parseJobSpec({ ...base, workload: { durationSeconds: 1 }, target: { kind: 'spanner', projectId: 'Bad Project', instanceId: 'i', databaseId: 'D', endpoint: 'nohost', token: 'x' } });
  assert.ok(!bad.ok);
  const paths = bad.issues.map((i) => i.path).sort();
  assert.deepEqual(paths, ['target.databaseId', 'target.endpoint', 'target.instanceId', 'target.maxOpsPerCell', 'target.maxSecondsPerCell', 'target.projectId', 'target.token']);
  assert.match(bad.issues.find((i) => i.path === 'target.maxOpsPerCell')!.message, /required on Cloud Spanner/);
  const over = parseJobSpec({
    ...base,
    workload: { warmupOps: { min: 100, perConcurrency: 10 }, measuredOps: 2000 },
    target: { kind: 'spanner', projectId: 'my-project', instanceId: 'inst', databaseId: 'db1', maxOpsPerCell: 2000, maxSecondsPerCell: 10 },
  });
  assert.ok(!over.ok);
  assert.deepEqual(over.issues, [{ path: 'target.maxOpsPerCell', message: 'the workload runs 2500 operations per cell at C=50 (warm-up and measured), more than the cap of 2000' }]);
  const long = parseJobSpec({
    ...base,
    workload: { durationSeconds: 20 },
    target: { kind: 'spanner', projectId: 'my-project', instanceId: 'inst', databaseId: 'db1', maxOpsPerCell: 2000, maxSecondsPerCell: 10 },
  });
  assert.ok(!long.ok);
  assert.equal(long.issues[0]!.path, 'target.maxSecondsPerCell');
});

test('a runner not enabled for Cloud Spanner refuses the job at once, saying how to enable it', async () => {
  // The targets read SCB_ALLOW_SPANNER when asked (packages/targets/src/env.ts): without it, for this call.
  const { refuseJobOnTarget } = await import('../../apps/runner/src/targets/index');
  delete process.env.SCB_ALLOW_SPANNER;
  try {
    const spec = parseJobSpec({
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'a' }],
      concurrency: [1],
      workload: { warmupOps: 1, measuredOps: 5 },
      target: { kind: 'spanner', projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db', maxOpsPerCell: 10, maxSecondsPerCell: 5 },
    });
    assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
    assert.match(refuseJobOnTarget(spec.value) ?? '', /does not run jobs against Cloud Spanner: its operator enables them by starting it with SCB_ALLOW_SPANNER=1/);
  } finally {
    process.env.SCB_ALLOW_SPANNER = '1'; // as this file set it above
  }
});

test("targets outside the operator's policy are refused before any connection is made, whoever stored the job", { timeout: 120_000 }, async () => {
  // A TLS listener the spec points at: the runner's credentials must never reach it.
  let connections = 0;
  const listener = createTlsServer({ key: ca.privateKey, cert: ca.certChain }, (s) => s.destroy()).on('connection', () => connections++);
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const port = (listener.address() as { port: number }).port;
  const base = { clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [1], workload: { warmupOps: 1, measuredOps: 5 } };
  const cases = [
    { target: target({ endpoint: `127.0.0.1:${port}` }), rule: /target\.endpoint: this endpoint is not among the Cloud Spanner endpoints this server's operator allows \(SCB_SPANNER_ENDPOINTS/ },
    { target: target({ endpoint: `localhost:${port}` }), rule: /target\.endpoint: this endpoint is not among/ },
    { target: target({ databaseId: 'other-db' }), rule: /target\.databaseId: this database is not among the Cloud Spanner databases/ },
    {
      target: { kind: 'emulator', emulatorHost: 'metadata.google.internal:80' },
      rule: /target\.emulatorHost: an emulator host must be on loopback .* SCB_EMULATOR_PORTS, or listed in SCB_EMULATOR_HOSTS/,
    },
    // Loopback, but at a port SCB_EMULATOR_PORTS does not list (it lists none here): the listener itself.
    { target: { kind: 'emulator', emulatorHost: `127.0.0.1:${port}` }, rule: /target\.emulatorHost: an emulator host must be on loopback/ },
    // Above the operator's ceiling of operations per cell (SCB_SPANNER_MAX_OPS, 100,000 by default).
    { target: target({ maxOpsPerCell: 100_001 }), rule: /target\.maxOpsPerCell: must be at most 100000, this server's ceiling of operations per cell \(SCB_SPANNER_MAX_OPS/ },
  ];
  try {
    for (const c of cases) {
      // Stored straight into the database, as a script or another web app could: the runner's own policy decides.
      const parsed = parseJobSpec({ ...base, target: c.target });
      assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
      const job = await waitForJob(stack.db, await createJob(stack.db, stack.databaseUrl, parsed.value), 60_000, stack.logs);
      assert.equal(job.status, 'failed');
      assert.match(job.error ?? '', c.rule);
      assert.ok(!(job.error ?? '').includes(String(port)) && !(job.error ?? '').includes('metadata.google'), 'the refusal says nothing about the refused host');
      assert.ok(job.cells.every((cell) => cell.status !== 'succeeded'));
    }
    assert.equal(connections, 0, 'the listener outside the policy saw no connection');
  } finally {
    listener.close();
  }
});

test('Node and Java over TLS with Application Default Credentials; the cost cap ends a cell; no credential reaches output, database or API', { timeout: 600_000 }, async () => {
  const { totalRpcs: rpcsBefore, rpcsWithCredentials: credentialedBefore } = fake.stats();
  const job = await stack.runSpec(
    {
      clients: CLIENTS,
      configurations: [{ label: 'default' }],
      concurrency: [5],
      // 60 operations measured, not 2 s (about 200 at C=5 on 50 ms queries): more than the 50 each cell
      // must serve, and a cold JVM's first operations cost it about 2.6 ms of CPU apiece.
      workload: { warmupOps: 20, measuredOps: 60 },
      target: target(),
    },
    300_000,
  );
  assert.equal(job.status, 'succeeded', job.error ?? stack.logs.join('\n'));
  for (const cell of job.cells) {
    assert.equal(cell.status, 'succeeded', cell.error ?? '');
    assert.ok(cell.result!.count > 50 && cell.result!.errorCount === 0, `${cell.clientLanguage}: ${cell.result!.count} ${JSON.stringify(cell.result!.errors)}`);
    assert.equal(cell.result!.capped, null);
    // No tap can read TLS streams: the connections are the client's own count, per gRPC channel.
    if (COUNTS_CHANNELS.has(cell.clientLanguage)) {
      assert.ok(cell.channels.length > 0 && cell.channels.every((c) => c.source === 'client'), `${cell.clientLanguage}: ${JSON.stringify(cell.channels)}`);
      assert.ok(cell.channels.reduce((a, c) => a + c.rpcs, 0) >= cell.result!.count);
    } else assert.deepEqual(cell.channels, [], 'nothing counted is nothing stored');
  }
  const { totalRpcs, rpcsWithCredentials } = fake.stats();
  const counted = job.cells.filter((c) => COUNTS_CHANNELS.has(c.clientLanguage)).reduce((a, c) => a + c.channels.reduce((b, ch) => b + ch.rpcs, 0), 0);
  assert.ok(totalRpcs - rpcsBefore > counted, 'the TLS fake served every cell');
  assert.equal(rpcsWithCredentials - credentialedBefore, totalRpcs - rpcsBefore, 'every RPC carried the credentials of the environment');

  // A job-wide budget of 150 operations over three cells capped at 100 each, measured by time: the
  // first stops at its own cap and says so, the second gets what is left (50), the third does not run,
  // and the job says what it spent. The first cell is the cap's check too, not a job of its own (a Node
  // cell is about a second of CPU): a driver stops at the cap it is given, whatever set it, and a cap
  // with no job budget ends spanner-target-metadata.test.ts's Go cell.
  const budgeted = await stack.runSpec(
    {
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'default' }],
      concurrency: [5],
      repeats: 3,
      workload: { warmupOps: 20, durationSeconds: 10 },
      target: target({ maxOpsPerCell: 100, maxOpsPerJob: 150, maxSecondsPerJob: 600 }),
    },
    300_000,
  );
  const [b1, b2, b3] = budgeted.cells;
  for (const c of [b1!, b2!]) {
    assert.equal(c.status, 'succeeded', c.error ?? '');
    assert.equal(c.result!.capped, 'ops');
  }
  assert.ok(b1!.result!.count + b1!.result!.errorCount <= 80, `${b1!.result!.count} measured after 20 warm-up ops under a cap of 100`);
  assert.ok(b1!.result!.elapsedMs < 10_000, `${b1!.result!.elapsedMs} ms: the cap, not the 10 s, ended it`);
  assert.ok(b2!.result!.count + b2!.result!.errorCount <= 30, `${b2!.result!.count} measured after 20 warm-up ops within the 50 left`);
  assert.equal(b3!.status, 'failed');
  assert.match(b3!.error!, /^the job's Cloud Spanner budget is spent \(150 of 150 operations, \d+ of 600 s, \d+ sessions created\): this cell did not run$/);
  const spent = budgeted.spent as { ops: number; seconds: number; sessions: number } | null;
  assert.equal(spent?.ops, 150);
  assert.ok(spent!.seconds > 0 && spent!.seconds < 600);

  console.log(`# token requests to the loopback token server: ${creds.tokenRequests()}`);
  // Nothing of the key or the token anywhere a user or an operator reads.
  const stored = await stack.db.$queryRawUnsafe<{ t: string }[]>(
    `SELECT string_agg(x::text, ' ') AS t FROM (SELECT row_to_json(j)::text AS x FROM "Job" j UNION ALL SELECT row_to_json(c)::text FROM "Cell" c UNION ALL SELECT row_to_json(r)::text FROM "CellResult" r) s`,
  );
  process.env.DATABASE_URL = stack.databaseUrl;
  const web = await import('../../apps/web/lib/jobs');
  const { jobMarkdown } = await import('@scb/shared');
  const views = await Promise.all(
    [job.id, budgeted.id].map(async (id) => {
      const v = await web.getJob(id);
      assert.ok(v && !web.isInvalidJob(v));
      return JSON.stringify(v) + JSON.stringify(web.csvRows(v)) + jobMarkdown({ id, url: `http://x/jobs/${id}`, spec: v.spec, environment: v.environment, cells: web.tableCells(v) });
    }),
  );
  assert.match(views[1]!, /"spent":\{"ops":150,"seconds":[\d.]+,"sessions":\d+\}/, 'the job page is given what was spent');
  assert.match(views.join(''), /Cloud Spanner projects\/bench-project\/instances\/bench-instance\/databases\/bench-db/, 'the Markdown names the database');
  for (const [where, text] of [
    ['runner log', stack.logs.join('\n')],
    ['database', stored[0]!.t],
    ['API', views.join('\n')],
  ] as const) {
    for (const secret of creds.secrets) assert.ok(!text.includes(secret), `a credential reached the ${where}`);
  }
});

test('every driver counts the sessions its client created; a job-wide budget of sessions stops the job', { timeout: 600_000 }, async () => {
  // Each client with its default (a multiplexed session) and with a pool of 25 regular sessions, which
  // come in BatchCreateSessions answers (Node and Java) or CreateSession calls.
  const spec = (client: { language: string; version: string }, over: object = {}, repeats = 1) => ({
    clients: [client],
    // Go 1.33.0 has no multiplexed sessions to turn off.
    configurations: [{ label: 'default' }, { label: 'pool of 25', ...(client.language === 'go' ? {} : { multiplexedSessions: false }), sessionPool: { minSessions: 25 } }],
    concurrency: [5],
    repeats,
    workload: { warmupOps: 20, durationSeconds: 1 },
    target: target(over),
  });
  // The fake serves nothing else meanwhile: what it created is what the job's clients created.
  // Java 6.123.0 and Go 1.96.1 have only multiplexed sessions: 6.104.0 and 1.33.0 still have their pools.
  const POOLED = { node: '9.0.0', java: '6.104.0', go: '1.33.0' } as const;
  for (const client of CLIENTS.map((c) => ({ ...c, version: POOLED[c.language as keyof typeof POOLED] }))) {
    const before = fake.stats().sessionsCreated;
    const job = await stack.runSpec(spec(client, { maxSessionsPerJob: 1_000_000 }), 300_000);
    assert.equal(job.status, 'succeeded', job.error ?? stack.logs.join('\n'));
    for (const c of job.cells) assert.equal(c.status, 'succeeded', `${client.language} ${c.configLabel}: ${c.error}`);
    const created = fake.stats().sessionsCreated - before;
    const spent = job.spent as { sessions: number } | null;
    console.log(`# ${client.language} ${client.version}: ${created} sessions created on the fake, ${spent?.sessions} counted by the driver`);
    assert.ok(created >= 26, `${client.language}: the two cells' clients created their sessions`);
    assert.equal(spent?.sessions, created, `${client.language}: the driver counted what the fake created`);
  }
  // A budget of one session: the first cell's client creates it, and no cell starts after.
  const bounded = await stack.runSpec({ ...spec({ language: 'go', version: '1.96.1' }, { maxSessionsPerJob: 1 }, 3), configurations: [{ label: 'default' }] }, 300_000);
  const [first, ...rest] = bounded.cells;
  assert.equal(first!.status, 'succeeded', first!.error ?? '');
  for (const c of rest) {
    assert.equal(c.status, 'failed');
    assert.match(c.error!, /^the job's Cloud Spanner budget is spent \(\d+ operations, \d+ s, [1-9]\d* of 1 sessions created\): this cell did not run$/);
  }
});
