// test: yields
// The migrated database serves every model of prisma/schema.prisma, and the migrator keeps
// Prisma's own bookkeeping so `prisma migrate deploy` can take over where an engine exists.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import {
  cancelJob,
  heartbeat,
  listRunners,
  markRunnerStopped,
  registerRunner,
  rerunJob,
  cancelUnfinishedCells,
  countGates,
  countJobs,
  createGate,
  artifactContent,
  createJob,
  createToken,
  jobsRunningArtifact,
  storeArtifact,
  failCell,
  findLiveToken,
  hashToken,
  listTokens,
  revokeToken,
  failOrphanedJobs,
  findPendingGateJobIds,
  finishJob,
  getGate,
  getGateToEvaluate,
  getJob,
  getJobToRun,
  isCancelRequested,
  knownClientVersions,
  listGates,
  listJobs,
  listSucceededJobs,
  loadTrendJobs,
  loadTrendRows,
  loadTrendPoints,
  markCellRunning,
  markJobRunning,
  recordClientVersion,
  storeCellProgress,
  storeCellResult,
  storeGateVerdict,
  createWatch,
  getWatch,
  lastReproductionRuns,
  listWatches,
  pollWatches,
  WatchBackfillTooLarge,
  type CellResultInput,
} from '@scb/db';
import { MIGRATIONS_DIR, migrate } from '@scb/db/setup';
import { isFinishedCell, parseGateSpec, parseJobSpec, parseWatchSpec } from '@scb/shared';
import { evaluateGateOfJob } from '../../apps/runner/src/gate';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();

test('every model of the schema can be written and read back', async () => {
  const schema = readFileSync(path.join(MIGRATIONS_DIR, '../schema.prisma'), 'utf8');
  const models = [...schema.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]).sort();
  assert.deepEqual(
    models,
    ['ApiToken', 'Artifact', 'Cell', 'CellResult', 'ChannelStat', 'ClientVersion', 'Gate', 'GateCalibration', 'Job', 'Runner', 'TrendPoint', 'TrendScenario', 'Watch', 'WebhookDelivery'],
    'this test covers every model; extend it with the schema',
  );

  await t.db.job.create({ data: { id: 'job1', spec: { clients: [] }, cellsTotal: 1, environment: { cores: 2 } } });
  const cell = await t.db.cell.create({
    data: {
      jobId: 'job1',
      index: 0,
      clientLanguage: 'node',
      clientVersion: '9.0.0',
      configLabel: 'on',
      config: { label: 'on', grpcGcp: 'on' },
      concurrency: 10,
      repeat: 1,
      status: 'running',
      progress: { phase: 'measure', done: 5 },
    },
  });
  await t.db.cellResult.create({
    data: {
      cellId: cell.id,
      count: 100,
      errorCount: 1,
      errors: { UNAVAILABLE: 1 },
      elapsedMs: 1000.5,
      qps: 99.9,
      p50Ms: 65.1,
      p90Ms: 70,
      p99Ms: 80,
      p999Ms: 90,
      maxMs: 95,
      histogram: 'HISTFAAA',
      timeline: [{ second: 1, count: 100 }],
      cpuMs: 250,
      serverRpcs: 102,
    },
  });
  await t.db.channelStat.createMany({ data: [0, 1].map((connection) => ({ cellId: cell.id, connection, peer: `127.0.0.1:${5000 + connection}`, rpcs: 51, peakInFlight: 5, source: 'fake' })) });

  const back = await t.db.job.findUniqueOrThrow({ where: { id: 'job1' }, include: { cells: { include: { result: true, channels: true } } } });
  assert.equal(back.status, 'queued');
  assert.deepEqual(back.environment, { cores: 2 });
  assert.equal(back.cells[0].status, 'running');
  assert.deepEqual(back.cells[0].config, { label: 'on', grpcGcp: 'on' });
  assert.equal(back.cells[0].result?.p50Ms, 65.1);
  assert.deepEqual(back.cells[0].result?.errors, { UNAVAILABLE: 1 });
  assert.equal(back.cells[0].channels.length, 2);

  // The across-versions summary (derived; storeCellResult keeps it, db:rebuild-summaries rebuilds it).
  await t.db.trendScenario.create({ data: { language: 'node', scenarioKey: '0123456789ab', jobs: 1, concurrencies: { '10': 1 }, specJobId: 'job1' } });
  const point = { language: 'node', scenarioKey: '0123456789ab', concurrency: 10, operation: '', metric: 'qps', configLabel: 'on', version: '9.0.0' };
  await t.db.trendPoint.create({
    data: { ...point, n: 2, jobs: 1, median: 99.5, min: 99, max: 100, clientBound: 0, harnessBound: 1, optionSets: ['grpcGcp=on'], sample: [], values: [99, 100] },
  });
  assert.deepEqual((await t.db.trendPoint.findFirstOrThrow({ where: point })).values, [99, 100]);
  assert.deepEqual((await t.db.trendScenario.findFirstOrThrow()).concurrencies, { '10': 1 });
  await t.db.trendPoint.deleteMany();
  await t.db.trendScenario.deleteMany();

  // An uploaded build: stored once by its content (the same bytes again store nothing), its bytes read back whole.
  const content = Buffer.from([0x1f, 0x8b, 0, 255, 1, 2, 3]);
  const upload = {
    id: `sha256:${'c'.repeat(64)}`,
    language: 'node',
    module: '@google-cloud/spanner',
    version: '9.0.1-SNAPSHOT',
    format: 'npm-pack',
    label: 'PR 1',
    bytes: content.length,
    contents: null,
    uploadedBy: 'token:ci',
    content,
  };
  const first = await storeArtifact(t.db, upload);
  assert.equal(first.created, true);
  const again = await storeArtifact(t.db, { ...upload, label: 'another', uploadedBy: 'token:other' });
  assert.deepEqual([again.created, again.artifact.label, again.artifact.uploadedBy], [false, 'PR 1', 'token:ci']);
  assert.deepEqual(await artifactContent(t.db, upload.id), content);
  assert.equal(await artifactContent(t.db, `sha256:${'d'.repeat(64)}`), null);
  await t.db.cell.update({ where: { id: cell.id }, data: { clientArtifact: upload.id, clientLabel: 'PR 1' } });
  assert.deepEqual(
    (await jobsRunningArtifact(t.db, upload.id)).map((j) => j.id),
    ['job1'],
  );
  await t.db.cell.update({ where: { id: cell.id }, data: { clientArtifact: null, clientLabel: null } });

  await t.db.clientVersion.create({ data: { language: 'java', version: '6.109.0', ok: false, message: 'a jar is missing' } });
  await t.db.clientVersion.upsert({
    where: { language_version: { language: 'java', version: '6.109.0' } },
    create: { language: 'java', version: '6.109.0', ok: true },
    update: { ok: true, message: null },
  });
  assert.deepEqual(await t.db.clientVersion.findMany({ select: { language: true, version: true, ok: true, message: true } }), [{ language: 'java', version: '6.109.0', ok: true, message: null }]);

  const runnerId = await registerRunner(t.db, { host: 'h1', cores: 2, memoryGiB: 24, languages: ['node', 'java'], targets: ['fake', 'emulator'], labels: ['perf-lab'], commit: 'abc' });
  const beforeBeat = Date.now();
  assert.equal(await heartbeat(t.db, runnerId, { jobId: 'job1', cellIndex: 0 }), true);
  const [runner] = await listRunners(t.db, 20_000);
  const sinceBeat = Date.now() - beforeBeat;
  assert.deepEqual([runner!.id, runner!.alive, runner!.languages, runner!.labels, runner!.jobId, runner!.cellIndex], [runnerId, true, ['node', 'java'], ['perf-lab'], 'job1', 0]);
  // The heartbeat and the listing both fell within sinceBeat (+1 ms for Date.now's rounding).
  assert.ok(runner!.heartbeatAgeMs >= 0 && runner!.heartbeatAgeMs <= sinceBeat + 1, `age ${runner!.heartbeatAgeMs} ms, ${sinceBeat} ms from before the heartbeat to after the listing`);
  await markRunnerStopped(t.db, runnerId, 'stopped');
  assert.equal((await listRunners(t.db, 20_000))[0]!.alive, false);
  assert.equal(await heartbeat(t.db, runnerId, null), false, 'a stopped runner learns it from its next heartbeat');

  const token = await createToken(t.db, 'ci-bot');
  assert.match(token, /^scb_[A-Za-z0-9_-]{43}$/);
  const [row] = await t.db.apiToken.findMany();
  assert.ok(row && row.hash === hashToken(token) && !JSON.stringify(row).includes(token), 'only the hash is stored');
  assert.deepEqual(await findLiveToken(t.db, token), { name: 'ci-bot', admin: false });
  assert.equal(await findLiveToken(t.db, `${token}x`), null);
  await assert.rejects(createToken(t.db, 'ci-bot'), /exists already/);
  await assert.rejects(createToken(t.db, 'Bad Name'), /is not a token name/);
  assert.equal(await revokeToken(t.db, 'ci-bot'), true);
  assert.equal(await revokeToken(t.db, 'ci-bot'), false, 'revoked once');
  assert.equal(await findLiveToken(t.db, token), null, 'a revoked token is no identity');
  assert.ok((await listTokens(t.db))[0]!.revokedAt);

  // A release watch's gate: the release it judges.
  await t.db.watch.create({ data: { id: 'watch1', spec: { language: 'java', scenarios: ['affinity-burst'] }, listedAtStart: ['6.122.0', '6.123.0'] } });
  await t.db.gate.create({ data: { id: 'gate1', jobId: 'job1', spec: { scenario: 'affinity-burst' }, watchId: 'watch1', watchVersion: '6.124.0' } });
  const watched = await t.db.watch.findUniqueOrThrow({ where: { id: 'watch1' }, include: { gates: true } });
  assert.deepEqual([watched.listedAtStart, watched.gates.map((g) => g.watchVersion)], [['6.122.0', '6.123.0'], ['6.124.0']]);
  await t.db.gate.update({ where: { id: 'gate1' }, data: { verdict: 'fail', evaluation: { reasons: ['qps at C=400 fell'] }, finishedAt: new Date() } });
  const gate = await t.db.gate.findUniqueOrThrow({ where: { jobId: 'job1' }, include: { job: { select: { status: true } } } });
  assert.equal(gate.verdict, 'fail');
  assert.deepEqual(gate.evaluation, { reasons: ['qps at C=400 fell'] });
  assert.equal(gate.job.status, 'queued');

  // A gate scenario's calibration (test/integration/gate-calibrations.test.ts reads them as the pages do).
  await t.db.gateCalibration.create({
    data: {
      id: 'cal1',
      scenario: 'steady-select1',
      language: 'node',
      version: '9.0.0',
      machine: 'vm',
      cores: 2,
      commit: 'abc',
      repeats: 5,
      criteria: { p50RisePct: 20 },
      aaRuns: 20,
      aaFalseAlarms: 1,
      aaInconclusive: 0,
      sizes: [{ pct: 5, runs: 20, detections: 19 }],
      details: {},
    },
  });
  const calibration = await t.db.gateCalibration.findUniqueOrThrow({ where: { id: 'cal1' } });
  assert.deepEqual([calibration.aaRuns, calibration.aaFalseAlarms, calibration.sizes], [20, 1, [{ pct: 5, runs: 20, detections: 19 }]]);
  await assert.rejects(t.db.gate.create({ data: { id: 'gate2', jobId: 'job1', spec: {} } }), 'one gate per job');
  // Its releases' dates and the ones yanked since; a delivery of its verdict per webhook, once.
  await t.db.watch.update({ where: { id: 'watch1' }, data: { releaseDates: { '6.124.0': '2026-11-01T00:00:00.000Z' }, unlisted: ['6.124.0'] } });
  await t.db.webhookDelivery.create({ data: { id: 'd1', watchId: 'watch1', gateId: 'gate1', webhook: 'team-slack', attempts: 2, lastError: 'HTTP 503' } });
  await assert.rejects(t.db.webhookDelivery.create({ data: { id: 'd2', watchId: 'watch1', gateId: 'gate1', webhook: 'team-slack' } }), 'one delivery per gate and webhook');
  const outward = await t.db.watch.findUniqueOrThrow({ where: { id: 'watch1' }, include: { deliveries: true } });
  assert.deepEqual([outward.releaseDates, outward.unlisted], [{ '6.124.0': '2026-11-01T00:00:00.000Z' }, ['6.124.0']]);
  assert.deepEqual(
    outward.deliveries.map((d) => [d.webhook, d.status, d.attempts, d.lastError]),
    [['team-slack', 'pending', 2, 'HTTP 503']],
  );

  // A judged gate goes with nothing, not even its job; cells, results and channel stats belong to their job.
  await assert.rejects(t.db.job.delete({ where: { id: 'job1' } }), /gate gate1 is judged \(fail\)/);
  await t.db.$transaction([
    t.db.$executeRawUnsafe('ALTER TABLE "Gate" DISABLE TRIGGER "Gate_judged_immutable"'),
    t.db.gate.delete({ where: { id: 'gate1' } }),
    t.db.$executeRawUnsafe('ALTER TABLE "Gate" ENABLE TRIGGER "Gate_judged_immutable"'),
  ]);
  await t.db.job.delete({ where: { id: 'job1' } });
  assert.equal(await t.db.gate.count(), 0);
  assert.equal(await t.db.cell.count(), 0);
  assert.equal(await t.db.cellResult.count(), 0);
  assert.equal(await t.db.channelStat.count(), 0);
  assert.equal(await t.db.webhookDelivery.count(), 0, "a gate's deliveries go with it");
});

test('migrations are recorded as Prisma records them, and applying again changes nothing', async () => {
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  try {
    const rows = (await c.query('SELECT * FROM "_prisma_migrations" ORDER BY migration_name')).rows;
    const folders = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f !== 'migration_lock.toml')
      .sort();
    assert.deepEqual(
      rows.map((r) => r.migration_name),
      folders,
    );
    for (const row of rows) {
      const sql = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'), 'utf8');
      assert.equal(row.checksum, createHash('sha256').update(sql).digest('hex'));
      assert.ok(row.finished_at instanceof Date);
      assert.equal(row.applied_steps_count, 1);
      assert.equal(row.rolled_back_at, null);
    }
    const again = await migrate(t.url);
    assert.deepEqual(again.applied, []);
    assert.deepEqual(again.skipped, folders);
  } finally {
    await c.end();
  }
});

// ---------------------------------------------------------------------------------------------
// @scb/db's functions: the one place that reads and writes these rows
// ---------------------------------------------------------------------------------------------

const nodeSpec = () => {
  const p = parseJobSpec({ clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'on', grpcGcp: 'on' }], concurrency: [10, 50, 100], workload: { durationSeconds: 1 } });
  assert.ok(p.ok);
  return p.value;
};

const result = (over: Partial<CellResultInput> = {}): CellResultInput => ({
  count: 100,
  errorCount: 0,
  errors: {},
  elapsedMs: 1000,
  qps: 100,
  p50Ms: 65,
  p90Ms: 70,
  p99Ms: 80,
  p999Ms: 90,
  maxMs: 95,
  histogram: 'HISTFAAA',
  timeline: [{ second: 1, count: 100, errors: 0, p99Ms: 80, ms: 1000 }],
  cpuMs: 300,
  serverRpcs: null,
  targetAddedP50Ms: 0.2,
  targetAddedP99Ms: 1.5,
  targetWireAddedP50Ms: null,
  targetWireAddedP99Ms: null,
  driverLoopUtilization: 0.4,
  driverLoopDelayP99Ms: 12,
  targetLoopUtilization: 0.1,
  targetLoopDelayP99Ms: 11,
  targetCpuShare: null,
  machineBusyShare: 0.5,
  machineRunnerShare: 0.1,
  machineLoad1: 1.2,
  capped: null,
  uncorrected: null,
  scheduleLagP99Ms: null,
  scheduleLagMaxMs: null,
  outstandingCapWaits: null,
  events: [{ atMs: 1500, kind: 'connection-closed', connection: 0 }],
  tokens: null,
  operations: { select1: { count: 100, qps: 100, p50Ms: 65, p90Ms: 70, p99Ms: 80, p999Ms: 90, maxMs: 95, errorCount: 0, errors: {} } },
  channels: [
    { source: 'fake', connection: 0, peer: '127.0.0.1:1', rpcs: 60, peakInFlight: 7 },
    { source: 'fake', connection: 1, peer: '127.0.0.1:2', rpcs: 40, peakInFlight: 3 },
  ],
  ...over,
});

test('a job through its lifecycle: created and queued, run cell by cell, finished; read back parsed', async () => {
  const id = await createJob(t.db, t.url, nodeSpec());
  const fresh = await getJob(t.db, id);
  assert.ok(fresh?.ok, 'a created job parses');
  assert.deepEqual(fresh.spec, nodeSpec());
  assert.equal(fresh.status, 'queued');
  assert.equal(fresh.cells.length, 3);
  assert.equal(fresh.cellsDone, 0);
  assert.deepEqual(fresh.cells[0]!.config, { label: 'on', grpcGcp: 'on' });

  const toRun = await getJobToRun(t.db, id);
  assert.ok(toRun?.spec.ok);
  assert.deepEqual(
    toRun.cells.map((c) => c.index),
    [0, 1, 2],
  );
  assert.equal(await markJobRunning(t.db, id, { host: 'h', cores: 2, node: 'v20' }), true);
  assert.equal(await markJobRunning(t.db, id, { host: 'h', cores: 2 }), false, 'only a queued job starts');

  const [c0, c1] = toRun.cells;
  await markCellRunning(t.db, c0!.id);
  await storeCellProgress(t.db, c0!.id, { type: 'progress', phase: 'measure', done: 50, total: 100, elapsedMs: 500, qps: 100 });
  const running = await getJob(t.db, id);
  assert.ok(running?.ok);
  assert.deepEqual(running.cells[0]!.progress, { type: 'progress', phase: 'measure', done: 50, total: 100, elapsedMs: 500, qps: 100 });
  assert.equal(running.cellsDone, 0, 'a running cell is not finished');

  await storeCellResult(t.db, c0!.id, result());
  await failCell(t.db, c1!.id, 'option X is not supported');
  // A result whose channels cannot be stored leaves nothing behind: result, channels and status go together.
  await markCellRunning(t.db, toRun.cells[2]!.id);
  const dup = result({
    channels: [
      { source: 'fake', connection: 0, peer: 'a', rpcs: 1, peakInFlight: 1 },
      { source: 'fake', connection: 0, peer: 'b', rpcs: 1, peakInFlight: 1 },
    ],
  });
  await assert.rejects(storeCellResult(t.db, toRun.cells[2]!.id, dup));
  assert.equal(await isCancelRequested(t.db, id), false);
  await finishJob(t.db, id, { status: 'succeeded', error: null });

  const done = await getJob(t.db, id);
  assert.ok(done?.ok);
  assert.equal(done.status, 'succeeded');
  assert.deepEqual(
    done.cells.map((c) => c.status),
    ['succeeded', 'failed', 'cancelled'],
    'a finished job has no unfinished cell',
  );
  assert.equal(done.cellsDone, 2, 'the cells that ran: the cancelled one did not');
  assert.ok(done.cells.every((c) => isFinishedCell(c.status)));
  const r = done.cells[0]!.result!;
  assert.equal(r.serverRpcs, null, 'a target that cannot count RPCs stores null');
  assert.equal(r.operations?.select1?.p99Ms, 80, 'per operation kind, read back parsed');
  assert.deepEqual(r.events, [{ atMs: 1500, kind: 'connection-closed', connection: 0 }]);
  assert.deepEqual(r.timeline, [{ second: 1, count: 100, errors: 0, p99Ms: 80, ms: 1000 }]);
  assert.deepEqual(
    done.cells[0]!.channels.map((c) => c.connection),
    [0, 1],
  );
  assert.equal(done.cells[2]!.result, null);
  assert.deepEqual(done.cells[2]!.channels, []);
  assert.deepEqual(done.environment, { host: 'h', cores: 2, node: 'v20' });

  const listed = (await listJobs(t.db)).find((j) => j.id === id);
  assert.ok(listed?.ok);
  assert.equal(listed.cellsDone, 2);
  assert.ok((await listSucceededJobs(t.db, 10)).some((j) => j.id === id));
  assert.equal(await countJobs(t.db), (await listJobs(t.db)).length);

  // The trend chart's queries see its succeeded cell.
  const trend = await loadTrendJobs(t.db);
  const tj = trend.jobs.find((j) => j.jobId === id);
  assert.ok(tj);
  assert.deepEqual(tj.counts, [{ language: 'node', concurrency: 10, cells: 1 }]);
  assert.equal(tj.cores, 2);
  const rows = await loadTrendRows(t.db, { language: 'node', concurrency: 10, jobIds: [id], metric: 'p99' });
  assert.deepEqual(
    rows.map((x) => [x.version, x.configLabel, x.value]),
    [['9.0.0', 'on', 80]],
  );
  // And so does the summary the view reads instead (kept in storeCellResult's transaction).
  const [point] = await loadTrendPoints(t.db, { language: 'node', scenario: tj.scenarioKey, concurrency: 10, metric: 'p99', operation: null });
  assert.deepEqual([point?.version, point?.configLabel, point?.median, point?.n], ['9.0.0', 'on', 80, 1]);
});

test('a finished job never changes, whoever asks; re-running it is a new job linked to it', async () => {
  const id = await createJob(t.db, t.url, nodeSpec());
  await markJobRunning(t.db, id, {});
  const [c0, c1] = (await getJobToRun(t.db, id))!.cells;
  await markCellRunning(t.db, c0!.id);
  await storeCellResult(t.db, c0!.id, result());
  await finishJob(t.db, id, { status: 'succeeded', error: null });
  const rows = () => t.db.job.findUniqueOrThrow({ where: { id }, include: { cells: { orderBy: { index: 'asc' }, include: { result: true, channels: true } } } });
  const before = await rows();
  assert.deepEqual(
    before.cells.map((c) => c.status),
    ['succeeded', 'cancelled', 'cancelled'],
  );
  // What a runner that lost its job would write, what an API could, and plain SQL: all refused by the database.
  // The runner's own writes say the cell had finished and write nothing; the database refuses the rest.
  assert.equal(await storeCellResult(t.db, c0!.id, result()), 'finished');
  assert.equal(await markCellRunning(t.db, c1!.id), 'finished');
  assert.equal(await failCell(t.db, c0!.id, 'late'), 'finished');
  assert.equal(await finishJob(t.db, id, { status: 'failed', error: 'late' }), false);
  await assert.rejects(t.db.cell.update({ where: { id: c1!.id }, data: { status: 'running' } }), /cell 1 of job \w+ is finished \(cancelled\)/);
  await assert.rejects(t.db.cell.update({ where: { id: c0!.id }, data: { error: 'late' } }), /cell 0 of job \w+ is finished \(succeeded\)/);
  await assert.rejects(storeCellProgress(t.db, c0!.id, { type: 'progress', phase: 'measure', done: 1, total: 2, elapsedMs: 1, qps: 1 }), /is finished/);
  await assert.rejects(t.db.job.update({ where: { id }, data: { status: 'failed' } }), /job \w+ is finished \(succeeded\)/);
  const raw = { count: 1, errorCount: 0, errors: {}, elapsedMs: 1, qps: 1, p50Ms: 1, p90Ms: 1, p99Ms: 1, p999Ms: 1, maxMs: 1, histogram: 'x', timeline: [], cpuMs: 1 };
  await assert.rejects(t.db.cellResult.create({ data: { ...raw, cellId: c1!.id } }), /only a running cell stores what it measured/);
  await assert.rejects(t.db.cellResult.update({ where: { cellId: c0!.id }, data: { qps: 1 } }), /CellResult rows are written once/);
  await assert.rejects(t.db.channelStat.deleteMany({ where: { cellId: c0!.id } }), /is finished \(succeeded\)/);
  await assert.rejects(t.db.job.delete({ where: { id } }), /is finished/);
  assert.equal(await cancelJob(t.db, id), 'finished');
  assert.deepEqual(await rows(), before, 'not one stored value changed');

  const rerun = await rerunJob(t.db, t.url, id);
  assert.equal(rerun.kind, 'created');
  const again = await getJob(t.db, rerun.id);
  assert.ok(again?.ok);
  assert.deepEqual([again.status, again.rerunOf, again.cells.map((c) => c.status)], ['queued', id, ['pending', 'pending', 'pending']]);
  assert.deepEqual(again.spec, before.spec);
  const [queued] = await t.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE key LIKE ${`job:${rerun.id}%`}`;
  assert.equal(queued!.n, 1, 'the re-run is queued');
  const old = await getJob(t.db, id);
  assert.ok(old?.ok);
  assert.deepEqual(
    old.reruns.map((r) => r.id),
    [rerun.id],
  );
  assert.deepEqual(await rerunJob(t.db, t.url, rerun.id), { kind: 'unfinished', status: 'queued' });
  assert.deepEqual(await rerunJob(t.db, t.url, 'nope'), { kind: 'not-found' });
});

test('a runner writes only to the cells of a job it runs; a retried write that had landed is not written twice', async () => {
  const id = await createJob(t.db, t.url, nodeSpec());
  await markJobRunning(t.db, id, {}, 'runner-a');
  const [c0, c1, c2] = (await getJobToRun(t.db, id))!.cells;
  assert.equal(await markCellRunning(t.db, c0!.id, 'runner-b'), 'lost', 'not its job');
  assert.equal(await markCellRunning(t.db, c0!.id, 'runner-a'), 'stored');
  assert.equal(await markCellRunning(t.db, c0!.id, 'runner-a'), 'stored', 'a retry after a lost answer');
  assert.equal(await storeCellResult(t.db, c0!.id, result(), 'runner-b'), 'lost');
  assert.equal(await t.db.cellResult.count({ where: { cellId: c0!.id } }), 0, 'nothing of a lost write stays');
  assert.equal(await storeCellResult(t.db, c0!.id, result(), 'runner-a'), 'stored');
  assert.equal(await storeCellResult(t.db, c0!.id, result({ count: 7 }), 'runner-a'), 'finished', 'the retry of a write that landed');
  assert.equal((await t.db.cellResult.findUniqueOrThrow({ where: { cellId: c0!.id } })).count, 100);
  await markCellRunning(t.db, c1!.id, 'runner-a');
  assert.equal(await failCell(t.db, c1!.id, 'x', 'runner-b'), 'lost');
  assert.equal(await failCell(t.db, c1!.id, 'x', 'runner-a'), 'stored');
  // The job taken up by another runner: the first one's late writes are lost, not written.
  await t.db.job.update({ where: { id }, data: { runnerId: 'runner-c' } });
  await markCellRunning(t.db, c2!.id, 'runner-c');
  assert.equal(await storeCellResult(t.db, c2!.id, result(), 'runner-a'), 'lost');
  assert.equal((await t.db.cell.findUniqueOrThrow({ where: { id: c2!.id } })).status, 'running', "still the new runner's");
});

test('cancel: a queued job at once with its cells, a running one by request; orphans fail', async () => {
  const queued = await createJob(t.db, t.url, nodeSpec());
  assert.equal(await cancelJob(t.db, queued), 'cancelled');
  const q = await getJob(t.db, queued);
  assert.ok(q?.ok);
  assert.equal(q.status, 'cancelled');
  assert.ok(q.cells.every((c) => c.status === 'cancelled'));
  // Cancelled before it started: none of its cells ran, on the job and in the list ("0 / 3", not "3 / 3").
  assert.equal(q.cellsDone, 0);
  assert.equal((await listJobs(t.db)).find((j) => j.id === queued)?.cellsDone, 0);
  assert.equal(await cancelJob(t.db, queued), 'finished');
  assert.equal(await cancelJob(t.db, 'nope'), 'not-found');
  assert.equal(await markJobRunning(t.db, queued, {}), false, 'a cancelled job never starts');

  const running = await createJob(t.db, t.url, nodeSpec(), { createdBy: 'alice@example.com' });
  await markJobRunning(t.db, running, {});
  // Only its submitter or an admin cancels a job; who asked is recorded.
  assert.equal(await cancelJob(t.db, running, { name: 'bob@example.com', admin: false }), 'forbidden');
  assert.equal(await isCancelRequested(t.db, running), false);
  assert.equal(await cancelJob(t.db, 'nope', { name: 'bob@example.com', admin: false }), 'not-found');
  assert.equal(await cancelJob(t.db, running, { name: 'alice@example.com', admin: false }), 'requested');
  assert.equal((await t.db.job.findUniqueOrThrow({ where: { id: running } })).cancelledBy, 'alice@example.com');
  assert.equal(await cancelJob(t.db, running, { name: 'root', admin: true }), 'requested');
  assert.equal(await isCancelRequested(t.db, running), true);
  assert.equal(await failOrphanedJobs(t.db), 1);
  const o = await getJob(t.db, running);
  assert.ok(o?.ok);
  assert.equal(o.status, 'failed');
  assert.equal(o.error, 'the runner stopped while this job ran');
  assert.equal(await cancelUnfinishedCells(t.db, running), 0);
});

test('a stored row that does not parse is reported invalid, naming the column, not thrown', async () => {
  await t.db.job.create({
    data: {
      id: 'bad1',
      spec: { clients: [] },
      cellsTotal: 1,
      cells: { create: [{ index: 0, clientLanguage: 'node', clientVersion: '9.0.0', configLabel: 'x', config: { label: 'x' }, concurrency: 1, repeat: 1, progress: { phase: 'nap' } }] },
    },
  });
  const bad = await getJob(t.db, 'bad1');
  assert.ok(bad && !bad.ok);
  assert.equal(bad.id, 'bad1');
  assert.match(bad.invalid, /^stored job bad1 is invalid: /);
  assert.ok(
    bad.issues.some((i) => i.path.startsWith('spec.')),
    JSON.stringify(bad.issues),
  );
  assert.ok(
    bad.issues.some((i) => i.path.startsWith('cells.0.progress')),
    JSON.stringify(bad.issues),
  );
  const listed = (await listJobs(t.db)).find((j) => j.id === 'bad1');
  assert.ok(listed && !listed.ok);
  const toRun = await getJobToRun(t.db, 'bad1');
  assert.ok(toRun && !toRun.spec.ok, 'the runner sees why it cannot run it');
  await t.db.job.delete({ where: { id: 'bad1' } });
});

test('gates: created with their job, judged, listed; evaluations read back with NaN where JSON has null', async () => {
  const spec = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.0', repeats: 3, concurrency: [10] });
  assert.ok(spec.ok);
  const { id, jobId } = await createGate(t.db, t.url, spec.value);
  const g = await getGate(t.db, id);
  assert.ok(g?.ok);
  assert.deepEqual(g.spec, spec.value);
  assert.equal(g.evaluation, null);
  assert.deepEqual({ status: g.job.status, cellsDone: g.job.cellsDone, cellsTotal: g.job.cellsTotal }, { status: 'queued', cellsDone: 0, cellsTotal: 6 });
  assert.deepEqual(await findPendingGateJobIds(t.db), [], 'a queued gate is not pending a verdict');

  await finishJob(t.db, jobId, { status: 'failed', error: 'test' });
  assert.deepEqual(await findPendingGateJobIds(t.db), [jobId]);
  const toJudge = await getGateToEvaluate(t.db, jobId);
  assert.ok(toJudge?.spec.ok);
  assert.equal(toJudge.cells.length, 6);
  assert.deepEqual(
    toJudge.cells.map((c) => c.arm),
    ['baseline', 'candidate', 'baseline', 'candidate', 'baseline', 'candidate'],
    'the arm is a field of the cell, not its configuration label',
  );
  const stored = await getJob(t.db, jobId);
  assert.ok(stored?.ok);
  assert.deepEqual(new Set(stored.cells.map((c) => c.configLabel)), new Set(['client default']), 'both arms run the same options under one label');

  await storeGateVerdict(t.db, id, {
    verdict: 'inconclusive',
    reasons: ['too few repeats'],
    metrics: [
      {
        metric: 'qps',
        concurrency: 10,
        limitPct: -10,
        baseline: [100, 101],
        candidate: [99],
        baselineMedian: 100.5,
        candidateMedian: 99,
        changePct: Number.NaN,
        ciPct: [Number.NaN, Number.NaN],
        confidence: 0.9,
        medianVerdict: 'inconclusive',
        worst: null,
        verdict: 'inconclusive',
        reason: 'too few',
      },
    ],
    errors: [],
    method: 'm',
  });
  const judged = await getGate(t.db, id);
  assert.ok(judged?.ok);
  assert.equal(judged.verdict, 'inconclusive');
  // Its job failed before a cell ran: the gate page says 0 of 6 done, as the job page and the jobs list do (its cells were cancelled, not run).
  assert.equal(judged.job.cellsDone, 0);
  assert.equal(judged.job.cellsDone, stored.cellsDone);
  assert.ok(Number.isNaN(judged.evaluation!.metrics[0]!.changePct));
  assert.ok(Number.isNaN(judged.evaluation!.metrics[0]!.ciPct[1]));
  assert.deepEqual(await findPendingGateJobIds(t.db), []);
  const listed = await listGates(t.db);
  assert.ok(listed[0]?.ok && listed[0].id === id && listed[0].jobStatus === 'failed');
  assert.equal(await countGates(t.db), 1);

  // A judged gate never changes, whoever asks: its verdict is what CI acted on.
  await assert.rejects(t.db.gate.update({ where: { id }, data: { verdict: 'pass' } }), /gate \w+ is judged \(inconclusive\): its verdict does not change/);
  await assert.rejects(t.db.gate.delete({ where: { id } }), /is judged/);
  assert.equal((await getGate(t.db, id))?.verdict, 'inconclusive');
  // A row spoiled behind the trigger's back (an operator with psql) is reported, not thrown.
  await t.db.$transaction([
    t.db.$executeRawUnsafe('ALTER TABLE "Gate" DISABLE TRIGGER "Gate_judged_immutable"'),
    t.db.gate.update({ where: { id }, data: { evaluation: { verdict: 'maybe' } } }),
    t.db.$executeRawUnsafe('ALTER TABLE "Gate" ENABLE TRIGGER "Gate_judged_immutable"'),
  ]);
  const bad = await getGate(t.db, id);
  assert.ok(bad && !bad.ok);
  assert.match(bad.invalid, /^stored gate \w+ is invalid: evaluation\.verdict: /);
  assert.ok(!(await listGates(t.db))[0]!.ok);
});

test("a scan gate judges each repeat's CPU per 1,000 rows and first row from its stored result: a candidate spending more CPU per row fails, naming it", async () => {
  const spec = parseGateSpec({ scenario: 'result-set-decode', language: 'go', baseline: '1.96.0', candidate: '1.96.1', repeats: 3 });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const { id, jobId } = await createGate(t.db, t.url, spec.value);
  await markJobRunning(t.db, jobId, { host: 'h', cores: 2 });
  const cells = await t.db.cell.findMany({ where: { jobId }, orderBy: { index: 'asc' } });
  for (const [i, c] of cells.entries()) {
    // Both arms: 170 scans of 100 rows per second at the same latencies; the candidate's driver spends 40% more CPU.
    const noise = 1 + (i % 3) / 100;
    const scan = { count: 170, qps: 170 * noise, p50Ms: 5.6, p90Ms: 6, p99Ms: 7, p999Ms: 8, maxMs: 9, errorCount: 0, errors: {} };
    const cpuMs = (c.arm === 'candidate' ? 1.4 : 1) * 900 * noise;
    await markCellRunning(t.db, c.id);
    const r = result({
      ...scan,
      cpuMs,
      operations: { scan },
      firstRowP50Ms: 4 * noise,
      firstRowP99Ms: 5,
      lastRowP50Ms: 5.5,
      lastRowP99Ms: 6.9,
      targetLoopUtilization: 0.2,
      targetAddedP50Ms: 0.05,
      // The fake's wake-up late at its p99 (29% of the client's): harness-bound at p99 only, which the scenario does not judge.
      targetAddedP99Ms: 2,
      machineBusyShare: null,
      machineRunnerShare: null,
    });
    assert.equal(await storeCellResult(t.db, c.id, r), 'stored');
  }
  await finishJob(t.db, jobId, { status: 'succeeded', error: null });
  await evaluateGateOfJob(t.db, jobId, () => {});
  const g = await getGate(t.db, id);
  assert.ok(g?.ok && g.evaluation);
  assert.equal(g.verdict, 'fail', JSON.stringify(g.evaluation.reasons));
  const cpu = g.evaluation.metrics.find((m) => m.metric === 'cpuMsPer1kRows')!;
  // 900 ms of CPU over 170 scans of 100 rows: 52.9 ms per 1,000 rows, the candidate 74.1.
  assert.deepEqual(
    cpu.baseline.map((v) => v.toFixed(1)),
    ['52.9', '54.0', '53.5'],
  );
  assert.deepEqual(
    cpu.candidate.map((v) => v.toFixed(1)),
    ['74.9', '74.1', '75.6'],
  );
  assert.deepEqual(g.evaluation.metrics.find((m) => m.metric === 'firstRowP50Ms')!.candidate, [4.04, 4, 4.08]);
  assert.deepEqual(
    g.evaluation.reasons.map((r) => r.split(' (')[0]),
    ['CPU per 1,000 rows at C=1 rose 40%', '6 of 6 cells were harness-bound at p99 only, which this gate does not judge, their other figures judged'],
  );
  assert.deepEqual(
    g.evaluation.metrics.map((m) => m.metric),
    ['qps', 'p50Ms', 'cpuMsPer1kRows', 'firstRowP50Ms'],
  );
});

/** Runs a gate's job with one stored result per cell (`resultOf` by arm and repeat) and judges it as the runner does. */
async function judgedGate(input: unknown, resultOf: (arm: string, repeat: number) => CellResultInput) {
  const spec = parseGateSpec(input);
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const { id, jobId } = await createGate(t.db, t.url, spec.value);
  await markJobRunning(t.db, jobId, { host: 'h', cores: 2 });
  for (const c of await t.db.cell.findMany({ where: { jobId }, orderBy: { index: 'asc' } })) {
    await markCellRunning(t.db, c.id);
    assert.equal(await storeCellResult(t.db, c.id, resultOf(c.arm!, c.repeat)), 'stored');
  }
  await finishJob(t.db, jobId, { status: 'succeeded', error: null });
  await evaluateGateOfJob(t.db, jobId, () => {});
  const g = await getGate(t.db, id);
  assert.ok(g?.ok && g.evaluation);
  return g;
}

test('a harness-bound cell is left out and the gate judged on the remaining repeats while 3 remain per arm; with fewer it is inconclusive', async () => {
  // Equal arms; the baseline's first repeat measured a saturated fake (its loop 99% busy).
  const resultOf = (arm: string, repeat: number) => {
    const noise = 1 + ((repeat * 3) % 4) / 400;
    const select1 = { count: 500, qps: 100 * noise, p50Ms: 65 * noise, p90Ms: 70, p99Ms: 80 * noise, p999Ms: 90, maxMs: 95, errorCount: 0, errors: {} };
    return result({ ...select1, operations: { select1 }, ...(arm === 'baseline' && repeat === 1 && { targetLoopUtilization: 0.99 }) });
  };
  const gate = { scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.0', concurrency: [10] };
  const enough = await judgedGate({ ...gate, repeats: 4 }, resultOf);
  assert.equal(enough.verdict, 'pass', JSON.stringify(enough.evaluation!.reasons));
  assert.ok(
    enough.evaluation!.reasons.some((r) =>
      /^1 of 8 cells were harness-bound and left out \(first: baseline 9\.0\.0 C=10 repeat 1: .*\); judged on the remaining repeats \(at least 3 per arm and level\)$/.test(r),
    ),
    JSON.stringify(enough.evaluation!.reasons),
  );
  assert.equal(enough.evaluation!.metrics[0]!.baseline.length, 3);

  const few = await judgedGate({ ...gate, repeats: 3 }, resultOf);
  assert.equal(few.verdict, 'inconclusive', JSON.stringify(few.evaluation!.reasons));
  assert.ok(
    few.evaluation!.reasons.some((r) => /harness-bound and left out .*; too few repeats remain to judge \(2 baseline at C=10; at least 3 each needed\)$/.test(r)),
    JSON.stringify(few.evaluation!.reasons),
  );
});

test('an affinity-burst gate classifies each cold start from its stored connections and stores the mode test: both arms collapsing alike pass as persisting', async () => {
  // 32 connections counted by the fake; a collapsed cold start has one at 100 streams with 31% of the RPCs.
  const channels = (collapsed: boolean) =>
    Array.from({ length: 32 }, (_, connection) => ({
      source: 'fake' as const,
      connection,
      peer: `127.0.0.1:${40000 + connection}`,
      rpcs: collapsed ? (connection === 0 ? 2370 : 169) : connection === 0 ? 266 : 237,
      peakInFlight: collapsed ? (connection === 0 ? 100 : 12) : 23,
    }));
  const resultOf = (arm: string, repeat: number) => {
    const collapsed = repeat === (arm === 'baseline' ? 2 : 3);
    const noise = 1 + ((repeat * 3) % 4) / 400;
    const select1 = collapsed
      ? { count: 6000, qps: 290, p50Ms: 700, p90Ms: 2000, p99Ms: 2300, p999Ms: 2400, maxMs: 2500, errorCount: 0, errors: {} }
      : { count: 6000, qps: 585 * noise, p50Ms: 657 * noise, p90Ms: 680, p99Ms: 700 * noise, p999Ms: 720, maxMs: 730, errorCount: 0, errors: {} };
    return result({ ...select1, operations: { select1 }, channels: channels(collapsed) });
  };
  const g = await judgedGate({ scenario: 'affinity-burst', language: 'java', baseline: '6.105.0', candidate: '6.106.0', repeats: 4 }, resultOf);
  const e = g.evaluation!;
  assert.equal(g.verdict, 'pass', JSON.stringify(e.reasons));
  assert.equal(e.persisting, true);
  assert.deepEqual(
    e.modes!.map((m) => [m.baseline, m.candidate, m.verdict, m.persisting]),
    [[{ bad: 1, of: 4 }, { bad: 1, of: 4 }, 'pass', true]],
  );
  assert.match(e.reasons[0]!, /^6\.106\.0 collapsed in 1 of 4 cold starts, 6\.105\.0 in 1 of 4: no difference .*; both collapsed \(see the reproduction java-affinity-burst\)$/);
  assert.match(e.reasons[1]!, /^with 4 cold starts per arm the collapsed count cannot detect a rate of 0\.2 against 0 .*: it needs 27 per arm$/);
  // The medians judged the three good cold starts of each arm.
  assert.deepEqual(e.metrics.find((m) => m.metric === 'qps')!.leftOut, { baseline: 1, candidate: 1 });
});

test('client versions: the outcome of an install is recorded and read back', async () => {
  await recordClientVersion(t.db, 'java', '6.110.0', 'Maven could not resolve it');
  await recordClientVersion(t.db, 'java', '6.104.0', null);
  await recordClientVersion(t.db, 'java', '6.110.0', 'still not');
  const known = await knownClientVersions(t.db, 'java');
  assert.deepEqual([known.get('6.104.0')?.ok, known.get('6.104.0')?.message], [true, null]);
  assert.deepEqual([known.get('6.110.0')?.ok, known.get('6.110.0')?.message], [false, 'still not']);
  assert.equal((await knownClientVersions(t.db, 'node')).size, 0);
});

test('watches: since X queues a gate per release and scenario against its predecessor; read back newest first; too large a backfill stores nothing', async () => {
  const spec = parseWatchSpec({ language: 'node', scenarios: ['steady-select1', { scenario: 'steady-select1', concurrency: [5], repeats: 3 }], since: '9.0.0', repeats: 3 });
  assert.ok(spec.ok);
  const listed = ['8.4.0', '9.0.0', '8.4.1', '9.1.0-beta.1', '9.1.0'];
  const gatesBefore = await countGates(t.db);
  const { id, gates } = await createWatch(t.db, t.url, spec.value, listed, { createdBy: 'alice' });
  assert.equal(gates, 4, 'two releases (9.0.0, 9.1.0) × two scenarios');
  assert.equal((await countGates(t.db)) - gatesBefore, 4);
  const w = await getWatch(t.db, id);
  assert.ok(w);
  assert.deepEqual(
    w.releases.map((r) => [r.version, r.predecessor, r.gates.map((g) => `${g.scenario} ${g.status} ${g.verdict}`)]),
    [
      ['9.1.0', '9.0.0', ['steady-select1 queued null', 'steady-select1 queued null']],
      ['9.0.0', '8.4.1', ['steady-select1 queued null', 'steady-select1 queued null']],
    ],
  );
  const gate = await getGate(t.db, w.releases[0]!.gates[1]!.gateId);
  assert.ok(gate?.ok);
  assert.deepEqual([gate.spec.baseline, gate.spec.candidate, gate.spec.concurrency, gate.createdBy], ['9.0.0', '9.1.0', [5], 'alice']);
  assert.ok((await listWatches(t.db)).some((x) => x.id === id && x.gates === 4));
  // A watch's gates wait behind people's jobs in the queue.
  const priorities = await t.db.$queryRaw<{ priority: number }[]>`SELECT priority FROM graphile_worker._private_jobs WHERE key = ${`job:${gate.jobId}`}`;
  assert.deepEqual(priorities, [{ priority: 10 }]);

  // Without since: no backfill; the watch starts after the newest release listed now.
  const fresh = parseWatchSpec({ language: 'node', scenarios: ['steady-select1'] });
  assert.ok(fresh.ok);
  const later = await createWatch(t.db, t.url, fresh.value, listed);
  assert.equal(later.gates, 0);
  assert.equal((await getWatch(t.db, later.id))?.startAfter, '9.1.0');

  const huge = parseWatchSpec({ language: 'node', scenarios: ['steady-select1', 'abort-backoff'], since: '1.0.0' });
  assert.ok(huge.ok);
  const many = Array.from({ length: 30 }, (_, i) => `1.${i}.0`);
  const watchesBefore = (await listWatches(t.db)).length;
  await assert.rejects(createWatch(t.db, t.url, huge.value, many), (e: Error) => e instanceof WatchBackfillTooLarge && /58 gates, more than 40/.test(e.message));
  assert.equal((await listWatches(t.db)).length, watchesBefore, 'nothing stored');
  assert.equal(await getWatch(t.db, 'no-such-watch'), null);
});

test("a watch's releases come a page at a time, by semantic version, with the count of all of them", async () => {
  const spec = parseWatchSpec({ language: 'node', scenarios: ['steady-select1', 'abort-backoff'], since: '9.9.0', repeats: 3 });
  assert.ok(spec.ok);
  const { id } = await createWatch(t.db, t.url, spec.value, ['9.8.0', '9.9.0', '9.10.0', '9.11.0', '9.2.0']);
  const page = async (limit: number, offset: number) => {
    const w = await getWatch(t.db, id, { limit, offset });
    return [w?.releaseCount, w?.releases.map((r) => `${r.version}:${r.gates.length}`)];
  };
  // 9.10.0 after 9.9.0, as no string order has it.
  assert.deepEqual(await page(2, 0), [3, ['9.11.0:2', '9.10.0:2']]);
  assert.deepEqual(await page(2, 2), [3, ['9.9.0:2']]);
  assert.deepEqual(await page(2, 4), [3, []]);
  assert.deepEqual(await page(0, 0), [3, []]);
});

test('the newest run of each reproduction asked for, by creation time', async () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, s));
  const job = (id: string, reproduction: string | null, s: number) =>
    t.db.job.create({ data: { id, createdAt: at(s), cellsTotal: 0, status: 'succeeded', spec: reproduction ? { reproduction, clients: [] } : { clients: [] } } });
  await job('reproA1', 'repro-a', 1);
  await job('reproA2', 'repro-a', 3);
  await job('reproA0', 'repro-a', 2);
  await job('reproB1', 'repro-b', 1);
  await job('reproN1', null, 9);
  const last = await lastReproductionRuns(t.db, ['repro-a', 'repro-b', 'repro-c']);
  assert.deepEqual(Object.fromEntries(last), { 'repro-a': 'reproA2', 'repro-b': 'reproB1' });
  assert.deepEqual([...(await lastReproductionRuns(t.db, ['repro-b']))], [['repro-b', 'reproB1']]);
  assert.equal((await lastReproductionRuns(t.db, [])).size, 0);
});

test('watches are polled: a new release gets one gate per scenario against its predecessor, once, whoever polls; a registry error changes nothing and is said', async () => {
  const spec = parseWatchSpec({ language: 'go', scenarios: ['steady-select1', 'abort-backoff'], repeats: 3 });
  assert.ok(spec.ok);
  let listed = ['1.95.0', '1.96.0'];
  let fail = false;
  const list = async () => {
    if (fail) throw new Error('HTTP 503 from the Go module proxy');
    return listed;
  };
  const { id } = await createWatch(t.db, t.url, spec.value, listed);
  const mine = async (polls: Awaited<ReturnType<typeof pollWatches>>) => polls.find((p) => p.watchId === id)!;
  assert.deepEqual((await mine(await pollWatches(t.db, t.url, list))).queued, [], 'nothing new since it was made');

  listed = [...listed, '1.96.1'];
  const first = await mine(await pollWatches(t.db, t.url, list));
  assert.deepEqual(
    first.queued.map((q) => `${q.version} vs ${q.predecessor} on ${q.scenario}`),
    ['1.96.1 vs 1.96.0 on steady-select1', '1.96.1 vs 1.96.0 on abort-backoff'],
  );
  assert.deepEqual((await mine(await pollWatches(t.db, t.url, list))).queued, [], 'polled again: nothing twice');

  fail = true;
  listed = [...listed, '1.97.0'];
  const down = await mine(await pollWatches(t.db, t.url, list));
  assert.deepEqual([down.queued, down.error], [[], 'HTTP 503 from the Go module proxy']);
  const w = await getWatch(t.db, id);
  assert.deepEqual([w?.pollError, w?.releases.map((r) => r.version)], ['HTTP 503 from the Go module proxy', ['1.96.1']], 'the watch as it was, and why');

  fail = false;
  const both = await Promise.all([pollWatches(t.db, t.url, list), pollWatches(t.db, t.url, list)]);
  const queued = (await Promise.all(both.map(mine))).flatMap((p) => p.queued);
  assert.equal(queued.length, 2, `two polls at once queue each of 1.97.0's gates once: ${JSON.stringify(queued)}`);
  const after = await getWatch(t.db, id);
  assert.deepEqual(
    after?.releases.map((r) => [r.version, r.predecessor, r.gates.length]),
    [
      ['1.97.0', '1.96.1', 2],
      ['1.96.1', '1.96.0', 2],
    ],
  );
  assert.equal(after?.pollError, null);
});
