// test: yields
// A team deployment as its users meet it: `npm start` in team mode (SCB_AUTH=on) with a real OpenID
// Connect provider on loopback (oidc-provider), API tokens from `npm run token`, and a trusted auth
// proxy's header. Every write route against every kind of caller, cross-site posts, links that
// ignore forwarded headers, and the browser sign-in in Debian's chromium.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { freePort } from '../helpers/postgres';
import { launchChromium } from '../helpers/browser';
import { request as httpRequest } from '../helpers/http';
import { startOidcProvider, type OidcProvider } from '../helpers/oidc';
import { QUEUED_JOB, REFUSED_GATE, REFUSED_GATE_DATABASE, stackToken, startStack, type Stack } from '../helpers/stack';
import { nodeArgs } from '../../scripts/test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PROXY = '127.0.0.2'; // the trusted auth proxy's address: requests from it carry its header
let stack: Stack;
let browser: Browser;
let oidc: OidcProvider;
/** The public URL (SCB_PUBLIC_URL): a name, as a real deployment has (Next.js turns 127.0.0.1 into localhost in the URLs it hands Auth.js). */
let appOrigin: string;
/** Where the test's own requests connect. */
let direct: string;

before(async () => {
  const appPort = await freePort();
  appOrigin = `http://localhost:${appPort}`;
  direct = `http://127.0.0.1:${appPort}`;
  // A real OpenID Connect provider: its own login and consent pages, any login name accepted.
  oidc = await startOidcProvider(appOrigin);
  stack = await startStack({
    port: appPort,
    env: {
      SCB_AUTH: 'on',
      SCB_PUBLIC_URL: appOrigin,
      SCB_OIDC_ISSUER: oidc.issuer,
      SCB_OIDC_CLIENT_ID: oidc.clientId,
      SCB_OIDC_CLIENT_SECRET: oidc.secret,
      SCB_OIDC_NAME: 'Test SSO',
      AUTH_SECRET: randomBytes(32).toString('base64'),
      SCB_AUTH_PROXY_HEADER: 'x-auth-user',
      SCB_AUTH_PROXY_ADDRESSES: PROXY,
      SCB_ADMINS: 'root@example.com',
      // Low, so that one identity reaches it with jobs no runner takes.
      SCB_MAX_QUEUED_JOBS: '3',
      // Gates below run against Cloud Spanner, which the policy allows and this runner refuses at once: no cell is measured.
      SCB_SPANNER_DATABASES: REFUSED_GATE_DATABASE,
    },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  oidc?.close();
  if (stack) assert.equal(await stack.stop(), 0, stack.output.slice(-20).join('\n'));
});

/** `npm run token -- ...` against the stack's embedded PostgreSQL, as an operator runs it. */
function tokenCli(...args: string[]) {
  const r = spawnSync(process.execPath, [...nodeArgs('scripts/token.ts'), ...args], { cwd: ROOT, env: stack.env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

/** A request from the given local address (the auth proxy's, or an ordinary one). */
const request = (method: string, p: string, headers: Record<string, string>, body?: string, localAddress = '127.0.0.1') => httpRequest(direct, method, p, headers, body, { localAddress });

type Caller = { name: string; headers: Record<string, string>; from?: string };
const post = (c: Caller, p: string, body: unknown = {}) => request('POST', p, { 'content-type': 'application/json', ...c.headers }, JSON.stringify(body), c.from);

const JOB = QUEUED_JOB;
const GATE = REFUSED_GATE;

async function jobCount(): Promise<number> {
  return ((await request('GET', '/api/jobs', {})).body.jobs as unknown[]).length;
}

/** Every write route for one caller: the answers, and the jobs it created. */
async function writeAll(c: Caller) {
  const job = await post(c, '/api/jobs', JOB);
  const id = (job.body.id as string | undefined) ?? 'nojob';
  const cancel = await post(c, `/api/jobs/${id}/cancel`);
  const rerun = await post(c, `/api/jobs/${id}/rerun`);
  const rerunId = rerun.body.id as string | undefined;
  if (rerunId) await post(c, `/api/jobs/${rerunId}/cancel`);
  const gate = await post(c, '/api/gates', GATE);
  return { job, cancel, rerun, gate, id, rerunId };
}

/** The closing note's table: per caller, the status of each write route. */
const matrix: string[] = [];
const row = (caller: string, a: { jobs: number; cancel: number; rerun: number; gates: number }) => matrix.push(`${caller}: jobs ${a.jobs}, cancel ${a.cancel}, rerun ${a.rerun}, gates ${a.gates}`);

test('the auth matrix: every write route refuses anonymous, revoked-token and untrusted-proxy callers and records who wrote', { timeout: 600_000 }, async () => {
  const created = tokenCli('create', 'ci-bot');
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^scb_[A-Za-z0-9_-]{43}$/, 'the token is printed once, alone on stdout');
  const revoked = tokenCli('create', 'old-bot');
  assert.equal(tokenCli('revoke', 'old-bot').code, 0);
  const admin = tokenCli('create', 'ops', '--admin');
  const listed = tokenCli('list');
  assert.match(listed.stdout, /ci-bot\tmember/);
  assert.match(listed.stdout, /old-bot\tmember.*\trevoked /);
  assert.ok(!listed.stdout.includes(created.stdout), 'list never shows a token');

  const before = await jobCount();
  const refusedCallers: Caller[] = [
    { name: 'anonymous', headers: {} },
    { name: 'revoked token', headers: { authorization: `Bearer ${revoked.stdout}` } },
    { name: 'unknown token', headers: { authorization: 'Bearer scb_not-a-token' } },
    { name: 'proxy header from an untrusted address', headers: { 'x-auth-user': 'mallory@example.com' } },
  ];
  for (const c of refusedCallers) {
    const r = await writeAll(c);
    row(c.name, { jobs: r.job.status, cancel: r.cancel.status, rerun: r.rerun.status, gates: r.gate.status });
    for (const [route, a] of Object.entries({ jobs: r.job, cancel: r.cancel, rerun: r.rerun, gates: r.gate })) {
      assert.equal(a.status, 401, `${c.name} on ${route}: ${JSON.stringify(a.body)}`);
      assert.match(String(a.body.error), /writing needs an identity/);
    }
  }
  assert.equal(await jobCount(), before, 'nothing refused was stored');

  const allowed: Caller[] = [
    { name: 'token:ci-bot', headers: { authorization: `Bearer ${created.stdout}` } },
    { name: 'proxy:carol@example.com', headers: { 'x-auth-user': 'accounts.google.com:carol@example.com' }, from: PROXY },
  ];
  for (const c of allowed) {
    const r = await writeAll(c);
    row(c.name === 'token:ci-bot' ? 'token' : 'proxy header from the trusted address', { jobs: r.job.status, cancel: r.cancel.status, rerun: r.rerun.status, gates: r.gate.status });
    assert.deepEqual([r.job.status, r.cancel.status, r.rerun.status, r.gate.status], [201, 200, 201, 201], `${c.name}: ${JSON.stringify(r)}`);
    for (const id of [r.id, r.rerunId!, (r.gate.body as { jobId: string }).jobId]) {
      const job = (await request('GET', `/api/jobs/${id}`, {})).body;
      assert.equal(job.createdBy, c.name, `${c.name} is recorded on ${id}`);
    }
    assert.equal((await request('GET', `/api/jobs/${r.id}`, {})).body.cancelledBy, c.name);
    const gate = (await request('GET', `/api/gates/${r.gate.body.id}`, {})).body;
    assert.equal(gate.createdBy, c.name);
  }

  // Only the submitter or an admin cancels; the jobs list filters by who.
  const carol = allowed[1]!;
  const carolsJob = (await post(carol, '/api/jobs', JOB)).body.id as string;
  const byBot = await post(allowed[0]!, `/api/jobs/${carolsJob}/cancel`);
  assert.equal(byBot.status, 403);
  assert.match(String(byBot.body.error), /only the job's submitter or an admin/);
  const byAdmin = await post({ name: 'token:ops', headers: { authorization: `Bearer ${admin.stdout}` } }, `/api/jobs/${carolsJob}/cancel`);
  assert.equal(byAdmin.status, 200);
  assert.equal((await request('GET', `/api/jobs/${carolsJob}`, {})).body.cancelledBy, 'token:ops');
  const mine = (await request('GET', `/api/jobs?by=${encodeURIComponent('proxy:carol@example.com')}`, {})).body.jobs as { createdBy: string }[];
  assert.ok(mine.length >= 3 && mine.every((j) => j.createdBy === 'proxy:carol@example.com'));
  assert.match(tokenCli('list').stdout, /ci-bot\tmember\tcreated \S+\tlast used /, 'a used token says when');
  const settings = (await request('GET', '/settings', {})).body.text as string;
  assert.match(settings, /team: every write needs an identity/);
  assert.match(settings, /sign-in through Test SSO/);
  // Reads stay public.
  assert.equal((await request('GET', `/api/jobs/${carolsJob}`, {})).status, 200);
  assert.equal((await request('GET', '/api/gates', {})).status, 200);
});

test('cross-site writes are refused before anything is stored, whoever the caller', async () => {
  const token = await stackToken(stack, 'cross-site-bot');
  const before = await jobCount();
  const auth = { authorization: `Bearer ${token}` };
  const textPlain = await request('POST', '/api/jobs', { 'content-type': 'text/plain', ...auth }, JSON.stringify(JOB));
  assert.equal(textPlain.status, 415);
  const form = await request('POST', '/api/jobs', { 'content-type': 'application/x-www-form-urlencoded', ...auth }, 'a=1');
  assert.equal(form.status, 415);
  const foreign = await request('POST', '/api/jobs', { 'content-type': 'application/json', origin: 'https://evil.example', ...auth }, JSON.stringify(JOB));
  assert.equal(foreign.status, 403);
  const site = await request('POST', '/api/jobs', { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', ...auth }, JSON.stringify(JOB));
  assert.equal(site.status, 403);
  const cancel = await request('POST', '/api/jobs/x/cancel', { 'content-type': 'text/plain', ...auth }, '');
  assert.equal(cancel.status, 415);
  assert.equal(await jobCount(), before);
  matrix.push(`token, cross-site: text/plain ${textPlain.status}, form ${form.status}, foreign Origin ${foreign.status}, Sec-Fetch-Site cross-site ${site.status}`);
});

test('one identity may have SCB_MAX_QUEUED_JOBS jobs queued or running; the next is refused with 429 until one ends', async () => {
  const busy: Caller = { name: 'busy-bot', headers: { authorization: `Bearer ${await stackToken(stack, 'busy-bot')}` } };
  const other: Caller = { name: 'other-bot', headers: { authorization: `Bearer ${await stackToken(stack, 'other-bot')}` } };
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await post(busy, '/api/jobs', JOB);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids.push(r.body.id as string);
  }
  for (const [route, body] of [
    ['/api/jobs', JOB],
    ['/api/gates', GATE],
  ] as const) {
    const refused = await post(busy, route, body);
    assert.equal(refused.status, 429, route);
    assert.match(String(refused.body.error), /you have 3 jobs queued or running, this server's limit per identity is 3 \(SCB_MAX_QUEUED_JOBS\)/);
  }
  assert.equal((await post(other, '/api/jobs', JOB)).status, 201, 'the limit is per identity');
  assert.equal((await post(busy, `/api/jobs/${ids[0]}/cancel`)).status, 200);
  assert.equal((await post(busy, `/api/jobs/${ids[0]}/rerun`)).status, 201, 'a cancelled job no longer counts');
  assert.equal((await post(busy, `/api/jobs/${ids[0]}/rerun`)).status, 429, 'a re-run is a new job too');
  // Concurrent posts of one identity cannot overshoot the limit.
  assert.equal((await post(busy, `/api/jobs/${ids[1]}/cancel`)).status, 200);
  const burst = await Promise.all(Array.from({ length: 8 }, () => post(busy, '/api/jobs', JOB)));
  assert.deepEqual(burst.map((r) => r.status).sort(), [201, 429, 429, 429, 429, 429, 429, 429]);
  const settings = (await request('GET', '/settings', {})).body.text as string;
  assert.match(settings, /per identity \((<!-- -->)?SCB_MAX_QUEUED_JOBS(<!-- -->)?\)<\/dt><dd>3<\/dd>/);
  for (const j of (await request('GET', '/api/jobs', {})).body.jobs as { id: string; status: string; createdBy: string }[])
    if (j.status === 'queued' && ['token:busy-bot', 'token:other-bot'].includes(j.createdBy)) await post(j.createdBy === 'token:busy-bot' ? busy : other, `/api/jobs/${j.id}/cancel`);
});

test('links come from SCB_PUBLIC_URL, never from forwarded headers', async () => {
  const token = await stackToken(stack, 'links-bot');
  const forged = { authorization: `Bearer ${token}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'javascript', host: 'evil.example' };
  const created = await request('POST', '/api/jobs', { 'content-type': 'application/json', ...forged }, JSON.stringify({ ...JOB, name: 'links' }));
  assert.equal(created.status, 201);
  assert.equal(created.body.url, `${appOrigin}/jobs/${created.body.id}`);
  const markdown = (await request('GET', `/api/jobs/${created.body.id}/markdown`, forged)).body.text as string;
  assert.ok(markdown.includes(`${appOrigin}/jobs/${created.body.id}`) && !markdown.includes('evil.example') && !markdown.includes('javascript'));
  const page = (await request('GET', `/jobs/${created.body.id}`, forged)).body.text as string;
  assert.ok(page.includes(`content="${appOrigin}/jobs/${created.body.id}"`), 'og:url');
  assert.ok(!page.includes('evil.example'));
  await request('POST', `/api/jobs/${created.body.id}/cancel`, { 'content-type': 'application/json', authorization: `Bearer ${token}` }, '{}');
});

test('browser sign-in through the OpenID Connect provider, then a job from the form is recorded under the user', { timeout: 600_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(`${appOrigin}/`);
  assert.match(await page.getByTestId('identity').innerText(), /Sign in/);
  // The form refuses to write without an identity.
  await page.goto(`${appOrigin}/jobs/new`);
  await page.getByText(/published versions, newest first/).waitFor();
  await page.selectOption('#versions', ['9.0.0']);
  await page.click('button[type=submit]');
  await page.getByText(/writing needs an identity/).waitFor();

  await page.getByTestId('identity').getByRole('link', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /Test SSO/ }).click();
  // The provider's own pages: login (any name), then consent.
  await page
    .locator('input[name=login]')
    .waitFor()
    .catch(async () => {
      assert.fail(`no login form at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)}\n${stack.output.slice(-15).join('\n')}`);
    });
  await page.fill('input[name=login]', 'alice');
  await page.fill('input[name=password]', 'any');
  await page.click('button[type=submit]');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${appOrigin}/**`);
  await page.goto(`${appOrigin}/`);
  assert.match(await page.getByTestId('identity').innerText(), /alice@example\.com/);

  await page.goto(`${appOrigin}/jobs/new`);
  await page.getByText(/published versions, newest first/).waitFor();
  await page.selectOption('#versions', ['9.0.0']);
  await page.fill('#minCores', '1024');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/jobs\/(?!new$)[0-9a-z]+$/);
  const id = page.url().split('/').pop()!;
  assert.match(await page.getByTestId('created-by').innerText(), /by alice@example\.com/);
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await page.getByText(/Cancelled\./).waitFor();
  const job = (await request('GET', `/api/jobs/${id}`, {})).body;
  assert.deepEqual([job.createdBy, job.cancelledBy, job.status], ['alice@example.com', 'alice@example.com', 'cancelled']);
  // The session cookie is the identity on the other write routes too.
  const rerun = await page.request.post(`${appOrigin}/api/jobs/${id}/rerun`, { data: {} });
  const rerunId = ((await rerun.json()) as { id: string }).id;
  const cancelRerun = await page.request.post(`${appOrigin}/api/jobs/${rerunId}/cancel`, { data: {} });
  const gate = await page.request.post(`${appOrigin}/api/gates`, { data: GATE });
  assert.deepEqual([rerun.status(), cancelRerun.status(), gate.status()], [201, 200, 201]);
  assert.equal((await request('GET', `/api/gates/${((await gate.json()) as { id: string }).id}`, {})).body.createdBy, 'alice@example.com');
  row('OIDC sign-in (the form, then its session cookie)', { jobs: 201, cancel: cancelRerun.status(), rerun: rerun.status(), gates: gate.status() });
  await page.close();
  console.log(`# auth matrix (HTTP status per write route):\n${matrix.map((m) => `#   ${m}`).join('\n')}`);
});
