import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { createDb, releaseQueue, type Db } from '@scb/db';
import { startEmbeddedPostgres, migrate } from '@scb/db/setup';
import { freePort } from '../../apps/runner/src/net';

export { freePort };

export interface TestDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * `npm test` starts one PostgreSQL cluster for the whole run and a migrated template database in it
 * (scripts/test.ts); each test file then gets a database of its own, copied from the template.
 */
export const TEST_CLUSTER_ENV = 'SCB_TEST_PG_URL';
export const TEST_TEMPLATE = 'scb_template';

async function admin<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

/**
 * A real, migrated PostgreSQL for a test: a database of its own in the run's cluster, or, for a file
 * run by itself, a fresh embedded cluster in a temporary folder.
 */
export async function startTestDatabase(): Promise<TestDatabase> {
  const cluster = process.env[TEST_CLUSTER_ENV];
  if (cluster) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await admin(cluster, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${TEST_TEMPLATE}`));
    const url = new URL(cluster);
    url.pathname = `/${name}`;
    return { url: url.toString(), stop: () => admin(cluster, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}) };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-test-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort(), database: 'bench_test' });
  await migrate(pg.url);
  return {
    url: pg.url,
    async stop() {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A migrated test database and its client for one test file: started before its tests, stopped after them. */
export function useTestDatabase(): { readonly db: Db; readonly url: string } {
  let tdb: TestDatabase;
  let db: Db;
  before(async () => {
    tdb = await startTestDatabase();
    db = createDb(tdb.url);
  });
  after(async () => {
    await releaseQueue();
    await db?.$disconnect();
    await tdb?.stop();
  });
  return {
    get db() {
      return db;
    },
    get url() {
      return tdb.url;
    },
  };
}
