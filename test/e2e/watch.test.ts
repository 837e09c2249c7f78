// test: yields
// A release watch end to end, in small: created from the /watch form against a Go module proxy this
// test stands in front of (it lists 1.33.0 and 1.96.1 and dates them; everything else falls through to
// the real proxy), its gate runs on `npm start`'s runner, and the timeline, the chip's gate, the feed,
// the badge and a webhook that refuses twice all tell the same verdict.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { startStack, type Stack } from '../helpers/stack';
import { assertAtom, childText, parseXml } from '../helpers/xml';

const ARTIFACTS = path.resolve(process.env.SCB_TEST_ARTIFACTS ?? 'test-artifacts');
const LISTED = { '1.33.0': '2022-03-08T10:00:00Z', '1.96.1': '2026-10-01T10:00:00Z' } as Record<string, string>;
const hooks: { status: number; body: { client_payload: { verdict: string; version: string } } }[] = [];

const registry = http.createServer((req, res) => {
  const url = req.url ?? '';
  if (url === '/go/cloud.google.com/go/spanner/@v/list')
    return res.writeHead(200).end(
      Object.keys(LISTED)
        .map((v) => `v${v}\n`)
        .join(''),
    );
  // The monorepo's releases (0.x, which held spanner before 1.0.0): none here.
  if (url === '/go/cloud.google.com/go/@v/list') return res.writeHead(200).end('');
  const info = url.match(/^\/go\/cloud\.google\.com\/go\/spanner\/@v\/v(.+)\.info$/);
  if (info && LISTED[info[1]!]) return res.writeHead(200).end(JSON.stringify({ Version: `v${info[1]}`, Time: LISTED[info[1]!] }));
  if (url === '/hook') {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const status = hooks.length < 2 ? 503 : 200;
      hooks.push({ status, body: JSON.parse(text) });
      res.writeHead(status).end();
    });
    return;
  }
  // The go command then asks the next proxy in GOPROXY.
  res.writeHead(404).end();
});

let stack: Stack;
let browser: Browser;
before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(registry.address() as { port: number }).port}`;
  stack = await startStack({ env: { GOPROXY: `${base}/go,https://proxy.golang.org`, SCB_WEBHOOKS: `team-ci=${base}/hook`, SCB_WEBHOOK_BACKOFF_MS: '200', SCB_WATCH_POLL: 'off' } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  if (stack) await stack.stop();
  await new Promise<void>((r) => registry.close(() => r()));
});

const api = (p: string) => fetch(stack.baseUrl + p);

type Watch = { releases: { version: string; publishedAt: string | null; state: string; runSeconds: number; gates: { gateId: string; state: string; verdict: string | null; status: string }[] }[] };

test('a watch from the form backfills its gate; timeline, chip, gate, feed, badge and webhook agree on the verdict', { timeout: 600_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${stack.baseUrl}/watch`);
  const form = page.getByRole('form', { name: 'new watch' });
  await form.locator('select[name=language]').selectOption('go');
  await form.locator('input[name=since]').fill('1.96.1');
  await form.locator('input[name=until]').fill('1.96.1');
  await form.locator('input[name=scenario][value=affinity-burst]').uncheck();
  await form.locator('input[name=scenario][value=steady-select1]').check();
  await form.locator('input[name=webhook][value=team-ci]').check();
  // A scenario setting that is not one: named, nothing stored.
  await form.locator('input[name=settings]').fill('{"concurrency": [0]}');
  await form.getByRole('button', { name: 'Watch' }).click();
  await page.getByRole('alert').filter({ hasText: 'scenarios.0.concurrency.0' }).waitFor();
  // Small: 3 repeats of 1 s at C=10.
  await form.locator('input[name=settings]').fill('{"repeats": 3, "concurrency": [10], "workload": {"operation": "select1", "warmupOps": 50, "durationSeconds": 1}}');
  await form.getByRole('button', { name: 'Watch' }).click();
  await page.waitForURL(/\/watch\/[a-z0-9]+$/).catch(async (e) => {
    throw new Error(`the watch was not created: ${await page.getByRole('alert').allTextContents()}`, { cause: e });
  });
  const id = page.url().split('/').pop()!;

  // The backfill: one release, against its predecessor, dated by the proxy.
  const row = page.getByTestId('watch-release');
  await row.first().waitFor();
  assert.equal(await row.count(), 1);
  assert.equal(await row.getAttribute('data-version'), '1.96.1');
  assert.match((await row.textContent()) ?? '', /cloud\.google\.com\/go\/spanner 1\.96\.1.*2026-10-01.*1\.33\.0/);

  // The gate runs; the page refreshes itself until the chip has a verdict.
  const chip = page.getByTestId('watch-chip');
  await page.waitForFunction(() => ['pass', 'fail', 'inconclusive'].includes(document.querySelector('[data-testid=watch-chip]')?.getAttribute('data-state') ?? ''), undefined, {
    timeout: 240_000,
    polling: 1000,
  });
  const state = (await chip.getAttribute('data-state'))!;
  const watch = (await (await api(`/api/watches/${id}`)).json()) as Watch;
  const release = watch.releases[0]!;
  assert.equal(release.publishedAt, '2026-10-01T10:00:00.000Z');
  assert.equal(release.gates[0]!.verdict, state, 'the chip is the stored verdict');
  assert.equal(release.state, state);
  assert.ok(release.runSeconds > 0, 'the cost of the release is its gates’ run time');
  await page.screenshot({ path: path.join(ARTIFACTS, 'watch-timeline.png'), fullPage: true });

  // Filters: by verdict (this one, and one it is not), by language.
  await page.goto(`${stack.baseUrl}/watch?verdict=${encodeURIComponent(state)}`);
  assert.equal(await page.getByTestId('watch-release').count(), 1);
  await page.goto(`${stack.baseUrl}/watch?verdict=${state === 'fail' ? 'pass' : 'fail'}`);
  assert.equal(await page.getByTestId('watch-release').count(), 0);
  await page.goto(`${stack.baseUrl}/watch?language=node`);
  assert.equal(await page.getByTestId('watch').count(), 0);

  // The chip leads to its gate, whose page says the same verdict.
  await page.goto(`${stack.baseUrl}/watch?language=go`);
  await page.getByTestId('watch-chip').first().click();
  await page.waitForURL(new RegExp(`/gates/${release.gates[0]!.gateId}$`));
  assert.equal((await page.getByTestId('verdict').first().textContent())?.toLowerCase(), state);

  // The feeds: valid Atom, an entry with this verdict linking to the gate.
  for (const feed of [`/watch/${id}/feed.xml`, '/watch/feed.xml']) {
    const res = await api(feed);
    assert.equal(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
    const entries = assertAtom(await res.text());
    const entry = entries.find((e) => e.children.some((c) => c.name === 'link' && c.attrs.href?.endsWith(`/gates/${release.gates[0]!.gateId}`)));
    assert.ok(entry, `${feed} has the gate's entry`);
    assert.equal(childText(entry, 'title'), `cloud.google.com/go/spanner 1.96.1 vs 1.33.0 on steady-select1: ${state}`);
  }

  // The badge: valid SVG naming the release and its state.
  const badge = await api(`/api/watches/${id}/badge.svg`);
  assert.equal(badge.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
  assert.equal(childText(parseXml(await badge.text()), 'title'), `cloud.google.com/go/spanner 1.96.1: ${state}`);
  assert.equal((await api('/api/watches/nope/badge.svg')).status, 404);

  // The webhook refused twice, then took the verdict once; the watch page lists the delivery.
  // Generous: this file yields, and may run starved; the wait ends when the webhook took it.
  const until = Date.now() + 180_000;
  while (!hooks.some((h) => h.status === 200) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(
    hooks.map((h) => h.status),
    [503, 503, 200],
  );
  assert.equal(hooks[2]!.body.client_payload.verdict, state);
  await page.goto(`${stack.baseUrl}/watch/${id}`);
  const delivery = page.getByTestId('watch-deliveries').locator('tbody tr');
  assert.equal(await delivery.count(), 1);
  assert.match((await delivery.textContent()) ?? '', /team-ci.*1\.96\.1.*delivered3/);
  await page.close();
});
