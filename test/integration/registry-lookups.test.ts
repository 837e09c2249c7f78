// test: yields
// Registry look-ups are remembered and shared per language: with every registry down (a local server
// answering 503 that counts what it is asked; npm's own client, Maven, the Go proxy pointed at it),
// bursts of callers cost one look-up per language until the failure's 30 s are over, and a registry
// that answers is asked once per 5 minutes. The runner's fresh look-ups still ask.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, test } from 'node:test';
import { publishDates, publishedVersions, RegistryError } from '@scb/languages';
import { GO_MODULES } from '@scb/shared/job';
import { useRegistryStandIn } from '../helpers/registries';

let mode: 'down' | 'ok' = 'down';
const asked = { node: 0, java: 0, go: 0, dates: 0 };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url ?? '');
  if (url.startsWith('/npm/')) asked.node++;
  else if (url.endsWith('maven-metadata.xml')) asked.java++;
  else if (url.startsWith('/go/') && url.endsWith('/@v/list')) asked.go++;
  if (url.endsWith('.pom') || url.endsWith('.info')) asked.dates++;
  res.setHeader('cache-control', 'no-store');
  if (mode === 'down') return res.writeHead(503).end('down');
  if (url.startsWith('/npm/@google-cloud/spanner')) {
    const versions = { '9.0.0': { name: '@google-cloud/spanner', version: '9.0.0' } };
    return res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name: '@google-cloud/spanner', 'dist-tags': { latest: '9.0.0' }, versions, time: { '9.0.0': '2026-01-01T00:00:00.000Z' } }));
  }
  res.writeHead(404).end();
});

useRegistryStandIn(server);

/** `n` callers at once; how many were refused with the registry's error. */
async function burst(n: number, call: () => Promise<unknown>): Promise<number> {
  const settled = await Promise.allSettled(Array.from({ length: n }, call));
  for (const s of settled) if (s.status === 'rejected') assert.ok(s.reason instanceof RegistryError, String(s.reason));
  return settled.filter((s) => s.status === 'rejected').length;
}

const rows: string[] = [];
after(() => {
  console.log('# registry down: 20 callers per language (10 at once, then 10 more)');
  for (const r of rows) console.log(`# ${r}`);
});

test('with the registries down, 20 callers per language cost one look-up each', { timeout: 600_000 }, async () => {
  for (const language of ['node', 'java', 'go'] as const) {
    const refused = (await burst(10, () => publishedVersions(language))) + (await burst(10, () => publishedVersions(language)));
    // A look-up asks npm once, Maven once, the Go proxy once per module (it stops at the first failure).
    const perLookUp = language === 'go' ? GO_MODULES.length : 1;
    const lookUps = Math.ceil(asked[language] / perLookUp);
    rows.push(`${language}: ${refused}/20 refused with the registry's error, ${lookUps} look-up(s) (${asked[language]} request(s))`);
    assert.equal(refused, 20);
    assert.equal(lookUps, 1, `${language}: one look-up for 20 callers`);
  }
  const refused = (await burst(10, () => publishDates('node', ['9.0.0']))) + (await burst(10, () => publishDates('node', ['9.0.0'])));
  rows.push(`node publish dates: ${refused}/20 refused, ${asked.node - 1} look-up(s)`);
  assert.equal(refused, 20);
  assert.equal(asked.node, 2, 'one more `npm view` for the dates');
});

test('the runner still asks (fresh); a registry that answers is asked once for the next callers', { timeout: 600_000 }, async () => {
  const before = asked.node;
  // Down: a fresh look-up asks again although the failure is remembered.
  await assert.rejects(publishedVersions('node', { fresh: true }), RegistryError);
  assert.equal(asked.node, before + 1);
  mode = 'ok';
  // Still within the failure's 30 s, the web app's callers get the remembered failure without asking.
  await assert.rejects(publishedVersions('node'), RegistryError);
  assert.equal(asked.node, before + 1);
  assert.deepEqual(await publishedVersions('node', { fresh: true }), ['9.0.0']);
  assert.equal(await burst(20, () => publishedVersions('node')), 0);
  rows.push(`node, registry back: fresh look-ups ${asked.node - before} (each asked), then 20 callers: ${asked.node - before - 2} more`);
  assert.equal(asked.node, before + 2, 'the answer is remembered');
});
