// A gate scenario's calibration in its smallest honest form (issue 38): `npm run bench:calibrate`
// against `npm start`'s stack (uploads on), Node 9.0.0 on steady-select1 shrunk to C=5, 3 repeats of
// 1 s: one A/A gate, then, added to it (`--adds-to`, a top-up), one A/B gate against 9.0.0 patched to
// wait 50% of the A/A baseline's p50 before every query (the full form: `npm run bench:calibrate`, 20 A/A
// runs and sizes 1-10% of the p50 at the scenario's own gate). Then the stored sum is what the gate's API,
// Markdown and page show.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { TEST_GATE_POLL_ENV } from '../helpers/gate-cli';
import { startStack, type Stack } from '../helpers/stack';
import { nodeArgs } from '../../scripts/test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let stack: Stack;

before(async () => {
  stack = await startStack({ env: { SCB_ARTIFACTS: 'on' } });
});

after(async () => {
  if (stack) await stack.stop();
});

function calibrate(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs('bench/calibrate.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...TEST_GATE_POLL_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

interface StoredCalibration {
  aaRuns: number;
  aaFalseAlarms: number;
  baselineP50Ms: number;
  aaP50ChangesPct: number[];
  sizes: { pct: number; delayMs: number; runs: number; detections: number; p50ChangesPct: number[] }[];
  overrides: Record<string, unknown>;
  machine: string;
}

test('bad options are refused naming the option, before anything runs', async () => {
  const [r, s, j, a] = await Promise.all([
    calibrate(['--server', stack.baseUrl, '--scenario', 'steady-select1', '--language', 'node', '--version', '9.0.0; rm -rf /']),
    calibrate(['--server', stack.baseUrl, '--scenario', 'steady-select1', '--language', 'node', '--version', '9.0.0', '--sizes', '5,x']),
    calibrate(['--server', stack.baseUrl, '--scenario', 'steady-select1', '--language', 'ruby', '--version', '6.105.0']),
    calibrate(['--server', stack.baseUrl, '--scenario', 'steady-select1', '--language', 'node', '--version', '9.0.0', '--adds-to', '../gates']),
  ]);
  assert.equal(a.code, 2);
  assert.match(a.out, /--adds-to must be a stored calibration's id \(lower-case letters and digits\), not "\.\.\/gates"/);
  assert.equal(r.code, 2);
  assert.match(r.out, /--version must be a plain semver such as 9\.0\.0/);
  assert.equal(s.code, 2);
  assert.match(s.out, /--sizes must be percentages above 0/);
  assert.match(j.out, /--language must be node, java, go or python: candidate builds with an injected regression are made for those only, not "ruby"/);
  assert.doesNotMatch(r.out + s.out + j.out + a.out, /\n\s+at /);
});

test('a Node calibration: an A/A gate, then a +50% build added to it (--adds-to), stored and shown beside the verdict', async () => {
  const gate = { repeats: 3, concurrency: [5], workload: { operation: 'select1', warmupOps: 20, durationSeconds: 1 } };
  const args = (...more: string[]) => ['--server', stack.baseUrl, '--scenario', 'steady-select1', '--language', 'node', '--version', '9.0.0', '--findings', '-', ...more];
  const first = await calibrate(args('--runs', '1', '--size-runs', '0', '--gate', JSON.stringify(gate)));
  assert.equal(first.code, 0, first.out);
  const id = /stored calibration (\w+)/.exec(first.out)?.[1];
  assert.ok(id, first.out);
  assert.match(first.out, /\| A\/A \(9\.0\.0 vs itself\): false alarms \| 1 \| [01] \| [01] \|/);

  // Read back by its id (what `--adds-to <id>` continues); gates unlike it, or an id stored nowhere, are
  // refused before any runs.
  const byId = (await (await fetch(`${stack.baseUrl}/api/gate-calibrations/${id}`)).json()) as StoredCalibration & { id: string };
  assert.deepEqual([byId.id, byId.aaRuns, byId.sizes, byId.overrides], [id, 1, [], gate]);
  assert.equal((await fetch(`${stack.baseUrl}/api/gate-calibrations/nosuch0`)).status, 404);
  const [other, unknown] = await Promise.all([calibrate(args('--adds-to', id, '--gate', JSON.stringify({ ...gate, repeats: 4 }))), calibrate(args('--adds-to', 'nosuch0'))]);
  assert.equal(other.code, 2, other.out);
  assert.match(other.out, new RegExp(`--adds-to names calibration ${id}, whose gates are not these: its repeats is 3, these gates' 4; only the same gates' counts add up`));
  assert.equal(unknown.code, 2, unknown.out);
  assert.match(unknown.out, /--adds-to nosuch0: GET \/api\/gate-calibrations\/nosuch0: HTTP 404: no calibration with id "nosuch0"/);
  assert.doesNotMatch(other.out + unknown.out, /\/gates\//);

  // The +50% build's gate, added to the A/A one: the same gate fields in another key order (the stored
  // ones come back from a JSON column in its own), the stored baseline p50 sizing the delay.
  const { workload, concurrency, repeats } = gate;
  const added = await calibrate(args('--adds-to', id, '--runs', '0', '--size-runs', '1', '--sizes', '50', '--gate', JSON.stringify({ workload, concurrency, repeats })));
  assert.equal(added.code, 0, added.out);
  assert.match(added.out, new RegExp(`baseline p50 ${byId.baselineP50Ms.toFixed(2)} ms \\(calibration ${id}'s\\)`));
  const gates = [...added.out.matchAll(/\/gates\/(\w+)\)/g)].map((m) => m[1]!);
  assert.equal(gates.length, 1, added.out);

  // The API: every gate of the scenario and language carries the newest calibration, the sum.
  const answer = (await (await fetch(`${stack.baseUrl}/api/gates/${gates[0]}`)).json()) as { calibration: (StoredCalibration & { addsTo?: string }) | null };
  const c = answer.calibration;
  assert.ok(c, 'GET /api/gates/<id> has the calibration');
  assert.deepEqual([c.aaRuns, c.aaP50ChangesPct, c.baselineP50Ms, c.addsTo], [1, byId.aaP50ChangesPct, byId.baselineP50Ms, id]);
  assert.deepEqual(c.overrides, gate);
  assert.equal(c.sizes.length, 1);
  assert.equal(c.sizes[0]!.pct, 50);
  assert.equal(c.sizes[0]!.runs, 1);
  // The delay is half the baseline's p50 (on the 5% grid that lets runs reuse their builds: within 2.5%),
  // and the slowed build's p50 rose beyond every A/A gate's change (a size far above this machine's A/A
  // spread, so that test files beside this one do not decide it).
  assert.ok(Math.abs(c.sizes[0]!.delayMs / (c.baselineP50Ms / 2) - 1) <= 0.0251, JSON.stringify(c));
  const injected = c.sizes[0]!.p50ChangesPct[0]!;
  assert.ok(injected > Math.max(...c.aaP50ChangesPct), `+50% build: p50 ${injected}%, A/A ${c.aaP50ChangesPct.join(', ')}%`);

  // The Markdown and the page say it beside the verdict.
  const md = await (await fetch(`${stack.baseUrl}/api/gates/${gates[0]}/markdown`)).text();
  assert.match(md, new RegExp(`Calibration: false alarms ${c.aaFalseAlarms} of 1 A/A runs \\(\\d+–\\d+%(; 1 inconclusive)?\\); detects a 50% p50 regression ${c.sizes[0]!.detections} of 1 times`));
  assert.match(md, /the scenario overridden by/);
  const page = await (await fetch(`${stack.baseUrl}/gates/${gates[0]}`)).text();
  assert.match(page, /data-testid="calibration"[^>]*>Calibration: false alarms/);
});
