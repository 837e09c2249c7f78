import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { createDb, releaseQueue, type Db } from '@scb/db';
import { startEmbeddedPostgres, migrate } from '@scb/db/setup';
import { freePort } from '../../apps/runner/src/net';

export { freePort };

export interface TestDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A real, migrated PostgreSQL for a test: a fresh embedded cluster in a temporary folder. */
export async function startTestDatabase(): Promise<TestDatabase> {
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
