// The migrated database serves every model of prisma/schema.prisma, and the migrator keeps
// Prisma's own bookkeeping so `prisma migrate deploy` can take over where an engine exists.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { createDb, type Db } from '@scb/db';
import { MIGRATIONS_DIR, migrate } from '@scb/db/setup';
import { startTestDatabase, type TestDatabase } from './helpers/postgres';

let tdb: TestDatabase;
let db: Db;
before(async () => {
  tdb = await startTestDatabase();
  db = createDb(tdb.url);
});
after(async () => {
  await db?.$disconnect();
  await tdb?.stop();
});

test('every model of the schema can be written and read back', async () => {
  const schema = readFileSync(path.join(MIGRATIONS_DIR, '../schema.prisma'), 'utf8');
  const models = [...schema.matchAll(/^model (\w+) \{/gm)].map((m) => m[1]).sort();
  assert.deepEqual(models, ['Cell', 'CellResult', 'ChannelStat', 'ClientVersion', 'Gate', 'Job'], 'this test covers every model; extend it with the schema');

  await db.job.create({ data: { id: 'job1', spec: { clients: [] }, cellsTotal: 1, environment: { cores: 2 } } });
  const cell = await db.cell.create({
    data: { jobId: 'job1', index: 0, clientLanguage: 'node', clientVersion: '9.0.0', configLabel: 'on', config: { label: 'on', grpcGcp: 'on' }, concurrency: 10, repeat: 1, progress: { phase: 'measure', done: 5 } },
  });
  await db.cellResult.create({
    data: { cellId: cell.id, count: 100, errorCount: 1, errors: { UNAVAILABLE: 1 }, elapsedMs: 1000.5, qps: 99.9, p50Ms: 65.1, p90Ms: 70, p99Ms: 80, p999Ms: 90, maxMs: 95, histogram: 'HISTFAAA', timeline: [{ second: 1, count: 100 }], cpuMs: 250, serverRpcs: 102 },
  });
  await db.channelStat.createMany({ data: [0, 1].map((connection) => ({ cellId: cell.id, connection, peer: `127.0.0.1:${5000 + connection}`, rpcs: 51, peakInFlight: 5 })) });

  const back = await db.job.findUniqueOrThrow({ where: { id: 'job1' }, include: { cells: { include: { result: true, channels: true } } } });
  assert.equal(back.status, 'queued');
  assert.deepEqual(back.environment, { cores: 2 });
  assert.equal(back.cells[0].status, 'pending');
  assert.deepEqual(back.cells[0].config, { label: 'on', grpcGcp: 'on' });
  assert.equal(back.cells[0].result?.p50Ms, 65.1);
  assert.deepEqual(back.cells[0].result?.errors, { UNAVAILABLE: 1 });
  assert.equal(back.cells[0].channels.length, 2);

  await db.clientVersion.create({ data: { language: 'java', version: '6.109.0', ok: false, message: 'a jar is missing' } });
  await db.clientVersion.upsert({ where: { language_version: { language: 'java', version: '6.109.0' } }, create: { language: 'java', version: '6.109.0', ok: true }, update: { ok: true, message: null } });
  assert.deepEqual(await db.clientVersion.findMany({ select: { language: true, version: true, ok: true, message: true } }), [{ language: 'java', version: '6.109.0', ok: true, message: null }]);

  await db.gate.create({ data: { id: 'gate1', jobId: 'job1', spec: { scenario: 'affinity-burst' } } });
  await db.gate.update({ where: { id: 'gate1' }, data: { verdict: 'fail', evaluation: { reasons: ['qps at C=400 fell'] }, finishedAt: new Date() } });
  const gate = await db.gate.findUniqueOrThrow({ where: { jobId: 'job1' }, include: { job: { select: { status: true } } } });
  assert.equal(gate.verdict, 'fail');
  assert.deepEqual(gate.evaluation, { reasons: ['qps at C=400 fell'] });
  assert.equal(gate.job.status, 'queued');
  await assert.rejects(db.gate.create({ data: { id: 'gate2', jobId: 'job1', spec: {} } }), 'one gate per job');

  // Cells, results, channel stats and the gate belong to their job.
  await db.job.delete({ where: { id: 'job1' } });
  assert.equal(await db.gate.count(), 0);
  assert.equal(await db.cell.count(), 0);
  assert.equal(await db.cellResult.count(), 0);
  assert.equal(await db.channelStat.count(), 0);
});

test('migrations are recorded as Prisma records them, and applying again changes nothing', async () => {
  const c = new pg.Client({ connectionString: tdb.url });
  await c.connect();
  try {
    const rows = (await c.query('SELECT * FROM "_prisma_migrations" ORDER BY migration_name')).rows;
    const folders = readdirSync(MIGRATIONS_DIR).filter((f) => f !== 'migration_lock.toml').sort();
    assert.deepEqual(rows.map((r) => r.migration_name), folders);
    for (const row of rows) {
      const sql = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'), 'utf8');
      assert.equal(row.checksum, createHash('sha256').update(sql).digest('hex'));
      assert.ok(row.finished_at instanceof Date);
      assert.equal(row.applied_steps_count, 1);
      assert.equal(row.rolled_back_at, null);
    }
    const again = await migrate(tdb.url);
    assert.deepEqual(again.applied, []);
    assert.deepEqual(again.skipped, folders);
  } finally {
    await c.end();
  }
});
