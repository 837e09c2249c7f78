// test: yields
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { enforceCacheCap, prepareDriver } from '../../src/index';

const MB = 1024 * 1024;

function put(root: string, rel: string, bytes: number, usedAt?: number) {
  const dir = path.join(root, rel);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'blob'), Buffer.alloc(bytes));
  if (usedAt !== undefined) {
    writeFileSync(path.join(dir, '.used'), '');
    utimesSync(path.join(dir, '.used'), usedAt / 1000, usedAt / 1000);
  }
}

test('over its cap the cache loses build caches first, then versions least recently used; under it nothing', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'scb-cache-'));
  try {
    const now = Date.now();
    put(root, 'clients/node/9.0.0', MB, now - 3_000);
    put(root, 'clients/java/6.105.0', MB, now - 1_000);
    put(root, 'clients/go/1.33.0', MB, now - 2_000);
    put(root, 'go/build', MB);
    // Go's module cache has read-only directories.
    put(root, 'go/mod/cloud.google.com/go@v1.0.0', 2 * MB);
    chmodSync(path.join(root, 'go/mod/cloud.google.com/go@v1.0.0'), 0o555);
    chmodSync(path.join(root, 'go/mod/cloud.google.com'), 0o555);

    const none = enforceCacheCap(root, 10 * MB, ['go/mod', 'go/build']);
    assert.deepEqual(none.removed, []);
    assert.ok(none.bytesBefore >= 6 * MB && none.bytesBefore < 6 * MB + 1024, `${none.bytesBefore}`);

    const trimmed = enforceCacheCap(root, 2.5 * MB, ['go/mod', 'go/build']);
    assert.deepEqual(
      trimmed.removed.map((e) => e.name),
      ['go/mod', 'go/build', 'clients/node/9.0.0'],
    );
    assert.ok(trimmed.bytesAfter <= 2.5 * MB);
    assert.ok(!existsSync(path.join(root, 'go/mod')) && !existsSync(path.join(root, 'clients/node/9.0.0')));
    assert.ok(existsSync(path.join(root, 'clients/java/6.105.0/blob')) && existsSync(path.join(root, 'clients/go/1.33.0/blob')), 'the recently used stay');
    // A version never stamped goes before any stamped one.
    put(root, 'clients/node/8.0.0', MB);
    assert.deepEqual(
      enforceCacheCap(root, 2.5 * MB, ['go/mod', 'go/build']).removed.map((e) => e.name),
      ['clients/node/8.0.0'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('preparing a driver stamps its installed version as used', { timeout: 600_000 }, async () => {
  const launch = await prepareDriver({ language: 'node', version: '9.0.0' }, { cacheDir: CACHE_DIR, log: () => {} });
  assert.equal(launch.dir, path.join(CACHE_DIR, 'clients', 'node', '9.0.0'));
  const first = statSync(path.join(launch.dir, '.used')).mtimeMs;
  await new Promise((r) => setTimeout(r, 20));
  await prepareDriver({ language: 'node', version: '9.0.0' }, { cacheDir: CACHE_DIR, log: () => {} });
  assert.ok(statSync(path.join(launch.dir, '.used')).mtimeMs > first);
});

test('two processes installing into one folder take turns: the second waits for the first, then finds its work done', { timeout: 600_000 }, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'scb-lock-'));
  const dir = path.join(root, 'clients', 'java', '1.0.0');
  const log = path.join(root, 'log');
  // Each process: under the lock, note its start, wait, note its end; the second finds the marker.
  const script = `
    import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
    import { oneAtATime } from ${JSON.stringify(path.resolve('packages/languages/src/plugin.ts'))};
    const [dir, log, who] = process.argv.slice(2);
    await oneAtATime(dir, async () => {
      appendFileSync(log, 'start ' + who + '\\n');
      if (existsSync(dir + '/.installed')) return appendFileSync(log, 'found ' + who + '\\n');
      await new Promise((r) => setTimeout(r, 1500));
      mkdirSync(dir, { recursive: true });
      writeFileSync(dir + '/.installed', who);
      appendFileSync(log, 'end ' + who + '\\n');
    });`;
  const file = path.join(root, 'install.mts');
  writeFileSync(file, script);
  const runOne = (who: string) => new Promise<number | null>((resolve) => spawn(process.execPath, ['--import', 'tsx', file, dir, log, who], { stdio: 'inherit' }).on('exit', resolve));
  try {
    assert.deepEqual(await Promise.all([runOne('a'), runOne('b')]), [0, 0]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const first = lines[0]!.split(' ')[1]!;
    const second = first === 'a' ? 'b' : 'a';
    assert.deepEqual(lines, [`start ${first}`, `end ${first}`, `start ${second}`, `found ${second}`]);
    assert.equal(existsSync(`${dir}.lock`), false, 'the lock is gone');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
