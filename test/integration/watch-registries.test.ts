// test: yields
// Release watches poll the real registry clients (npm's own client, Maven metadata, the Go module
// proxy) pointed at a local server that answers as each registry does, so a test can publish a version:
// each language's new release gets one gate per scenario against its predecessor; a registry that fails
// or answers garbage changes nothing and is said.
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { createWatch, getWatch, pollWatches } from '@scb/db';
import { publishDates, publishedVersions } from '@scb/languages';
import { parseWatchSpec } from '@scb/shared';
import { useTestDatabase } from '../helpers/postgres';
import { useRegistryStandIn } from '../helpers/registries';

const t = useTestDatabase();

/** What the local registry lists per language, and whether it fails or answers garbage. */
const registry = { node: ['8.4.0', '9.0.0'], java: ['6.104.0', '6.105.0'], go: ['1.95.0', '1.96.0'], mode: 'ok' as 'ok' | 'down' | 'garbage' };
/** Each version's publish date on every registry: a day per minor and patch after 2026-01-01, so each is its own. */
const published = (v: string) => {
  const [, minor = 0, patch = 0] = v.split('.').map(Number);
  return new Date(Date.UTC(2026, 0, 1) + (minor * 10 + patch) * 86_400_000);
};

const server = http.createServer((req, res) => {
  // npm's client caches what it may: nothing here may be cached.
  res.setHeader('cache-control', 'no-store');
  if (registry.mode === 'down') return res.writeHead(503).end('down');
  if (registry.mode === 'garbage') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
  const url = decodeURIComponent(req.url ?? '');
  if (url.startsWith('/npm/@google-cloud/spanner')) {
    const versions = Object.fromEntries(registry.node.map((v) => [v, { name: '@google-cloud/spanner', version: v }]));
    const time = Object.fromEntries(registry.node.map((v) => [v, published(v).toISOString()]));
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: '@google-cloud/spanner', 'dist-tags': { latest: registry.node.at(-1) }, versions, time }));
  }
  if (url === '/maven/com/google/cloud/google-cloud-spanner/maven-metadata.xml') {
    return res.writeHead(200, { 'content-type': 'text/xml' }).end(`<metadata><versioning><versions>${registry.java.map((v) => `<version>${v}</version>`).join('')}</versions></versioning></metadata>`);
  }
  const pom = url.match(/^\/maven\/com\/google\/cloud\/google-cloud-spanner\/([^/]+)\/google-cloud-spanner-\1\.pom$/);
  if (pom && registry.java.includes(pom[1]!)) return res.writeHead(200, { 'last-modified': published(pom[1]!).toUTCString() }).end();
  const info = url.match(/^\/go\/cloud\.google\.com\/go\/spanner\/@v\/v(.+)\.info$/);
  if (info && registry.go.includes(info[1]!)) return res.writeHead(200).end(JSON.stringify({ Version: `v${info[1]}`, Time: published(info[1]!).toISOString() }));
  if (url === '/go/cloud.google.com/go/spanner/@v/list') return res.writeHead(200).end(registry.go.map((v) => `v${v}\n`).join(''));
  if (url === '/go/cloud.google.com/go/@v/list') return res.writeHead(200).end('');
  res.writeHead(404).end();
});

useRegistryStandIn(server);

const list = (language: string) => publishedVersions(language, { fresh: true });
const registryClient = { list, dates: publishDates };

// Its limit is 600 s, not its 10-40 s: a yielding file runs on what the others leave of the machine, and
// a CI run starved it past 120 s.
test('a version published on each registry gets one gate per scenario against its predecessor; a failing or garbled registry changes nothing and is said', { timeout: 600_000 }, async () => {
  const ids: Record<string, string> = {};
  for (const language of ['node', 'java', 'go']) {
    const spec = parseWatchSpec({ language, scenarios: ['steady-select1', 'abort-backoff'], repeats: 3 });
    assert.ok(spec.ok);
    ids[language] = (await createWatch(t.db, t.url, spec.value, await list(language))).id;
  }
  const queued = async () => {
    const polls = await pollWatches(t.db, t.url, registryClient);
    return Object.fromEntries(Object.entries(ids).map(([l, id]) => [l, polls.find((p) => p.watchId === id)!]));
  };
  assert.deepEqual(
    Object.values(await queued()).map((p) => p.queued.length),
    [0, 0, 0],
    'nothing published since the watches were made',
  );

  registry.node.push('9.1.0');
  registry.java.push('6.104.1', '6.106.0');
  registry.go.push('1.96.1');
  const polled = await queued();
  const pairs = (l: string) => [...new Set(polled[l]!.queued.map((q) => `${q.version} vs ${q.predecessor}`))];
  assert.deepEqual(pairs('node'), ['9.1.0 vs 9.0.0']);
  assert.deepEqual(pairs('java'), ['6.104.1 vs 6.104.0', '6.106.0 vs 6.105.0'], 'a patch on an older line against that line');
  assert.deepEqual(pairs('go'), ['1.96.1 vs 1.96.0']);
  for (const p of Object.values(polled)) assert.equal(p.queued.length, 2 * new Set(p.queued.map((q) => q.version)).size, 'one gate per scenario');

  for (const mode of ['down', 'garbage'] as const) {
    registry.mode = mode;
    registry.node.push(mode === 'down' ? '9.2.0' : '9.3.0');
    const failed = await queued();
    for (const [language, p] of Object.entries(failed)) {
      assert.deepEqual(p.queued, [], `${language} with the registry ${mode}`);
      assert.ok(p.error, `${language}: the poll says why`);
      const w = await getWatch(t.db, ids[language]!);
      assert.equal(w?.pollError, p.error);
    }
    console.log(
      `# registry ${mode}: ${Object.values(failed)
        .map((p) => p.error)
        .join(' | ')}`,
    );
  }
  registry.mode = 'ok';
  const back = await queued();
  assert.deepEqual([...new Set(back.node!.queued.map((q) => `${q.version} vs ${q.predecessor}`))], ['9.2.0 vs 9.1.0', '9.3.0 vs 9.2.0']);
  assert.equal((await getWatch(t.db, ids.node!))?.pollError, null);

  // Each registry's own way of dating a release (npm's time, the POM's Last-Modified, the proxy's .info).
  for (const [language, id] of Object.entries(ids)) {
    const releases = (await getWatch(t.db, id))!.releases;
    assert.ok(releases.length > 0);
    for (const r of releases) assert.equal(r.publishedAt, published(r.version).toISOString(), `${language} ${r.version}`);
  }

  // A release yanked from the registry is shown so, once: it is not gated again, nothing else changes.
  registry.java.splice(registry.java.indexOf('6.106.0'), 1);
  const yanked = await queued();
  assert.deepEqual(yanked.java!.queued, []);
  const java = (await getWatch(t.db, ids.java!))!;
  assert.deepEqual(
    java.releases.map((r) => `${r.version}${r.unlisted ? ' unlisted' : ''}`),
    ['6.106.0 unlisted', '6.104.1'],
  );
  assert.equal(java.releases[0]!.gates.length, 2, 'its gates stay');
});
