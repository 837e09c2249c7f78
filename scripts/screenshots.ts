// `npm run screenshots`: the README's three pictures of today's pages, made from real runs. Starts the
// README's stack on a throw-away data dir (embedded PostgreSQL), runs Java 6.104.0 and 6.105.0 on the
// affinity burst (C=400, 5 cold starts each) and a gate of 6.105.0 against 6.104.0 (10 repeats per arm),
// then photographs the 6.105.0 job, the compare page of the two jobs and the gate with Debian's chromium
// into docs/. About ten minutes on 2 cores; what the pages show is what this run measured.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@scb/languages/local';
import { affinityBurstSpec } from '@scb/shared/presets';
import { launchChromium } from '../test/helpers/browser';
import { startEmbeddedStack, submitGate, waitForVerdict } from './gate-client';

const ROOT = path.resolve(import.meta.dirname, '..');
const say = (l: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);

async function postJob(base: string, spec: unknown): Promise<string> {
  const res = await fetch(new URL('/api/jobs', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
  const body = (await res.json()) as { id?: string; error?: string };
  if (!res.ok || !body.id) throw new Error(`POST /api/jobs: ${res.status} ${body.error ?? ''}`);
  return body.id;
}

async function finished(base: string, id: string): Promise<void> {
  for (;;) {
    const job = (await (await fetch(new URL(`/api/jobs/${id}`, base))).json()) as { status: string };
    if (!['queued', 'running'].includes(job.status)) {
      say(`job ${id}: ${job.status}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scb-screenshots-'));
const stack = await startEmbeddedStack({ ...process.env, PORT: String(await freePort()), SCB_PG_PORT: String(await freePort()), SCB_DATA_DIR: dataDir, DATABASE_URL: '' });
try {
  const burst = (version: string) => ({
    ...affinityBurstSpec({ versions: [version], configurations: 'default', concurrency: [400], repeats: 5 }),
    name: `affinity burst: java ${version}, 5 cold starts`,
  });
  const older = await postJob(stack.base, burst('6.104.0'));
  const newer = await postJob(stack.base, burst('6.105.0'));
  say(`jobs ${older} and ${newer} queued`);
  await finished(stack.base, older);
  await finished(stack.base, newer);
  const gate = await submitGate(stack.base, { scenario: 'affinity-burst', language: 'java', baseline: '6.104.0', candidate: '6.105.0', repeats: 10 });
  say(`gate ${gate.id} queued`);
  const { verdict } = await waitForVerdict(stack.base, gate, { timeoutMs: 60 * 60_000, onCell: () => {} });
  say(`gate ${gate.id}: ${verdict}`);

  const browser = await launchChromium();
  try {
    const shots: [string, string, number][] = [
      [`/jobs/${newer}`, 'job-page.png', 1280],
      [`/compare?jobs=${older},${newer}`, 'compare-page.png', 1280],
      [`/gates/${gate.id}`, 'gate-page.png', 1400],
    ];
    for (const [route, file, width] of shots) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(new URL(route, stack.base).toString(), { waitUntil: 'networkidle' });
      await page.screenshot({ path: path.join(ROOT, 'docs', file), fullPage: true });
      await page.close();
      say(`docs/${file}: ${route}`);
    }
  } finally {
    await browser.close();
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
