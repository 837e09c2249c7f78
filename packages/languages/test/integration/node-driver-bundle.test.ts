// The Node driver's bundle is built once per set of sources: the index beside it lists every file the
// build read with a hash of its content, and a process whose files all hash the same takes the bundle
// without running esbuild; a changed or missing input, or a missing bundle, is built again.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { builtBefore, nodeDriverBundle } from '../../src/node/bundle';

const DRIVER = path.resolve(import.meta.dirname, '../../src/node/driver/main.ts');

test('a bundle is taken again only while every file it was built from is unchanged', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'scb-driver-bundle-'));
  try {
    const file = await nodeDriverBundle(DRIVER, cacheDir);
    const dir = path.join(cacheDir, 'drivers', 'node');
    const [indexName] = readdirSync(dir).filter((f) => f.startsWith('inputs-'));
    assert.ok(indexName, readdirSync(dir).join(', '));
    const index = path.join(dir, indexName);
    const known = JSON.parse(readFileSync(index, 'utf8')) as { file: string; inputs: Record<string, string> };
    assert.equal(known.file, file);
    assert.ok(known.inputs[DRIVER], 'the entry is among the inputs');
    assert.ok(
      Object.keys(known.inputs).some((f) => f.includes(`${path.sep}packages${path.sep}shared${path.sep}`)),
      'so is the shared code it imports',
    );
    assert.equal(builtBefore(index), file, 'unchanged sources: the bundle is taken');

    const edited = { ...known, inputs: { ...known.inputs, [DRIVER]: '0'.repeat(64) } };
    writeFileSync(index, JSON.stringify(edited));
    assert.equal(builtBefore(index), undefined, 'an input whose content changed: built again');
    writeFileSync(index, JSON.stringify({ ...known, inputs: { ...known.inputs, [path.join(cacheDir, 'gone.ts')]: '0'.repeat(64) } }));
    assert.equal(builtBefore(index), undefined, 'an input gone: built again');
    writeFileSync(index, JSON.stringify(known));
    rmSync(file);
    assert.equal(builtBefore(index), undefined, 'the bundle gone: built again');
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
