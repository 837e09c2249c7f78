// test: yields
// The real registries, as a release watch reads them: each language's listing holds the releases the
// product was built around, and each pairs with the predecessor a watch would judge it against.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publishedVersions } from '@scb/languages';
import { releasePairs } from '@scb/shared';

test('npm, Maven Central and the Go module proxy list the releases a watch pairs with their predecessors', { timeout: 600_000 }, async () => {
  const pair = async (language: string, version: string) => releasePairs(await publishedVersions(language, { fresh: true }), { since: version, until: version, prereleases: false })[0];
  const [node, java, go] = await Promise.all([pair('node', '9.0.0'), pair('java', '6.105.0'), pair('go', '1.96.1')]);
  console.log(`# node ${JSON.stringify(node)}, java ${JSON.stringify(java)}, go ${JSON.stringify(go)}`);
  assert.match(node?.predecessor ?? '', /^8\.\d+\.\d+$/, 'Node 9.0.0 against the last 8.x');
  assert.match(java?.predecessor ?? '', /^6\.104\.\d+$/, 'Java 6.105.0 (grpc-gcp on by default) against 6.104.x');
  assert.equal(go?.predecessor, '1.96.0');
});
