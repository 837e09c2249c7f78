import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, migrate } from '@scb/db/setup';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

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
