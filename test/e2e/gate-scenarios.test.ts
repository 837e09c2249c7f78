// test: yields
// Release gates through `npm start`'s stack that do not judge the machine: bad gates refused by the API
// and the CLI. The gates whose evaluation reads the machine (a harness-bound cell is left out of the
// figures; a reproduction's expectations compare latencies) are in gate.test.ts, alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gateCli } from '../helpers/gate-cli';
import { startStack, type Stack } from '../helpers/stack';

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
