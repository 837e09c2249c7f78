// test: yields
// A Python job from the launch form (issue 39): google-cloud-spanner at two versions from PyPI, two of
// its session pool classes (the language's own configuration boxes), C = 10 and 100, on the fake and then,
// the same fields with the target switched, on the emulator: every cell succeeds and the pages show the
// pools. Small cells (200 operations after 20 warm-up ones: a count, not a second, since in the idle
// cgroup a starved driver's 100 threads once finished none within the second); the measurements
// themselves are the benches'.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { useStackAndBrowser } from '../helpers/browser';

const started = useStackAndBrowser();

interface Job {
  status: string;
  error: string | null;
  spec: { target: { kind: string } };
  cells: {
    status: string;
    error: string | null;
    concurrency: number;
    client: { language: string; version: string };
    configuration: { label: string; pythonPool?: string };
    result: { qps: number } | null;
  }[];
}

async function finished(id: string): Promise<Job> {
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 1000))) {
    // A kept-alive connection the server closed as this poll went out is reset (ECONNRESET): the next
    // poll opens another. npm test runs this file in an idle cgroup, where a poll can wait seconds.
    const job = (await fetch(`${started.stack.baseUrl}/api/jobs/${id}`).then(
      (r) => r.json(),
      (e: Error & { cause?: { code?: string } }) => {
        if (e.cause?.code !== 'ECONNRESET') throw e;
        return { status: 'running' };
      },
    )) as Job;
    if (!['queued', 'running'].includes(job.status) || Date.now() - t0 > 480_000) return job;
  }
}

/** Fills the form for Python 3.61.0 and 3.71.0, FixedSizePool and BurstyPool, C = 10 and 100 on `target`; submits; the job's id. */
async function submit(page: Page, target: 'fake' | 'emulator'): Promise<string> {
  await page.goto(`${started.stack.baseUrl}/jobs/new`);
  await page.selectOption('#language', 'python');
  // The boxes are Python's session pools, two ticked; grpc-gcp's are gone.
  await page.locator('input[name=config-fixed]').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('input[name=config-on]').count(), 0, 'no grpc-gcp box for Python');
  assert.deepEqual(await page.locator('input[type=checkbox][name^=config-]').evaluateAll((bs) => bs.map((b) => `${(b as HTMLInputElement).name}=${(b as HTMLInputElement).checked}`)), [
    'config-fixed=true',
    'config-bursty=true',
    'config-pinging=false',
  ]);
  await page.getByText('each box is a session pool class (pythonPool)').waitFor({ timeout: 5000 });
  // Versions from PyPI, newest first.
  await page.getByText(/published versions, newest first/).waitFor({ timeout: 60_000 });
  const listed = await page.locator('#versions option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  assert.ok(listed.includes('3.71.0') && listed.includes('3.61.0'), listed.slice(0, 20).join(' '));
  await page.selectOption('#versions', ['3.61.0', '3.71.0']);
  if (target === 'emulator') await page.selectOption('#targetKind', 'emulator');
  await page.fill('#name', `python pools on the ${target}`);
  await page.fill('#concurrency', '10, 100');
  await page.fill('#warmupOps', '20');
  await page.check('input[name=measureMode][value=ops]');
  await page.fill('#measureValue', '200');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/jobs\/(?!new$)[0-9a-z]+$/, { timeout: 30_000 });
  return page.url().split('/').pop()!;
}

for (const target of ['fake', 'emulator'] as const) {
  test(`a Python job from the form on the ${target}: two versions, FixedSizePool and BurstyPool, C = 10 and 100, every cell succeeds`, { timeout: 600_000 }, async () => {
    const page = started.page;
    const id = await submit(page, target);
    // The job's page refreshes itself while the job runs (a render a second and a half, for a minute or
    // more): nothing here reads it until the job has ended, so it is left and loaded again then.
    await page.goto('about:blank');
    const job = await finished(id);
    assert.equal(job.status, 'succeeded', `${job.error} ${JSON.stringify(job.cells.map((c) => c.error))}`);
    assert.equal(job.spec.target.kind, target);
    assert.deepEqual(
      job.cells.map((c) => `${c.client.language} ${c.client.version} ${c.configuration.pythonPool} C=${c.concurrency} ${c.status}`).sort(),
      ['3.61.0', '3.71.0'].flatMap((v) => ['bursty', 'fixed'].flatMap((pool) => [10, 100].map((c) => `python ${v} ${pool} C=${c} succeeded`))).sort(),
    );
    for (const c of job.cells) assert.ok(c.result!.qps > 0, `${c.client.version} ${c.configuration.label} C=${c.concurrency}: qps ${c.result!.qps}`);
    await page.goto(`${started.stack.baseUrl}/jobs/${id}`);
    const cells = await page.locator('[data-testid=cells-table]').innerText();
    assert.match(cells, /python 3\.71\.0/);
    assert.match(cells, /BurstyPool/);
    assert.match(cells, /FixedSizePool/);
  });
}
