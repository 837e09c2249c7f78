// test: yields
// Issue 35's outsider probes of reads and identities, against a team-mode stack with private reads
// (SCB_AUTH_READ=on), a real OpenID Connect provider on loopback and Debian's chromium:
// - every page and route of the app, enumerated from apps/web/app (a page added later is covered
//   without editing this file), answers an anonymous request with a sign-in redirect or 401 and no data;
// - a person is named by a verified e-mail and nothing else: provider accounts without one cannot sign
//   in, and no display name, token name or proxy user stands for an admin or for another identity;
// - malformed forwarded headers never make a 500, and a session does not depend on X-Forwarded-Proto;
// - the peer address the auth proxy's header is checked against cannot be forged on any start path.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/browser';
import { type Answer, request } from '../../helpers/http';
import { signInThroughProvider, startOidcProvider, type OidcProvider } from '../../helpers/oidc';
import { freePort } from '../../helpers/postgres';
import { QUEUED_JOB, REFUSED_GATE, REFUSED_GATE_DATABASE, stackToken, startStack, type Stack } from '../../helpers/stack';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const APP_DIR = path.join(ROOT, 'apps/web/app');
const PROXY = '127.0.0.2';
const SECRET_NAME = 'secret-release-candidate-job';
let stack: Stack;
let browser: Browser;
/** The one page every sign-in of the file runs in (signIn). */
let page: Page;
let idp: OidcProvider;
let appOrigin: string;
let direct: string;
/** The probe table of the closing note: probe, status. */
const table: string[] = [];

before(async () => {
  const appPort = await freePort();
  appOrigin = `http://localhost:${appPort}`;
  direct = `http://127.0.0.1:${appPort}`;
  idp = await startOidcProvider(appOrigin, {
    // A provider account with no e-mail whose display name is an admin's address.
    noemail: { name: 'admin@example.com', preferred_username: 'admin@example.com' },
    // The admin's address, not verified by the provider.
    unverified: { email: 'admin@example.com', email_verified: false },
    // A display name that is also a token's name.
    bob: { name: 'bob', preferred_username: 'bob' },
  });
  stack = await startStack({
    port: appPort,
    env: {
      SCB_AUTH: 'on',
      SCB_AUTH_READ: 'on',
      SCB_PUBLIC_URL: appOrigin,
      SCB_OIDC_ISSUER: idp.issuer,
      SCB_OIDC_CLIENT_ID: idp.clientId,
      SCB_OIDC_CLIENT_SECRET: idp.secret,
      SCB_OIDC_NAME: 'Test SSO',
      AUTH_SECRET: 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(8),
      SCB_AUTH_PROXY_HEADER: 'x-auth-user',
      SCB_AUTH_PROXY_ADDRESSES: PROXY,
      SCB_ADMINS: 'admin@example.com',
      SCB_SPANNER_DATABASES: REFUSED_GATE_DATABASE,
    },
  });
  browser = await launchChromium();
  page = await browser.newPage();
});

after(async () => {
  console.log(`# access probes (HTTP status after the change):\n${table.map((r) => `#   ${r}`).join('\n')}`);
  await browser?.close();
  idp?.close();
  if (stack) assert.equal(await stack.stop(), 0, stack.output.slice(-20).join('\n'));
});

const call = (method: string, p: string, headers: Record<string, string> = {}, body?: unknown, from = '127.0.0.1') =>
  request(direct, method, p, { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers }, body === undefined ? undefined : JSON.stringify(body), { localAddress: from });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const JOB = { ...QUEUED_JOB, name: SECRET_NAME };
const GATE = REFUSED_GATE;

/** Every page and route handler of the app, as URL path templates ("/jobs/[id]"), from the app directory. */
function appRoutes(): { template: string; kind: 'page' | 'route' }[] {
  const out: { template: string; kind: 'page' | 'route' }[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p, /^\(.*\)$/.test(name) ? segments : [...segments, name]);
      else if (/^page\.tsx?$/.test(name)) out.push({ template: `/${segments.join('/')}`, kind: 'page' });
      else if (/^route\.tsx?$/.test(name)) out.push({ template: `/${segments.join('/')}`, kind: 'route' });
    }
  };
  walk(APP_DIR, []);
  return out;
}

test('private means private: every page and route of the app answers an anonymous request with a sign-in redirect or 401 and no data', { timeout: 600_000 }, async () => {
  const token = await stackToken(stack, 'reader');
  const job = await call('POST', '/api/jobs', bearer(token), JOB);
  assert.equal(job.status, 201, JSON.stringify(job.body));
  const gate = await call('POST', '/api/gates', bearer(token), GATE);
  assert.equal(gate.status, 201, JSON.stringify(gate.body));
  const ids: Record<string, string> = { jobs: job.body.id as string, gates: gate.body.id as string, watch: 'nowatch', watches: 'nowatch' };
  const open = new Set(['/api/auth/[...nextauth]', '/signin-refused', '/api/health']);
  const routes = appRoutes();
  assert.ok(routes.length >= 30, `routes found: ${routes.length}`);
  assert.deepEqual(
    routes
      .filter((r) => open.has(r.template))
      .map((r) => r.template)
      .sort(),
    [...open].sort(),
    'the way in and the health check exist (and are all that stays open)',
  );
  const probed: string[] = [];
  for (const r of routes.filter((r) => !open.has(r.template))) {
    const url = r.template.replace(/\/\[([^\]]+)\]/g, (_m, _param, offset: number) => {
      const parent = r.template.slice(0, offset).split('/').pop()!;
      return `/${ids[parent] ?? 'x'}`;
    });
    const query = url === '/compare' || url === '/api/compare' ? `?jobs=${ids.jobs}` : url.includes('versions') ? '?language=node' : '';
    for (const [how, headers] of [
      ['plain', {}],
      ['RSC', { rsc: '1' }],
      ['bad token', bearer('scb_not-a-token')],
    ] as const) {
      const a = await call('GET', url + query, headers);
      if (r.kind === 'page') {
        assert.equal(a.status, 303, `${how} GET ${url}: ${a.status} ${a.text.slice(0, 200)}`);
        // Next.js writes a redirect to its own origin as a path.
        const to = new URL(a.headers.location ?? '', appOrigin);
        assert.equal(to.origin + to.pathname, `${appOrigin}/api/auth/signin`, `${url} redirects to sign in on the public URL: ${a.headers.location}`);
      } else assert.equal(a.status, 401, `${how} GET ${url}: ${a.status} ${a.text.slice(0, 200)}`);
      // (A job's id may come back only where the request itself carried it, in the sign-in link.)
      for (const secret of [SECRET_NAME, 'token:reader', 'minCores', ...(url.includes(ids.jobs) || query.includes(ids.jobs) ? [] : [ids.jobs])])
        assert.ok(!a.text.includes(secret), `${how} GET ${url} shows "${secret}"`);
    }
    // The same request with the token is served (the route exists and the ids are real).
    const served = await call('GET', url + query, bearer(token));
    assert.ok((served.status < 500 && ![401, 403].includes(served.status)) || served.status === 502, `GET ${url} with a token: ${served.status} ${served.text.slice(0, 300)}`);
    if (url === '/' || url === `/jobs/${ids.jobs}`) assert.ok(served.text.includes(SECRET_NAME), `${url} shows the job to a reader`);
    probed.push(`${url} ${r.kind === 'page' ? 303 : 401}`);
  }
  table.push(`anonymous GET of ${probed.length} enumerated pages and routes (plain, RSC, bad token): pages 303 to sign-in, routes 401, no data`);
  // Settings named the admins, the proxy header and its addresses to anyone.
  const settings = await call('GET', '/settings');
  assert.ok(!settings.text.includes('admin@example.com') && !settings.text.includes('x-auth-user') && !settings.text.includes(PROXY));
  table.push(`anonymous GET /settings: ${settings.status}`);
  await call('POST', `/api/jobs/${ids.jobs}/cancel`, bearer(token), {});
});

/**
 * The provider's `login` signed in (or refused) on the file's page, from no cookie at all: the app's and
 * the provider's of an earlier sign-in are cleared first, as in a browser that never signed in. Where the
 * provider sent it back to (the page stays there), and the app's cookies then. One page, not a context and
 * page each: every page was a window of its own, and Chromium started a renderer for each window's
 * top-chrome WebUI (a median 0.6 s of CPU apiece in a CI run's samples) beside the page's own.
 */
async function signIn(login: string): Promise<{ landed: string; cookie: string }> {
  await page.context().clearCookies();
  await signInThroughProvider(page, appOrigin, login, 'Test SSO');
  const cookie = (await page.context().cookies(appOrigin)).map((c) => `${c.name}=${c.value}`).join('; ');
  return { landed: page.url(), cookie };
}

test('identities nobody can borrow: no verified e-mail, no sign-in; no display name, token or proxy user stands for an admin or another identity', { timeout: 600_000 }, async () => {
  const bobToken = await stackToken(stack, 'bob');
  const victim = async () => {
    const r = await call('POST', '/api/jobs', bearer(bobToken), JOB);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.id as string;
  };
  const cancel = (id: string, headers: Record<string, string>, from?: string) => call('POST', `/api/jobs/${id}/cancel`, headers, {}, from);

  for (const [login, reason, sentence] of [
    ['noemail', 'no-email', /sent no e-mail address/],
    ['unverified', 'unverified', /has not verified the e-mail address/],
    ['bob', 'no-email', /sent no e-mail address/],
  ] as const) {
    const { landed, cookie } = await signIn(login);
    assert.equal(landed, `${appOrigin}/signin-refused?reason=${reason}`, `${login}: ${landed}`);
    // The page it was sent back to says why.
    assert.match(await page.getByTestId('signin-refused').innerText(), sentence);
    const id = await victim();
    const r = await cancel(id, { cookie });
    assert.equal(r.status, 401, `${login} cancelling token:bob's job: ${JSON.stringify(r.body)}`);
    const who = await call('GET', '/', { cookie });
    assert.equal(who.status, 303, `${login} has no identity to read with`);
    table.push(`provider account "${login}" (${reason}) signs in: refused, lands on /signin-refused; cancels another's job: ${r.status}`);
  }

  // A verified person is named by the e-mail: alice is not bob and not an admin.
  const alice = await signIn('alice');
  assert.equal(new URL(alice.landed).pathname, '/');
  const aliceReads = await call('GET', '/', { cookie: alice.cookie });
  assert.equal(aliceReads.status, 200);
  assert.match(aliceReads.text, /data-testid="identity">alice@example\.com/);
  const bobsJob = await victim();
  const byAlice = await cancel(bobsJob, { cookie: alice.cookie });
  assert.equal(byAlice.status, 403, JSON.stringify(byAlice.body));
  table.push(`verified person alice@example.com cancels token:bob's job: ${byAlice.status}`);
  // The proxy's user "bob" and the token "bob" are two identities.
  const byProxyBob = await cancel(bobsJob, { 'x-auth-user': 'bob' }, PROXY);
  assert.equal(byProxyBob.status, 403, JSON.stringify(byProxyBob.body));
  table.push(`proxy user "bob" cancels token:bob's job: ${byProxyBob.status}`);
  // ...and the proxy's user "admin@example.com" is not the person admin@example.com of SCB_ADMINS.
  const byProxyAdmin = await cancel(bobsJob, { 'x-auth-user': 'admin@example.com' }, PROXY);
  assert.equal(byProxyAdmin.status, 403, JSON.stringify(byProxyAdmin.body));
  table.push(`proxy user "admin@example.com" cancels token:bob's job: ${byProxyAdmin.status}`);
  const byBob = await cancel(bobsJob, bearer(bobToken));
  assert.equal(byBob.status, 200);
  const stored = (await call('GET', `/api/jobs/${bobsJob}`, bearer(bobToken))).body;
  assert.deepEqual([stored.createdBy, stored.cancelledBy], ['token:bob', 'token:bob']);
  const aliceJob = await call('POST', '/api/jobs', { cookie: alice.cookie }, JOB);
  assert.equal(aliceJob.status, 201);
  assert.equal((await call('GET', `/api/jobs/${aliceJob.body.id}`, bearer(bobToken))).body.createdBy, 'alice@example.com');
  // The admin, verified, may cancel it.
  const admin = await signIn('admin');
  assert.equal((await cancel(aliceJob.body.id as string, { cookie: admin.cookie })).status, 200);
  table.push(`verified admin@example.com (SCB_ADMINS) cancels alice's job: 200`);

  // Malformed forwarded headers never make a 500; the session does not depend on them.
  const forwardedHeaders: Record<string, string>[] = [
    { 'x-forwarded-proto': '%' },
    { 'x-forwarded-proto': 'a b' },
    { 'x-forwarded-proto': 'javascript' },
    { 'x-forwarded-host': 'a b' },
    { 'x-forwarded-proto': 'https' },
  ];
  for (const forwarded of forwardedHeaders) {
    const label = Object.entries(forwarded)[0]!.join(': ');
    const answers: Answer[] = [
      await call('GET', '/', forwarded),
      await call('GET', '/settings', { ...forwarded, cookie: alice.cookie }),
      await call('GET', '/api/jobs', { ...forwarded, cookie: alice.cookie }),
      await call('GET', '/api/jobs', forwarded),
      await call('POST', '/api/jobs', forwarded, JOB),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [303, 200, 200, 401, 401],
      `${label}: ${answers.map((a) => `${a.status} ${a.text.slice(0, 120)}`).join(' | ')}`,
    );
    table.push(
      `${label}: anonymous / ${answers[0]!.status}, signed-in /settings ${answers[1]!.status}, /api/jobs ${answers[2]!.status}, anonymous /api/jobs ${answers[3]!.status}, anonymous POST ${answers[4]!.status}`,
    );
  }
});

test('the peer address cannot be forged: not through the start command, the web package start or server.mjs, and next start refuses team mode', { timeout: 600_000 }, async () => {
  const forged: Record<string, string>[] = [{ 'x-scb-peer-address': PROXY }, { 'x-scb-peer-': PROXY }, { 'x-forwarded-for': PROXY }, { forwarded: `for=${PROXY}` }];
  const probe = async (base: string, label: string) => {
    for (const h of forged) {
      const a = await request(base, 'POST', '/api/jobs', { 'content-type': 'application/json', 'x-auth-user': 'mallory@example.com', ...h }, JSON.stringify(JOB));
      assert.equal(a.status, 401, `${label}, ${Object.keys(h)[0]}: ${a.text.slice(0, 200)}`);
    }
    table.push(`${label}: proxy header with a forged peer (${forged.map((h) => Object.keys(h)[0]).join(', ')}) from 127.0.0.1: 401`);
  };
  await probe(direct, '`npm start`');
  // The web app's own start script and its server, on the stack's database.
  const web = path.join(ROOT, 'apps/web');
  for (const [label, cmd, args, cwd] of [
    ['`npm start -w @scb/web`', 'npm', ['start', '-w', '@scb/web'], ROOT],
    ['`node apps/web/server.mjs`', process.execPath, [path.join(web, 'server.mjs')], web],
    ['`next start`', process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start'], web],
  ] as const) {
    const port = await freePort();
    const child = spawn(cmd, [...args], {
      cwd,
      env: { ...stack.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    for (const s of [child.stdout!, child.stderr!]) s.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    try {
      const ready = await Promise.race([
        (async () => {
          for (let i = 0; i < 120; i++) {
            if (/listening on|Ready in/.test(out)) {
              const up = await request(`http://127.0.0.1:${port}`, 'GET', '/api/health').catch(() => null);
              if (up) return 'up';
            }
            await new Promise((r) => setTimeout(r, 250));
          }
          return 'timeout';
        })(),
        exited.then(() => 'exited'),
      ]);
      if (label === '`next start`') {
        assert.equal(await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), 30_000).unref())]), 2, `next start in team mode must refuse to run: ${ready}\n${out}`);
        assert.match(out, /team mode .* runs only through the app's own server/);
        table.push(`${label} in team mode: exits 2 naming npm start`);
        continue;
      }
      assert.equal(ready, 'up', out);
      await probe(`http://127.0.0.1:${port}`, label);
    } finally {
      // npm's child too: the whole group.
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }
});
