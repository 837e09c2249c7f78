import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split('\\').join('/'));
const source = (f: string) => readFileSync(SRC + f, 'utf8');
const imports = (f: string) => [...source(f).matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]!);

// Only the scenario key needs Node; the barrel (for Node code) re-exports it. Everything else must
// go into a browser bundle, so nothing else may import node:* or the scenario key.
test('node: imports only in job/scenario-key.ts, which only the barrel imports', () => {
  const nodeUsers = files.filter((f) => imports(f).some((i) => i.startsWith('node:')));
  assert.deepEqual(nodeUsers, ['job/scenario-key.ts']);
  const keyUsers = files.filter((f) => imports(f).some((i) => /(^|\/)scenario-key$/.test(i)));
  assert.deepEqual(keyUsers, ['index.ts']);
});

test('every export subpath points at an existing module', () => {
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    assert.match(target, /^\.\/src\/.+\.ts$/, subpath);
    assert.ok(files.includes(target.slice('./src/'.length)), `${subpath} -> ${target}`);
  }
});
