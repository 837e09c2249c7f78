// The seams hold: a client language and a target kind that only a plug-in module (SCB_PLUGINS)
// defines run a job from the launch form's JSON editor through placement, the runner, the API, the job
// page, its Markdown and CSV and compare, with no other file of the product changed
// (docs/architecture.md's recipes list the files a built-in one touches).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../../../test/helpers/browser';
import { startStack, type Stack } from '../../../../test/helpers/stack';

const PLUGIN = fileURLToPath(new URL('./plugins/throwaway.ts', import.meta.url));
const JSON_POST = { method: 'POST', headers: { 'content-type': 'application/json' } } as const;
const SPEC = {
  name: 'throwaway plug-ins',
  clients: [{ language: 'node-twin', version: '9.0.0' }],
  // Two configurations: two series, so that compare has something to compare.
  configurations: [{ label: 'default' }, { label: 'grpc-gcp off', grpcGcp: 'off' }],
  concurrency: [4],
  workload: { warmupOps: 20, measuredOps: 200 },
  target: { kind: 'twin-fake', latencyMs: 5 },
};

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { SCB_PLUGINS: PLUGIN, SCB_TWIN_MAX_LATENCY_MS: '50' } });
});
after(async () => {
  await stack?.stop();
});

const api = (p: string, init?: RequestInit) => fetch(stack.baseUrl + p, init);

test('a language and a target kind from a plug-in run a job from the launch form through placement, the runner, the API, the job page, Markdown, CSV and compare', { timeout: 600_000 }, async () => {
  // The runner registers beside the web app's start ("is ready" is the web app's): wait for it.
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
    const { runners } = (await (await api('/api/runners')).json()) as { runners: { alive: boolean }[] };
    if (runners.some((r) => r.alive)) break;
    assert.ok(Date.now() - t0 < 120_000, `no runner registered:\n${stack.output.slice(-20).join('\n')}`);
  }
  const runners = await (await api('/runners')).text();
  assert.match(runners, /node-twin/, 'the runner offers the plug-in language');
  assert.match(runners, /twin fake Spanner/, 'the runner offers the plug-in target kind');

  // The launch form: a plug-in's kind is launched from its JSON editor (its lists show the built-in kinds), and the server validates it.
  const browser = await launchChromium();
  let id: string;
  try {
    const form = await browser.newPage();
    await form.goto(`${stack.baseUrl}/jobs/new`);
    await form.getByText('Edit the job spec as JSON').click();
    await form.locator('#spec-json').fill(JSON.stringify(SPEC));
    await form.getByRole('button', { name: 'Run this JSON' }).click();
    await form
      .waitForURL((u) => /^\/jobs\/[0-9a-z]+$/.test(u.pathname) && u.pathname !== '/jobs/new', { timeout: 60_000 })
      .catch(async (e) => {
        throw new Error(`the form did not launch the job: ${await form.getByRole('alert').allTextContents()}`, { cause: e });
      });
    id = form.url().split('/').pop()!;
  } finally {
    await browser.close();
  }
  type Job = { status: string; error: string | null; cells: { status: string; error: string | null; result: { count: number } | null; channelSource: string | null; channels: { rpcs: number }[] }[] };
  let job: Job;
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
    job = (await (await api(`/api/jobs/${id}`)).json()) as Job;
    if (!['queued', 'running'].includes(job.status)) break;
    assert.ok(Date.now() - t0 < 480_000, `job still ${job.status}:\n${stack.output.slice(-20).join('\n')}`);
  }
  assert.equal(job.status, 'succeeded', `${job.error} ${job.cells[0]?.error}\n${stack.output.slice(-20).join('\n')}`);
  const cell = job.cells[0]!;
  assert.equal(cell.result?.count, 200, 'every measured operation of the Node client under its plug-in name');
  assert.equal(cell.channelSource, 'fake', 'the target counted its connections as the fake does');
  const served = cell.channels.reduce((a, c) => a + c.rpcs, 0);
  assert.ok(served >= 220, `the plug-in's target (the fake under another name) served ${served} RPCs`);

  const page = await (await api(`/jobs/${id}`)).text();
  assert.match(page, /twin fake Spanner answering in 5 ms/, "the job page describes the target in its kind's words");
  assert.match(page, /Node twin/, "the job page names the language's toolchain");
  assert.match(page, /twin of v?\d+\.\d+/, 'the toolchain the runner recorded');
  assert.match(page, /twin 1\.0/, "the target kind's version the runner recorded");

  const markdown = await api(`/api/jobs/${id}/markdown`);
  assert.equal(markdown.status, 200);
  const md = await markdown.text();
  assert.match(md, /twin fake Spanner answering in 5 ms/, "the Markdown describes the target in its kind's words");
  assert.match(md, /node-twin/, 'the Markdown names the client');
  const csv = await api(`/api/jobs/${id}/csv`);
  assert.equal(csv.status, 200);
  const [header, ...rows] = (await csv.text()).trim().split('\n');
  assert.ok(header, 'the CSV has a header');
  assert.equal(rows.length, job.cells.length, 'one row per cell');
  assert.ok(
    rows.every((r) => r.includes('node-twin')),
    "each row names the plug-in's client",
  );
  const compared = await api(`/api/compare?jobs=${id}`);
  assert.equal(compared.status, 200, await compared.clone().text());
  const comparison = (await compared.json()) as { status: string; series: unknown[]; rows: { entries: ({ qps: number } | null)[] }[] };
  assert.notEqual(comparison.status, 'refused', JSON.stringify(comparison));
  assert.equal(comparison.series.length, 2, 'the two configurations');
  assert.ok(
    comparison.rows.flatMap((r) => r.entries).some((e) => e !== null && e.qps > 0),
    'compare reads the cell the plug-ins ran',
  );
  const comparePage = await api(`/compare?jobs=${id}`);
  assert.equal(comparePage.status, 200);
  assert.match(await comparePage.text(), /node-twin/, 'the compare page names the client');
});

test('a kind or a language no plug-in registered is a 400 naming the field and the registered ones', { timeout: 60_000 }, async () => {
  const bad = await api('/api/jobs', { ...JSON_POST, body: JSON.stringify({ ...SPEC, clients: [{ language: 'cobol', version: '1.0.0' }], target: { kind: 'nope' } }) });
  assert.equal(bad.status, 400);
  const { issues } = (await bad.json()) as { issues: { path: string; message: string }[] };
  const at = (p: string) => issues.find((i) => i.path === p)?.message ?? '';
  assert.match(at('target.kind'), /twin-fake/);
  assert.match(at('clients.0.language'), /node-twin/);
  const field = await api('/api/jobs', { ...JSON_POST, body: JSON.stringify({ ...SPEC, target: { kind: 'twin-fake', latencyMs: -1 } }) });
  assert.equal(field.status, 400);
  assert.match(JSON.stringify(await field.json()), /target\.latencyMs/, "the plug-in's own schema names its field");
});

test("a plug-in kind's rule of the operator's policy: /settings shows it as read, a spec that breaks it is a 400 naming the rule", { timeout: 60_000 }, async () => {
  const settings = await (await api('/settings')).text();
  assert.match(settings, /data-testid="policy-twin-fake"/, 'its own section');
  assert.match(settings, /SCB_TWIN_MAX_LATENCY_MS(<!-- -->)?\)<\/dt><dd>50 ms/, 'the value this server read');
  assert.match(settings, /data-testid="policy-spanner"[\s\S]*SCB_SPANNER_DATABASES/, "the built-in kinds' sections beside it");
  const over = await api('/api/jobs', { ...JSON_POST, body: JSON.stringify({ ...SPEC, target: { kind: 'twin-fake', latencyMs: 60 } }) });
  assert.equal(over.status, 400);
  const { issues } = (await over.json()) as { issues: { path: string; message: string }[] };
  assert.deepEqual(
    issues.map((i) => i.path),
    ['target.latencyMs'],
  );
  assert.match(issues[0]!.message, /at most 50 ms.*SCB_TWIN_MAX_LATENCY_MS/);
});
