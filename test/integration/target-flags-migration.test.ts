// test: yields
// Jobs queued before target kinds had flags of their own carry the flag `emulator`; the migration
// 20261212095000_target_flags makes it `target:emulator`, the only name placement knows, and leaves
// every other flag and job as it was. Where graphile-worker's schema is not installed it does nothing.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { ensureQueue, releaseQueue } from '@scb/db';
import { MIGRATIONS_DIR } from '@scb/db/setup';
import { missingFor } from '@scb/shared/placement';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres';

const FOLDER = readdirSync(MIGRATIONS_DIR).find((f) => f.endsWith('_target_flags'))!;
const SQL = readFileSync(path.join(MIGRATIONS_DIR, FOLDER, 'migration.sql'), 'utf8');
let tdb: TestDatabase;
let client: pg.Client;

before(async () => {
  tdb = await startTestDatabase();
  await ensureQueue(tdb.url);
  client = new pg.Client({ connectionString: tdb.url });
  await client.connect();
});

after(async () => {
  await client?.end();
  await releaseQueue();
  await tdb?.stop();
});

const queue = (key: string, flags: string[]) => client.query(`SELECT graphile_worker.add_job('run-job', json_build_object('jobId', $1::text), job_key => $1, flags => $2::text[])`, [key, flags]);
const flagsOf = async (key: string) => (await client.query<{ flags: Record<string, boolean> | null }>('SELECT flags FROM graphile_worker.jobs WHERE key = $1', [key])).rows[0]?.flags;

test("a queued job's legacy flag `emulator` becomes `target:emulator`; other flags and jobs stay", async () => {
  await queue('old', ['emulator', 'lang:node', 'cores>=4']);
  await queue('new', ['lang:go', 'target:emulator']);
  await queue('none', []);
  const before = { new: await flagsOf('new'), none: await flagsOf('none') };
  await client.query(SQL);
  assert.deepEqual(Object.keys((await flagsOf('old')) ?? {}).sort(), ['cores>=4', 'lang:node', 'target:emulator']);
  assert.deepEqual({ new: await flagsOf('new'), none: await flagsOf('none') }, before, 'the others unchanged');
  // What a runner without the emulator now reads of the old job: the kind, by its name.
  const runner = { cores: 8, memoryGiB: 8, languages: ['node'], targets: ['fake'], labels: [] };
  assert.deepEqual(
    Object.keys((await flagsOf('old')) ?? {})
      .map((f) => missingFor(f, runner))
      .filter(Boolean),
    ['the Cloud Spanner emulator'],
  );
  await client.query(SQL);
  assert.deepEqual(Object.keys((await flagsOf('old')) ?? {}).sort(), ['cores>=4', 'lang:node', 'target:emulator'], 'applied again, nothing changes');
});

test("without graphile-worker's schema the migration does nothing and does not fail", async () => {
  await client.query('BEGIN');
  try {
    await client.query('ALTER SCHEMA graphile_worker RENAME TO graphile_worker_elsewhere');
    await client.query(SQL);
  } finally {
    await client.query('ROLLBACK');
  }
});
