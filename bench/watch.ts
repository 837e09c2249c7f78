// `npm run bench:watch`: a release watch as a user makes one, and what it costs. Starts `npm start`'s
// stack on a fresh embedded PostgreSQL, creates a watch from the /watch form in Chromium (default: Java
// since 6.105.0 until 6.106.0 on the affinity burst at time scale 5: BENCH_WATCH_* override), waits for
// every gate's verdict, saves the timeline's screenshot, and prints each release's verdicts, how long its
// gates ran and waited, and what the feed and the badge say.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { assertAtom, childText, parseXml } from '../test/helpers/xml';
import { startStack } from '../test/helpers/stack';

const LANGUAGE = process.env.BENCH_WATCH_LANGUAGE ?? 'java';
const SINCE = process.env.BENCH_WATCH_SINCE ?? '6.105.0';
const UNTIL = process.env.BENCH_WATCH_UNTIL ?? '6.106.0';
const SCENARIO = process.env.BENCH_WATCH_SCENARIO ?? 'affinity-burst';
const SETTINGS = process.env.BENCH_WATCH_SETTINGS ?? '{"timeScale": 5}';
const OUT = path.resolve(process.env.BENCH_WATCH_SCREENSHOT ?? 'test-artifacts/watch-bench.png');

type Gate = { scenario: string; gateId: string; state: string; reason: string | null; finishedAt: string | null; url: string };
type Release = { version: string; predecessor: string; publishedAt: string | null; state: string; runSeconds: number; gates: Gate[] };

const stack = await startStack({ timeoutMs: 600_000, env: { SCB_WATCH_POLL: 'off' } });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${stack.baseUrl}/watch`);
  const form = page.getByRole('form', { name: 'new watch' });
  await form.locator('select[name=language]').selectOption(LANGUAGE);
  await form.locator('input[name=since]').fill(SINCE);
  await form.locator('input[name=until]').fill(UNTIL);
  for (const box of await form.locator('input[name=scenario]').all()) await box.setChecked((await box.getAttribute('value')) === SCENARIO);
  await form.locator('input[name=settings]').fill(SETTINGS);
  const created = Date.now();
  await form.getByRole('button', { name: 'Watch' }).click();
  await page.waitForURL(/\/watch\/[a-z0-9]+$/, { timeout: 120_000 });
  const id = page.url().split('/').pop()!;
  console.log(`watch ${id}: ${LANGUAGE} since ${SINCE} until ${UNTIL} on ${SCENARIO} ${SETTINGS}`);

  let watch: { releases: Release[] };
  for (;;) {
    watch = (await (await fetch(`${stack.baseUrl}/api/watches/${id}`)).json()) as { releases: Release[] };
    const open = watch.releases.flatMap((r) => r.gates).filter((g) => g.state === 'queued' || g.state === 'running');
    if (open.length === 0) break;
    await new Promise((r) => setTimeout(r, 10_000));
  }
  const wallSeconds = (Date.now() - created) / 1000;
  await page.goto(`${stack.baseUrl}/watch/${id}`);
  await page.waitForLoadState('networkidle');
  mkdirSync(path.dirname(OUT), { recursive: true });
  await page.screenshot({ path: OUT, fullPage: true });

  console.log('\n| release | against | published | state | gates ran | per scenario |');
  console.log('| --- | --- | --- | --- | ---: | --- |');
  for (const r of watch.releases)
    console.log(
      `| ${r.version} | ${r.predecessor} | ${r.publishedAt?.slice(0, 10) ?? '?'} | ${r.state} | ${r.runSeconds} s | ${r.gates.map((g) => `${g.scenario}: ${g.state}${g.reason ? ` (${g.reason})` : ''}`).join('; ')} |`,
    );
  console.log(`\nfrom the form to the last verdict: ${Math.round(wallSeconds)} s`);

  const entries = assertAtom(await (await fetch(`${stack.baseUrl}/watch/${id}/feed.xml`)).text());
  console.log(`feed: ${entries.length} entries: ${entries.map((e) => childText(e, 'title')).join(' | ')}`);
  console.log(`badge: ${childText(parseXml(await (await fetch(`${stack.baseUrl}/api/watches/${id}/badge.svg`)).text()), 'title')}`);
  console.log(`screenshot: ${OUT}`);
} finally {
  await browser.close();
  await stack.stop();
}
