// test: yields
// Stored identities become typed (prisma/migrations/*_typed_identities): a database written before it,
// with a token and people of the same names, finished jobs and a judged gate, keeps each row's meaning.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { migrate, MIGRATIONS_DIR } from '@scb/db/setup';
import { adminEntryIssue, identityKind, personIdentity, proxyIdentity, tokenIdentity } from '@scb/shared/identity';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres';

const TYPED = readdirSync(MIGRATIONS_DIR).find((f) => f.endsWith('_typed_identities'))!;
let tdb: TestDatabase;
let client: pg.Client;

before(async () => {
  tdb = await startTestDatabase();
  client = new pg.Client({ connectionString: tdb.url });
  await client.connect();
  // The test database comes migrated: start from an empty schema and apply the migrations before this one.
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  const earlier = mkdtempSync(path.join(os.tmpdir(), 'scb-migrations-'));
  for (const f of readdirSync(MIGRATIONS_DIR)) if (f === 'migration_lock.toml' || f < TYPED) cpSync(path.join(MIGRATIONS_DIR, f), path.join(earlier, f), { recursive: true });
  await migrate(tdb.url, earlier);
  rmSync(earlier, { recursive: true, force: true });
});

after(async () => {
  await client?.end();
  await tdb?.stop();
});

test('stored names keep their meaning: a token is token:, a bare name a proxy user, an e-mail a person; finished rows stay immutable', async () => {
  await client.query(`INSERT INTO "ApiToken" (id, name, hash) VALUES ('t1', 'bob', 'h1'), ('t2', 'release-ci', 'h2')`);
  const job = (id: string, status: string, createdBy: string | null, cancelledBy: string | null = null) =>
    client.query(`INSERT INTO "Job" (id, spec, "cellsTotal", status, "createdBy", "cancelledBy") VALUES ($1, '{}', 1, $2, $3, $4)`, [id, status, createdBy, cancelledBy]);
  await job('j-token', 'succeeded', 'release-ci');
  await job('j-bob', 'cancelled', 'bob', 'bob');
  await job('j-person', 'queued', 'Alice@Example.com', null);
  await job('j-proxy', 'failed', 'carol', 'admin@example.com');
  await job('j-local', 'succeeded', 'local');
  await job('j-nobody', 'succeeded', null);
  await client.query(`INSERT INTO "Gate" (id, spec, "jobId", verdict, "createdBy") VALUES ('g1', '{}', 'j-token', 'pass', 'release-ci')`);

  const report = await migrate(tdb.url);
  assert.deepEqual(report.applied.slice(0, 1), [TYPED]);

  const jobs = Object.fromEntries((await client.query('SELECT id, "createdBy", "cancelledBy" FROM "Job"')).rows.map((r) => [r.id, [r.createdBy, r.cancelledBy]]));
  assert.deepEqual(jobs, {
    'j-token': ['token:release-ci', null],
    'j-bob': ['token:bob', 'token:bob'],
    'j-person': ['alice@example.com', null],
    'j-proxy': ['proxy:carol', 'admin@example.com'],
    'j-local': ['local', null],
    'j-nobody': [null, null],
  });
  assert.equal((await client.query(`SELECT "createdBy" FROM "Gate" WHERE id = 'g1'`)).rows[0].createdBy, 'token:release-ci');
  // The triggers are back: a finished job and a judged gate refuse changes again.
  await assert.rejects(client.query(`UPDATE "Job" SET "createdBy" = 'x' WHERE id = 'j-token'`), /is finished/);
  await assert.rejects(client.query(`UPDATE "Gate" SET "createdBy" = 'x' WHERE id = 'g1'`), /is judged/);
});

test('each kind of identity has its own form: none can be written as another', () => {
  assert.equal(tokenIdentity('bob'), 'token:bob');
  assert.equal(proxyIdentity('bob'), 'proxy:bob');
  assert.equal(proxyIdentity('a b'), null, 'no spaces or control characters');
  assert.equal(personIdentity(' Alice@Example.COM '), 'alice@example.com');
  for (const notEmail of ['admin', 'token:bob@example.com', 'proxy:x@example.com', 'a@b', 'a b@example.com', 'local']) assert.equal(personIdentity(notEmail), null, notEmail);
  assert.deepEqual(['local', 'token:bob', 'proxy:bob', 'bob@example.com'].map(identityKind), ['local', 'token', 'proxy', 'person']);
  assert.equal(adminEntryIssue('alice@example.com'), null);
  assert.equal(adminEntryIssue('token:ops'), null);
  assert.equal(adminEntryIssue('proxy:carol'), null);
  assert.match(adminEntryIssue('admin')!, /SCB_ADMINS: "admin" is not an identity/);
  assert.match(adminEntryIssue('Alice@example.com')!, /lower-case/);
});
