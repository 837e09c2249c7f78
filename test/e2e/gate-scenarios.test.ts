// Release gates through `npm start`'s stack that do not judge the machine: bad gates refused, a
// reproduction as a gate scenario (its expectations decide, not the load). The gates whose evaluation
// reads the machine (a harness-bound cell is left out of the figures) are in gate.test.ts, alone.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { gateCli } from '../helpers/gate-cli';
import { startStack, type Stack } from '../helpers/stack';

const ARTIFACTS = path.resolve(process.env.SCB_TEST_ARTIFACTS ?? 'test-artifacts');
let stack: Stack;

before(async () => {
  stack = await startStack();
});

after(async () => {
  if (stack) await stack.stop();
});

const api = (p: string, init?: RequestInit) => fetch(stack.baseUrl + p, init);

test('bad gates are refused field by field, by the API and the CLI', async () => {
  const bad = await api('/api/gates', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'x', language: 'node', baseline: '9.0.0', candidate: '9; rm -rf /', repeats: 0 }),
  });
  assert.equal(bad.status, 400);
  const body = (await bad.json()) as { error: string; issues: { path: string }[] };
  assert.equal(body.error, 'invalid gate spec');
  assert.deepEqual(body.issues.map((i) => i.path).sort(), ['candidate', 'repeats', 'scenario']);
  assert.equal((await api('/api/gates/nope')).status, 404);

  const cli = await gateCli(['--server', stack.baseUrl, '--client', 'node', '--baseline', '9.0.0', '--candidate', 'latest']);
  assert.equal(cli.code, 2);
  assert.match(cli.stderr, /--candidate \(candidate\): must be a plain semver/);
  assert.doesNotMatch(cli.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(((await (await api('/api/gates')).json()) as { gates: unknown[] }).gates.length, 0, 'nothing was queued');
});

test('a reproduction as a gate scenario from the form: its client is picked, the candidate runs in the fixed release’s place and its expectations decide', { timeout: 600_000 }, async () => {
  const browser: Browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${stack.baseUrl}/gates`);
    const form = page.locator('form[aria-label="new gate"]');
    await form.locator('select[name=scenario]').selectOption('node-waits-for-trailers');
    assert.equal(await form.locator('select[name=language]').inputValue(), 'node', "the reproduction's client");
    await form.locator('input[name=baseline]').fill('8.4.0');
    await form.locator('input[name=candidate]').fill('9.0.0');
    await form.locator('button[type=submit]').click();
    await page.waitForURL(/\/gates\/[0-9a-z]+$/, { timeout: 30_000 });
    await page
      .locator('h1 [data-testid=verdict]')
      .filter({ hasText: /PASS|FAIL|INCONCLUSIVE/ })
      .waitFor({ timeout: 300_000 });
    const reasons = await page.locator('[data-testid=reasons]').innerText();
    assert.equal(await page.locator('h1 [data-testid=verdict]').innerText(), 'PASS', reasons);
    assert.match(reasons, /node-waits-for-trailers: 9\.0\.0 behaves as 8\.2\.1 did/);
    assert.match(reasons, /8\.0\.0 waits for the trailers held 100 ms: p50 of 8\.0\.0 is [\d.]+ ms: expected at least 90\.0 ms — met/);
    assert.equal(await page.locator('[data-testid=gate-table]').count(), 0, 'judged by expectations, not per metric');
    assert.match((await page.locator('[data-testid=markdown]').textContent()) ?? '', /scenario reproduction node-waits-for-trailers: the candidate in place of 8\.2\.1/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'reproduction-gate.png'), fullPage: true });
  } finally {
    await browser.close();
  }
});
