// Release gates through `npm start`'s stack that do not judge the machine: bad gates refused, a gate
// judged on one operation kind of a mix (any verdict will do), a reproduction as a gate scenario (its
// expectations decide, not the load). The gate whose verdict is the machine's is in gate.test.ts, alone.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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

test('a gate judged on one operation kind of a mix compares that kind, not the cell total', { timeout: 600_000 }, async () => {
  const spec = {
    name: 'test gate: readWriteTxn of a mix',
    scenario: 'abort-backoff',
    // Go honours the fake's RetryInfo, so its aborted transactions retry in milliseconds, not seconds.
    language: 'go',
    baseline: '1.96.1',
    candidate: '1.96.1',
    repeats: 3,
    workload: {
      mix: [
        { operation: 'select1', weight: 1 },
        { operation: 'readWriteTxn', weight: 1 },
      ],
      warmupOps: 50,
      durationSeconds: 2,
    },
  };
  const refused = await api('/api/gates', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...spec, operation: 'pointRead' }) });
  assert.equal(refused.status, 400);
  const issues = ((await refused.json()) as { issues: { path: string; message: string }[] }).issues;
  assert.deepEqual(
    issues.map((i) => `${i.path}: ${i.message}`),
    ["operation: is not in the workload's mix (select1, readWriteTxn)"],
  );

  const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-gate-'));
  const specFile = path.join(dir, 'gate.json');
  writeFileSync(specFile, JSON.stringify(spec));
  const cli = await gateCli(['--server', stack.baseUrl, '--spec', specFile]);
  // Aborts make this target noisy (5% of queries): any verdict will do, an error will not.
  assert.match(cli.stdout, /\*\*Verdict: (PASS|FAIL|INCONCLUSIVE)\*\*/, `${cli.stderr}\n${cli.stdout}`);
  // The scenario's own kind, readWriteTxn, is judged: the setup line says so.
  assert.match(cli.stdout, /judged on readWriteTxn/);
  const id = /gate (\w+): http/.exec(cli.stderr)![1];
  const gate = (await (await api(`/api/gates/${id}`)).json()) as {
    evaluation: { metrics: { metric: string; baseline: number[]; candidate: number[] }[] };
    jobs: { id: string }[];
  };
  const job = (await (await api(`/api/jobs/${gate.jobs[0]!.id}`)).json()) as {
    cells: { arm: string; concurrency: number; result: { p50Ms: number; operations: Record<string, { p50Ms: number }> } }[];
  };
  const p50 = gate.evaluation.metrics.find((m) => m.metric === 'p50Ms')!;
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  for (const arm of ['baseline', 'candidate'] as const) {
    const cells = job.cells.filter((c) => c.arm === arm);
    assert.deepEqual(sorted(p50[arm]), sorted(cells.map((c) => c.result.operations.readWriteTxn!.p50Ms)), `${arm}: the readWriteTxn p50 of every repeat`);
    // A read-write transaction takes several RPCs, SELECT 1 one: the total is not what was judged.
    for (const c of cells) assert.ok(c.result.operations.readWriteTxn!.p50Ms > c.result.operations.select1!.p50Ms, 'readWriteTxn is the slower kind');
  }

  // The versions chart picks a kind of the scenario's mix too.
  type View = {
    selection: { operation: string | null };
    options: { scenarios: { key: string; operations: string[] }[]; operations: string[] };
    chart: { axis: string; series: { points: ({ values: { value: number }[] } | null)[] }[] };
  };
  const all = (await (await api('/api/versions-chart?language=go')).json()) as View;
  const scenario = all.options.scenarios.find((s) => s.operations.includes('readWriteTxn'))!;
  const chart = async (operation: string) => {
    const res = await api(`/api/versions-chart?language=go&scenario=${scenario.key}&metric=p50&concurrency=${job.cells[0]!.concurrency}&operation=${operation}`);
    return { status: res.status, body: (await res.json()) as View & { issues?: { path: string; message: string }[] } };
  };
  const rw = await chart('readWriteTxn');
  assert.equal(rw.status, 200);
  assert.equal(rw.body.selection.operation, 'readWriteTxn');
  assert.deepEqual(rw.body.options.operations, ['select1', 'readWriteTxn']);
  assert.match(rw.body.chart.axis, /^readWriteTxn p50/);
  const charted = rw.body.chart.series.flatMap((s) => s.points.flatMap((p) => p?.values.map((v) => v.value) ?? []));
  assert.deepEqual(sorted(charted), sorted(job.cells.map((c) => c.result.operations.readWriteTxn!.p50Ms)));
  const missing = await chart('pointRead');
  assert.equal(missing.status, 400);
  assert.match(missing.body.issues![0]!.message, /pointRead is not in this scenario's workload \(select1, readWriteTxn\)/);
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
