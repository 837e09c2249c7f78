// test: yields
// docs/deploying.md, "Deploying for a team", followed as written: Debian's PostgreSQL server (`apt-get install
// postgresql`, its own cluster here), the web app in production mode with auth on and a runner
// (`npm start` with DATABASE_URL and HOST), a second runner on another machine name (`npm run runner`),
// and a token that queues a job and a release gate (the gate CLI) end to end.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request } from '../helpers/http';
import { freePort } from '../helpers/postgres';
import { startStack, type Stack } from '../helpers/stack';
import { nodeArgs } from '../../scripts/test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'bench-deploy-password';

/** Debian's server binaries (package postgresql): /usr/lib/postgresql/<major>/bin. */
function debianPostgres(): string {
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base) ? readdirSync(base).filter((d) => existsSync(path.join(base, d, 'bin', 'initdb'))) : [];
  assert.ok(majors.length > 0, "Debian's PostgreSQL server is not installed: apt-get install postgresql (.ci/run does)");
  return path.join(base, majors.sort((a, b) => Number(b) - Number(a))[0]!, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its commands run as Debian's `postgres` user. */
function asServerUser(command: string, args: string[]) {
  const [cmd, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}: ${r.stderr}${r.stdout}`);
}

let dir: string;
let bin: string;
let databaseUrl: string;
let stack: Stack;
let second: ChildProcess | undefined;
/** The auth proxy's own way in (docs/deploying.md): a Unix socket only it reaches. */
let proxySocket: string;
const secondLines: string[] = [];

before(async () => {
  bin = debianPostgres();
  dir = mkdtempSync(path.join(os.tmpdir(), 'scb-deploy-'));
  chmodSync(dir, 0o755);
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${PASSWORD}\n`);
  if (process.getuid?.() === 0) {
    const pg = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const [uid, gid] = [Number(pg.stdout.trim()), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim())];
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  // A password over TCP, as a server on another machine would have.
  asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'bench', `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=peer', '-E', 'UTF8', '--no-instructions']);
  const port = await freePort();
  asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  const created = spawnSync(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'bench', 'bench'], { env: { ...process.env, PGPASSWORD: PASSWORD }, encoding: 'utf8' });
  assert.equal(created.status, 0, created.stderr);
  databaseUrl = `postgresql://bench:${PASSWORD}@127.0.0.1:${port}/bench`;
  // The web app and a runner: `npm start` on the external database, in team mode.
  proxySocket = path.join(dir, 'web.sock');
  stack = await startStack({
    databaseUrl,
    env: { SCB_AUTH: 'on', SCB_MACHINE: 'machine-a', SCB_PUBLIC_URL: 'https://bench.example.com', SCB_AUTH_PROXY_HEADER: 'x-forwarded-email', SCB_AUTH_PROXY_SOCKET: proxySocket },
  });
  // A second runner, as on another machine.
  second = spawn(process.execPath, nodeArgs('apps/runner/src/main.ts'), {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, SCB_MACHINE: 'machine-b', SCB_ALLOW_SPANNER: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [second.stdout!, second.stderr!]) s.on('data', (c) => secondLines.push(String(c)));
});

after(async () => {
  if (process.env.SCB_TEST_DUMP) writeFileSync(process.env.SCB_TEST_DUMP, `${stack?.output.join('\n')}\n--- second runner\n${secondLines.join('')}`);
  second?.kill('SIGTERM');
  await stack?.stop();
  if (bin && dir)
    spawnSync(
      process.getuid?.() === 0 ? 'runuser' : path.join(bin, 'pg_ctl'),
      process.getuid?.() === 0 ? ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', path.join(dir, 'data'), '-m', 'fast', 'stop'] : ['-D', path.join(dir, 'data'), '-m', 'fast', 'stop'],
    );
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function api(p: string, init: RequestInit = {}) {
  const res = await fetch(stack.baseUrl + p, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A command of the README, run without blocking this process (its HTTP connections stay served). */
function cli(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...nodeArgs(`scripts/${script}`), ...args], { cwd: ROOT, env: { ...stack.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (status) => resolve({ status, stdout, stderr })));
}

test("team deployment on Debian's PostgreSQL: two runners on two machines, auth on, a token's job and gate end to end", { timeout: 900_000 }, async () => {
  // Both runners registered on the shared database, each on its own machine.
  let runners: { machine?: string; host: string; alive: boolean; languages: string[] }[] = [];
  for (let i = 0; i < 120 && runners.filter((r) => r.alive).length < 2; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    runners = (await api('/api/runners')).body.runners as typeof runners;
  }
  assert.equal(runners.filter((r) => r.alive).length, 2, `runners: ${JSON.stringify(runners)}\n${secondLines.join('')}`);

  const job = {
    name: 'deployment check',
    clients: [{ language: 'node', version: '9.0.0' }],
    configurations: [{ label: 'default' }],
    concurrency: [2],
    workload: { warmupOps: 20, measuredOps: 100 },
    target: { kind: 'fake', latencyMs: 5 },
  };
  const post = (token?: string) =>
    api('/api/jobs', { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(job) });
  assert.equal((await post()).status, 401, 'team mode: no write without an identity');

  const token = await cli('token.ts', ['create', 'release-ci'], { DATABASE_URL: databaseUrl });
  assert.equal(token.status, 0, token.stderr);
  const created = await post(token.stdout.trim());
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.url, `https://bench.example.com/jobs/${created.body.id}`, 'links come from SCB_PUBLIC_URL');

  // The gate CLI against the running server, with the token: it waits for the verdict. The spec file
  // only shortens the scenario's workload (a deployment check, not a measurement); flags say the rest.
  const specFile = path.join(dir, 'gate.json');
  writeFileSync(specFile, JSON.stringify({ workload: { warmupOps: 20, durationSeconds: 1 } }));
  const gate = await cli(
    'gate.ts',
    [
      '--server',
      stack.baseUrl,
      '--spec',
      specFile,
      // Go: a deployment check, not a measurement, and its cells cost a twentieth of Node's CPU.
      '--client',
      'go',
      '--baseline',
      '1.96.1',
      '--candidate',
      '1.96.1',
      '--scenario',
      'steady-select1',
      '--repeats',
      '3',
      '--concurrency',
      '2',
      '--timeout',
      '10',
    ],
    { SCB_TOKEN: token.stdout.trim() },
  );
  assert.ok(gate.status === 0 || gate.status === 2, `gate exit ${gate.status}: ${gate.stderr}`);
  assert.match(gate.stdout + gate.stderr, /https:\/\/bench\.example\.com\/gates\/[0-9a-z]+/);

  let stored: Record<string, unknown> = {};
  for (let i = 0; i < 300; i++) {
    stored = (await api(`/api/jobs/${created.body.id}`)).body;
    if (!['queued', 'running'].includes(stored.status as string)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  assert.equal(stored.status, 'succeeded', JSON.stringify(stored.error));
  assert.equal(stored.createdBy, 'token:release-ci');
  const gates = (await api('/api/gates')).body.gates as { createdBy: string; verdict: string | null }[];
  assert.ok(
    gates.some((g) => g.createdBy === 'token:release-ci' && g.verdict !== null),
    JSON.stringify(gates),
  );
  // Alive is a heartbeat younger than four beats (20 s): this file yields, and a starved runner's beat can
  // come late (a CI run saw one of two), so the runners get two minutes to show they are both still there.
  const aliveRunners = async () => ((await api('/api/runners')).body.runners as { machine?: string; alive: boolean }[]).filter((r) => r.alive);
  let alive = await aliveRunners();
  for (let i = 0; i < 120 && alive.length < 2; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    alive = await aliveRunners();
  }
  assert.equal(alive.length, 2, 'both runners are still there');
});

/**
 * An oauth2-proxy-like hop, as docs/deploying.md puts oauth2-proxy in front: it signs users in itself
 * (here oauth2-proxy's htpasswd mode: Basic credentials), replaces whatever user headers the client
 * sent with the signed-in user's, and forwards to the app's auth-proxy socket.
 */
async function startAuthProxy(users: Record<string, string>): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const [user, password] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':');
    if (!user || users[user] !== password) {
      res.writeHead(401, { 'www-authenticate': 'Basic' }).end('sign in\n');
      return;
    }
    const headers: http.OutgoingHttpHeaders = { ...req.headers, 'x-forwarded-email': `${user}@example.com` };
    delete headers['x-forwarded-user'];
    const upstream = http.request({ socketPath: proxySocket, path: req.url, method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (e) => res.writeHead(502).end(String(e)));
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

test("the auth-proxy recipe: users arrive through the proxy's own socket; the same header sent straight to the app names no one", async () => {
  const hop = await startAuthProxy({ dave: 'dave-password' });
  try {
    const job = JSON.stringify({
      name: 'through the auth proxy',
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'a' }],
      concurrency: [1],
      workload: { measuredOps: 5 },
      requirements: { minCores: 1024 },
    });
    const json = { 'content-type': 'application/json' };
    const dave = { ...json, authorization: `Basic ${Buffer.from('dave:dave-password').toString('base64')}` };
    const through = await request(hop.url, 'POST', '/api/jobs', dave, job);
    assert.equal(through.status, 201, through.text);
    // A client's own user header is replaced by the proxy's.
    const forgedThrough = await request(hop.url, 'POST', '/api/jobs', { ...dave, 'x-forwarded-email': 'mallory@example.com' }, job);
    assert.equal(forgedThrough.status, 201, forgedThrough.text);
    for (const id of [through.body.id, forgedThrough.body.id]) {
      assert.equal((await api(`/api/jobs/${id}`)).body.createdBy, 'proxy:dave@example.com');
      assert.equal((await request(hop.url, 'POST', `/api/jobs/${id}/cancel`, dave, '{}')).status, 200);
    }
    assert.equal((await request(hop.url, 'POST', '/api/jobs', json, job)).status, 401, 'the proxy signs in first');
    // Straight to the app's TCP port, from the address the TLS proxy (and the auth proxy) would use too.
    const direct = await request(stack.baseUrl, 'POST', '/api/jobs', { ...json, 'x-forwarded-email': 'dave@example.com' }, job);
    assert.equal(direct.status, 401, direct.text);
    console.log(
      `# auth-proxy recipe: through the hop 201 (createdBy proxy:dave@example.com, a client's x-forwarded-email replaced), without signing in 401, the header sent straight to 127.0.0.1 ${direct.status}`,
    );
  } finally {
    hop.close();
  }
});
