// test: yields
// Inputs a shared server must survive, on the product as `npm start` runs it in team mode: malformed
// query parameters and path ids (never a 500; 400 naming the parameter on API routes), the security
// headers on every kind of response, and the operator's policy on emulator ports, Cloud Spanner cost
// ceilings and webhook names. Prints each probe's status (`# ` lines).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDb, createWatch } from '@scb/db';
import { parseWatchSpec } from '@scb/shared/watch';
import { launchChromium } from '../../helpers/browser';
import { stackToken, startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
let auth: Record<string, string>;
const table: string[] = [];
const row = (probe: string, status: number | string, note = '') => table.push(`${probe.padEnd(66)} ${String(status).padStart(4)}  ${note}`);

before(async () => {
  stack = await startStack({
    env: {
      SCB_AUTH: 'on',
      SCB_SPANNER_DATABASES: 'my-project/my-instance/my-db',
      SCB_SPANNER_MAX_OPS: '1000',
      SCB_SPANNER_MAX_SECONDS: '30',
      SCB_EMULATOR_PORTS: '9010',
      SCB_WEBHOOKS: 'team-hook=http://127.0.0.1:9/hook',
      // No registry is read: a watch made here gates nothing.
      SCB_WATCH_POLL: 'off',
    },
  });
  auth = { authorization: `Bearer ${await stackToken(stack, 'inputs-bot')}` };
});

after(async () => {
  console.log(`# probe${' '.repeat(61)}status`);
  for (const line of table) console.log(`# ${line}`);
  await stack?.stop();
});

const get = (p: string) => fetch(stack.baseUrl + p, { redirect: 'manual' });
const post = (p: string, body: unknown) => fetch(stack.baseUrl + p, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });
type Issues = { error?: string; issues?: { path: string; message: string }[] };

test('malformed query parameters and path ids: pages say what is wrong, API routes answer 400 naming it, nothing answers 500', { timeout: 600_000 }, async () => {
  // Pages: the list is replaced by a message naming the parameter (a page cannot answer 400 in Next.js).
  const pages: [string, RegExp][] = [
    ['/?by=%00', /<code>by<\/code> must not contain control characters/],
    ['/?page=1e22', /<code>page<\/code> must be a whole number from 1 to 100000/],
    ['/?page=-1', /<code>page<\/code> must be a whole number/],
    ['/?by=a&by=b', /<code>by<\/code> is given more than once/],
    ['/gates?page=99999999999999999999', /<code>page<\/code> must be a whole number from 1 to 100000/],
    ['/reproductions?language=%00', /<code>language<\/code> must be one of node, java, go, python/],
    ['/reproductions?status=fixed', /<code>status<\/code> must be one of reproduced/],
    ['/watch?verdict=%00', /<code>verdict<\/code> must be one of pass, persisting, fail/],
    ['/watch/nowatch?page=0', /<code>page<\/code> must be a whole number from 1 to 100000/],
  ];
  for (const [p, says] of pages) {
    const res = await get(p);
    // React marks text boundaries with empty comments.
    const html = (await res.text()).replaceAll('<!-- -->', '');
    row(`GET ${p}`, res.status, 'page names the parameter');
    assert.equal(res.status, 200, p);
    assert.match(html, says, p);
    assert.match(html, /data-testid="query-issues"/, p);
  }
  // Well-formed ones still list.
  for (const p of ['/?page=1', '/?by=token%3Ainputs-bot', '/gates?page=2', '/reproductions?language=java&status=', '/watch?verdict=pass']) {
    const res = await get(p);
    assert.equal(res.status, 200, p);
    assert.doesNotMatch(await res.text(), /query-issues/, p);
  }

  // API routes: 400 with the parameter's name and why.
  const api: [string, string, RegExp][] = [
    ['/api/jobs?page=1e22', 'page', /whole number from 1 to 100000/],
    ['/api/jobs?by=%00', 'by', /control characters/],
    ['/api/jobs?page=99999999999999999999', 'page', /whole number/],
    ['/api/gates?page=0', 'page', /whole number/],
    ['/api/watches/nowatch?page=1.5', 'page', /whole number/],
    ['/api/reproductions?status=%00', 'status', /must be one of/],
    ['/api/reproductions?language=cobol', 'language', /must be one of node, java, go, python/],
    ['/api/jobs/%ff', 'path', /malformed %-escape/],
    ['/api/jobs/%00', 'id', /is not a job id/],
    ['/api/jobs/..%2f..%2fetc/cancel', 'id', /is not a job id/],
    ['/api/gates/%00', 'id', /is not a gate id/],
    ['/api/watches/%ff/badge.svg', 'path', /malformed %-escape/],
  ];
  for (const [p, param, says] of api) {
    const res = p.endsWith('/cancel') ? await post(p, {}) : await get(p);
    const body = (await res.json()) as Issues;
    row(`${p.endsWith('/cancel') ? 'POST' : 'GET'} ${p}`, res.status, `${body.issues?.[0]?.path}: ${body.issues?.[0]?.message}`);
    assert.equal(res.status, 400, p);
    assert.equal(body.issues?.[0]?.path, param, p);
    assert.match(body.issues![0]!.message, says, p);
  }
  assert.equal((await get('/api/jobs?page=1&by=token%3Ainputs-bot')).status, 200);
  assert.equal((await get('/api/gates?page=2')).status, 200);

  // Paths outside the API that do not decode, or name no id's shape: 400 or 404, never 500.
  for (const [p, status] of [
    ['/jobs/%ff', 400],
    ['/gates/%ff', 400],
    ['/watch/%ff/feed.xml', 400],
    ['/watch/%00/feed.xml', 400],
    ['/api/jobs/%00/csv', 400],
    ['/api/jobs/%00/markdown', 400],
    ['/api/gates/%00/markdown', 400],
    ['/jobs/%00', 404],
  ] as const) {
    const res = await get(p);
    row(`GET ${p}`, res.status);
    assert.equal(res.status, status, p);
  }
});

test('security headers on a page, an API route, a feed, the badge, a static file and a refusal; idle connections kept 65 s', { timeout: 600_000 }, async () => {
  // A watch stored as the API stores one (no registry read: it gates nothing yet), for a real badge.
  const spec = parseWatchSpec({ language: 'go', scenarios: ['steady-select1'] });
  assert.ok(spec.ok);
  const db = createDb(stack.databaseUrl);
  const { id: watchId } = await createWatch(db, stack.databaseUrl, spec.value, ['1.96.0'], { createdBy: 'token:inputs-bot' });
  await db.$disconnect();

  const home = await get('/');
  const css = /href="(\/_next\/static\/[^"]+\.css)"/.exec(await home.text())?.[1];
  assert.ok(css, 'the page links its stylesheet');
  const responses: [string, Response][] = [
    ['page /', home],
    ['API /api/jobs', await get('/api/jobs')],
    ['feed /watch/feed.xml', await get('/watch/feed.xml')],
    [`badge /api/watches/<id>/badge.svg`, await get(`/api/watches/${watchId}/badge.svg`)],
    ['static file (stylesheet)', await get(css)],
    ['400 of an undecodable path', await get('/api/jobs/%ff')],
    ['404', await get('/no-such-page')],
  ];
  for (const [what, res] of responses) {
    const h = (n: string) => res.headers.get(n) ?? '';
    row(
      `headers: ${what}`,
      res.status,
      `CSP ${h('content-security-policy') ? 'yes' : 'NO'}, XFO ${h('x-frame-options') || 'NO'}, nosniff ${h('x-content-type-options') || 'NO'}, referrer ${h('referrer-policy') || 'NO'}, keep-alive ${h('keep-alive') || 'NO'}`,
    );
    // Not Node's 5 s (server.mjs): a client whose loop was busy that long reused a closed connection (write EPIPE).
    assert.equal(h('keep-alive'), 'timeout=65', what);
    assert.match(h('content-security-policy'), /default-src 'self'/, what);
    assert.match(h('content-security-policy'), /frame-ancestors 'none'/, what);
    assert.match(h('content-security-policy'), /object-src 'none'/, what);
    assert.equal(h('x-frame-options'), 'DENY', what);
    assert.equal(h('x-content-type-options'), 'nosniff', what);
    assert.equal(h('referrer-policy'), 'same-origin', what);
  }
  assert.equal(responses[3]![1].headers.get('content-type'), 'image/svg+xml; charset=utf-8');

  // The badge as a README embeds it: an <img> on another origin renders; the watches page runs its scripts under the CSP.
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.setContent(`<img id="badge" src="${stack.baseUrl}/api/watches/${watchId}/badge.svg">`);
    await page.waitForFunction(() => (document.getElementById('badge') as HTMLImageElement).complete);
    const width = await page.evaluate(() => (document.getElementById('badge') as HTMLImageElement).naturalWidth);
    row('badge as a cross-origin <img>: natural width', width);
    assert.ok(width > 0, 'the badge renders');
    page.on('pageerror', (e) => violations.push(e.message));
    await page.goto(`${stack.baseUrl}/watch`, { waitUntil: 'networkidle' });
    row('CSP violations and page errors on /watch', violations.length, violations[0]?.slice(0, 80) ?? '');
    assert.deepEqual(violations, []);
  } finally {
    await browser.close();
  }
});

const JOB = { clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [1], workload: { warmupOps: 1, measuredOps: 5 }, requirements: { minCores: 1024 } };

/** Posts a job no runner here can take (it stays queued), cancelling it when stored. */
async function postJob(target: unknown): Promise<{ status: number; body: Issues & { id?: string } }> {
  const res = await post('/api/jobs', { ...JOB, target });
  const body = (await res.json()) as Issues & { id?: string };
  if (body.id) await post(`/api/jobs/${body.id}/cancel`, {});
  return { status: res.status, body };
}

test('the policy: loopback emulators only at SCB_EMULATOR_PORTS, Cloud Spanner caps under the ceilings, webhooks by their own names', { timeout: 600_000 }, async () => {
  const unlisted = await postJob({ kind: 'emulator', emulatorHost: '127.0.0.1:5432' });
  row('POST /api/jobs emulatorHost 127.0.0.1:5432 (unlisted port)', unlisted.status, unlisted.body.issues?.[0]?.path ?? '');
  assert.equal(unlisted.status, 400);
  assert.equal(unlisted.body.issues?.[0]?.path, 'target.emulatorHost');
  assert.match(unlisted.body.issues![0]!.message, /SCB_EMULATOR_PORTS/);
  const listed = await postJob({ kind: 'emulator', emulatorHost: '127.0.0.1:9010' });
  row('POST /api/jobs emulatorHost 127.0.0.1:9010 (listed)', listed.status);
  assert.equal(listed.status, 201, JSON.stringify(listed.body));

  const spanner = { kind: 'spanner', projectId: 'my-project', instanceId: 'my-instance', databaseId: 'my-db', maxOpsPerCell: 1000, maxSecondsPerCell: 30 };
  const over = await postJob({ ...spanner, maxOpsPerCell: 1001, maxSecondsPerCell: 31 });
  row('POST /api/jobs spanner maxOpsPerCell 1001, maxSecondsPerCell 31', over.status, (over.body.issues ?? []).map((i) => i.path).join(', '));
  assert.equal(over.status, 400);
  assert.deepEqual(
    over.body.issues?.map((i) => i.path),
    ['target.maxOpsPerCell', 'target.maxSecondsPerCell'],
  );
  assert.match(over.body.issues![0]!.message, /at most 1000, .*\(SCB_SPANNER_MAX_OPS/);
  assert.match(over.body.issues![1]!.message, /at most 30, .*\(SCB_SPANNER_MAX_SECONDS/);
  const budget = await postJob({ ...spanner, maxOpsPerJob: 1000 * 500 + 1 });
  row('POST /api/jobs spanner maxOpsPerJob 500001', budget.status, budget.body.issues?.[0]?.path ?? '');
  assert.equal(budget.status, 400);
  assert.equal(budget.body.issues?.[0]?.path, 'target.maxOpsPerJob');
  const within = await postJob(spanner);
  row('POST /api/jobs spanner at the ceilings', within.status);
  assert.equal(within.status, 201, JSON.stringify(within.body));
  const settings = await (await get('/settings')).text();
  assert.match(settings, /SCB_SPANNER_MAX_OPS(<!-- -->)?\)<\/dt><dd>1,000/);
  assert.match(settings, /SCB_EMULATOR_PORTS(<!-- -->)?\)<\/dt><dd>127.0.0.1 and localhost at 9010/);

  for (const name of ['constructor', 'team-hook2']) {
    const res = await post('/api/watches', { language: 'go', scenarios: ['steady-select1'], webhooks: [name] });
    const body = (await res.json()) as Issues;
    row(`POST /api/watches webhooks ["${name}"]`, res.status, body.issues?.[0]?.path ?? '');
    assert.equal(res.status, 400, name);
    assert.deepEqual(body.issues, [{ path: 'webhooks.0', message: `"${name}" is not one of this server's webhooks (SCB_WEBHOOKS: team-hook)` }]);
  }
});

test('uploads: an identity first in team mode, then the operator switch; raw bytes only from this origin', { timeout: 600_000 }, async () => {
  const upload = (headers: Record<string, string>) =>
    fetch(`${stack.baseUrl}/api/artifacts?language=node`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body: new Uint8Array(Buffer.from('a build')) });
  const anonymous = await upload({});
  assert.equal(anonymous.status, 401, 'no identity, no upload');
  const off = await upload(auth);
  assert.equal(off.status, 403);
  assert.match(((await off.json()) as Issues).error ?? '', /SCB_ARTIFACTS/);
  const foreign = await upload({ ...auth, origin: 'https://evil.example' });
  assert.equal(foreign.status, 403, 'another origin');
  const form = await fetch(`${stack.baseUrl}/api/artifacts?language=node`, { method: 'POST', headers: { 'content-type': 'text/plain', ...auth }, body: 'a build' });
  assert.equal(form.status, 415, 'a body a form could send');
  // A job naming a build this server never took is refused at the field.
  const job = await post('/api/jobs', { clients: [{ language: 'node', artifact: `sha256:${'e'.repeat(64)}` }], configurations: [{ label: 'd' }], concurrency: [1], workload: { measuredOps: 10 } });
  assert.equal(job.status, 400);
  assert.deepEqual(
    ((await job.json()) as Issues).issues?.map((i) => i.path),
    ['clients.0.artifact'],
  );
  for (const [probe, status] of [
    ['POST /api/artifacts, anonymous (team mode)', anonymous.status],
    ['POST /api/artifacts, token, SCB_ARTIFACTS off', off.status],
    ['POST /api/artifacts, foreign Origin', foreign.status],
    ['POST /api/artifacts, text/plain', form.status],
  ] as const)
    row(probe, status);
});
