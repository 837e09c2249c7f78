// test: yields
// Security probes of issue 35 (infra), on `npm start` as the README runs it: anonymous requests cannot
// make the server spawn a registry look-up each (the npm registry is down: a local server answering 503
// that counts what it is asked), and the embedded PostgreSQL is not postgres:postgres to every local user
// while `npm run token` still reaches it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startStack, type Stack } from '../../helpers/stack';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let npmAsked = 0;
const registry = http.createServer((req, res) => {
  if (req.url?.includes('spanner')) npmAsked++;
  res.writeHead(503).end('down');
});
let stack: Stack;
const rows: [string, string][] = [];

before(async () => {
  await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
  const port = (registry.address() as { port: number }).port;
  // npm's client honours npm_config_registry; no retries, so each `npm view` is one request.
  stack = await startStack({ embedded: true, env: { npm_config_registry: `http://127.0.0.1:${port}/`, npm_config_fetch_retries: '0', SCB_WATCH_POLL: 'off' } });
});
after(async () => {
  await stack?.stop();
  await new Promise<void>((r) => registry.close(() => r()));
  console.log('# probe                                                        status');
  for (const [probe, status] of rows) console.log(`# ${probe.padEnd(60)} ${status}`);
});

test('20 anonymous GET /api/versions?language=node with the registry down cost one npm view', { timeout: 600_000 }, async () => {
  const ask = () => Promise.all(Array.from({ length: 10 }, () => fetch(`${stack.baseUrl}/api/versions?language=node`)));
  const answers = [...(await ask()), ...(await ask())];
  const statuses = [...new Set(answers.map((r) => r.status))];
  const body = (await answers[0]!.json()) as { error?: string };
  rows.push(['anonymous /api/versions x20, registry down: npm views spawned', `${npmAsked} (answers ${statuses.join(', ')})`]);
  assert.deepEqual(statuses, [502]);
  assert.match(body.error ?? '', /could not ask the npm registry/);
  assert.equal(npmAsked, 1, 'one look-up for 20 requests within the failure TTL');
});

test('the embedded PostgreSQL refuses postgres:postgres; its password file is 0600; npm run token reaches it', { timeout: 600_000 }, async () => {
  const c = new pg.Client({ host: '127.0.0.1', port: Number(stack.env.SCB_PG_PORT), user: 'postgres', password: 'postgres', database: 'bench', connectionTimeoutMillis: 5000 });
  const login = await c.connect().then(
    () => 'accepted',
    (e: { code?: string }) => `refused (${e.code})`,
  );
  await c.end().catch(() => {});
  rows.push(['postgres:postgres on the embedded PostgreSQL of npm start', login]);
  const mode = (statSync(path.join(stack.env.SCB_DATA_DIR!, 'postgres', 'scb-password')).mode & 0o777).toString(8);
  rows.push(['its password file (SCB_DATA_DIR/postgres/scb-password)', `mode ${mode}`]);
  // As an operator runs it beside `npm start`: it reads the running cluster's password in the data dir.
  const token = spawnSync('npm', ['run', '-s', 'token', '--', 'create', 'infra-probe'], { cwd: ROOT, env: stack.env, encoding: 'utf8' });
  rows.push(['npm run token -- create, beside npm start', token.status === 0 ? 'works' : `exit ${token.status}`]);
  assert.equal(login, 'refused (28P01)');
  assert.equal(mode, '600');
  assert.equal(token.status, 0, token.stderr);
  // It used the running cluster: starting its own on that data dir and port would have failed.
  assert.match(token.stdout.trim(), /^scb_[A-Za-z0-9_-]{43}$/);
});
