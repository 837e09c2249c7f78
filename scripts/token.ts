// `npm run token -- create <name> [--admin]`, `list`, `revoke <name>`: API tokens for CI and scripts.
// Works on DATABASE_URL, else on the embedded PostgreSQL (the running one of `npm start`, or started
// for this command and stopped after it). A token is printed once; only its hash is stored.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDb, createToken, listTokens, revokeToken, TokenError, type Db } from '@scb/db';
import { embeddedDatabaseUrl, migrate, startEmbeddedPostgres, type EmbeddedDb } from '@scb/db/setup';
import { env } from './env';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run token -- create <name> [--admin] | list | revoke <name>
  create   prints a new token once (Authorization: Bearer <token>); --admin may cancel anyone's job
  list     names, roles, created, last used, revoked
  revoke   the token stops working at once`;

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

async function withDatabase<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  let url = env.DATABASE_URL;
  let embedded: EmbeddedDb | undefined;
  if (!url) {
    // The running cluster's password is in its data dir (readable by the user who started it).
    const dataDir = path.join(path.resolve(env.SCB_DATA_DIR ?? path.join(ROOT, '.data')), 'postgres');
    url = embeddedDatabaseUrl(dataDir, env.SCB_PG_PORT);
    if (!url || !(await reachable(url))) {
      embedded = await startEmbeddedPostgres({ dataDir, port: env.SCB_PG_PORT });
      url = embedded.url;
    }
  }
  await migrate(url);
  const db = createDb(url);
  try {
    return await fn(db);
  } finally {
    await db.$disconnect();
    await embedded?.stop();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { admin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  const [command, name, ...extra] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (extra.length > 0 || (command !== 'list' && !name) || !['create', 'list', 'revoke'].includes(command)) {
    process.stderr.write(`token: ${['create', 'list', 'revoke'].includes(command) ? `"${command}" takes ${command === 'list' ? 'no name' : 'one name'}` : `unknown command "${command}"`}\n${USAGE}\n`);
    return 2;
  }
  return withDatabase(async (db) => {
    if (command === 'create') {
      const token = await createToken(db, name!, values.admin ?? false);
      process.stderr.write(`token "${name}"${values.admin ? ' (admin)' : ''} created; it is shown this once:\n`);
      process.stdout.write(`${token}\n`);
      return 0;
    }
    if (command === 'revoke') {
      if (await revokeToken(db, name!)) {
        process.stderr.write(`token "${name}" revoked\n`);
        return 0;
      }
      process.stderr.write(`token: no live token named "${name}"\n`);
      return 1;
    }
    const rows = await listTokens(db);
    if (rows.length === 0) process.stderr.write('no tokens\n');
    for (const t of rows)
      process.stdout.write(
        `${t.name}\t${t.admin ? 'admin' : 'member'}\tcreated ${t.createdAt.toISOString()}\t${t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : 'never used'}${t.revokedAt ? `\trevoked ${t.revokedAt.toISOString()}` : ''}\n`,
      );
    return 0;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`token: ${e instanceof TokenError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? '' : 'error: '}${(e as Error).message}\n`);
    process.exit(e instanceof TokenError ? 1 : 2);
  },
);
