// test: yields
// The Node driver's compile cache (src/node/compile-cache.mjs), in processes of its own: a second process
// takes every module's code from the first one's cache, a module changed to a source of the same length
// is compiled again (V8 checks only a source's length), a module that calls import() is left to Node and
// its import works, and a cache that cannot be written costs nothing but the attempt. The preload of the
// product's own processes keeps one cache per kind under SCB_CACHE_DIR. Then a Node driver's cell leaves
// its cache beside the client it loaded.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import type { DriverCell } from '@scb/shared';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { prepareDriver } from '../../src/index';
import { cacheScope } from '../../src/node/compile-cache.mjs';

const MODULE = path.resolve(import.meta.dirname, '../../src/node/compile-cache.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'scb-compile-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  stats: { fromCache: number; compiled: number; byNode: number };
  value: string;
  imported: string;
  /** What a.cjs saw of CommonJS (this, __dirname, require.resolve, require.cache, an error's stack, …). */
  facts: Record<string, unknown>;
}

/** A process that enables the cache in `cache` (none: Node's own loader), loads a.cjs (which loads b.cjs) and dyn.cjs, and says what it got. */
function load(cache: string | null): Run {
  const main = path.join(dir, 'main.cjs');
  writeFileSync(
    main,
    `import(${JSON.stringify(MODULE)}).then(async (cc) => {
  if (${JSON.stringify(cache)}) cc.enableCompileCache(${JSON.stringify(cache)}, 'test');
  const a = require('./a.cjs');
  const imported = await require('./dyn.cjs')();
  console.log(JSON.stringify({ stats: cc.compileCacheStats(), value: a(), imported, facts: a.facts }));
});`,
  );
  return JSON.parse(execFileSync(process.execPath, [main], { cwd: dir, encoding: 'utf8' })) as Run;
}

test('a second process compiles nothing the first compiled; a changed source is compiled again; import() still works', () => {
  writeFileSync(
    path.join(dir, 'a.cjs'),
    `const b = require('./b.cjs');
const topThis = this === module.exports;
let stackFile;
try { throw new Error('where'); } catch (e) { stackFile = /([^\\s()]+a\\.cjs):(\\d+)/.exec(e.stack)?.slice(1).join(':'); }
module.exports = () => \`a+\${b()}\`;
module.exports.facts = {
  topThis, dirname: __dirname, filename: __filename, resolved: require.resolve('./b.cjs'), lookup: require.resolve.paths('x')[0],
  main: require.main === process.mainModule, cached: Object.keys(require.cache).filter((k) => k.startsWith(__dirname)).sort(),
  sloppy: (function () { return this !== undefined; })(), stackFile, paths: module.paths[0], id: module.id, loaded: module.loaded,
};
`,
  );
  writeFileSync(path.join(dir, 'b.cjs'), "module.exports = () => 'one';\n");
  writeFileSync(path.join(dir, 'dyn.cjs'), "module.exports = () => import('node:os').then((os) => typeof os.cpus);\n");
  const cache = path.join(dir, 'cache');

  const plain = load(null);
  assert.deepEqual(plain.stats, { fromCache: 0, compiled: 0, byNode: 0 }, 'without the cache Node compiles everything');
  assert.match(String(plain.facts.stackFile), /a\.cjs:4$/);
  const first = load(cache);
  assert.deepEqual(first.stats, { fromCache: 0, compiled: 2, byNode: 1 }, 'a.cjs and b.cjs compiled (main.cjs was, before the cache); dyn.cjs left to Node');
  assert.equal(first.value, 'a+one');
  assert.equal(first.imported, 'function', 'import() from a module Node compiled');
  assert.deepEqual(first.facts, plain.facts, 'a module compiled here sees CommonJS as one Node compiled');
  assert.deepEqual(readdirSync(cache), [`test-node-${process.version}.bin`]);

  const second = load(cache);
  assert.deepEqual(second.stats, { fromCache: 2, compiled: 0, byNode: 1 });
  assert.equal(second.value, 'a+one');
  assert.equal(second.imported, 'function');
  assert.deepEqual(second.facts, plain.facts, 'and so does one from the cache');

  // The same length, another source: the cache of the old one must not be taken.
  writeFileSync(path.join(dir, 'b.cjs'), "module.exports = () => 'two';\n");
  const third = load(cache);
  assert.deepEqual(third.stats, { fromCache: 1, compiled: 1, byNode: 1 });
  assert.equal(third.value, 'a+two');
  assert.deepEqual(load(cache).stats, { fromCache: 2, compiled: 0, byNode: 1 }, 'the new source cached in turn');
});

test('a cache folder that cannot be made: the modules load, nothing is thrown', () => {
  writeFileSync(path.join(dir, 'b.cjs'), "module.exports = () => 'two';\n");
  const blocked = path.join(dir, 'a-file');
  writeFileSync(blocked, 'not a folder');
  const run = load(path.join(blocked, 'cache'));
  assert.equal(run.value, 'a+two');
  assert.deepEqual(run.stats, { fromCache: 0, compiled: 2, byNode: 1 }, 'compiled as with a cache, its writing given up');
});

test("the preload of the product's own processes: one cache per kind of process under SCB_CACHE_DIR, a second process takes its modules from it", () => {
  // The preload enables the cache at its import, under the cache dir it reads from SCB_CACHE_DIR, scoped by the entry's name.
  const cacheDir = path.join(dir, 'preload-cache');
  const preload = path.resolve(import.meta.dirname, '../../src/node/compile-cache-preload.mjs');
  writeFileSync(
    path.join(dir, 'entry.test.mjs'),
    `import { createRequire } from 'node:module';
import { compileCacheStats } from ${JSON.stringify(MODULE)};
createRequire(${JSON.stringify(path.join(dir, 'entry.test.mjs'))})('./p.cjs');
console.log(JSON.stringify(compileCacheStats()));
`,
  );
  writeFileSync(path.join(dir, 'p.cjs'), "module.exports = require('./q.cjs') + 1;\n");
  writeFileSync(path.join(dir, 'q.cjs'), 'module.exports = 41;\n');
  const run = () =>
    JSON.parse(
      execFileSync(process.execPath, ['--import', preload, path.join(dir, 'entry.test.mjs')], { cwd: dir, encoding: 'utf8', env: { ...process.env, SCB_CACHE_DIR: cacheDir } }),
    ) as Run['stats'];
  const first = run();
  assert.ok(first.compiled === 2 && first.fromCache === 0, JSON.stringify(first));
  // Every test file shares one cache: an entry named *.test.* is of the kind "test".
  assert.deepEqual(readdirSync(path.join(cacheDir, 'compile-cache')), [`${cacheScope('test', [])}-node-${process.version}.bin`]);
  const second = run();
  assert.equal(second.compiled, 0, JSON.stringify(second));
  assert.equal(second.fromCache, first.compiled);
});

test("a Node driver's cell leaves the client's compile cache beside it", async () => {
  const fake = await startFakeSpanner({ latencyMs: 1 });
  try {
    const cell = {
      endpoint: { host: '127.0.0.1', port: fake.port, security: 'plaintext' },
      database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
      client: { language: 'node', version: '9.0.0' },
      configuration: { label: 'default', grpcGcp: 'default' },
      load: { shape: 'closed', concurrency: 2, warmupOps: 5, measuredOps: 20 },
      operations: [{ kind: 'select1', weight: 1 }],
      deadlineMs: 300_000, // a yielding file's driver may get a tenth of a core (SCB_DRIVER_START_MS)
    } as DriverCell;
    const launch = await prepareDriver(cell.client, { cacheDir: CACHE_DIR, log: () => {} });
    // Its scope names the runtime options before the driver's bundle and folder (SCB_NODE_DRIVER_OPTIONS, where the operator gives any).
    const cache = path.join(launch.dir, '.compile-cache', `${cacheScope('driver', launch.args.slice(0, -2))}-node-${process.version}.bin`);
    rmSync(cache, { force: true });
    const out = await new Promise<string>((resolve) => {
      const p = spawn(launch.command, launch.args, { env: { ...process.env, METADATA_SERVER_DETECTION: 'none', SPANNER_DISABLE_BUILTIN_METRICS: 'true' } });
      let s = '';
      p.stdout.on('data', (d) => (s += d));
      p.on('close', () => resolve(s));
      p.stdin.end(JSON.stringify(cell));
    });
    assert.match(out, /"type":"result"/);
    // Another file's driver of 9.0.0 may have written it meanwhile: that one's start made it just the same.
    assert.ok(existsSync(cache), `the cache in ${launch.dir}`);
  } finally {
    await fake.stop();
  }
});
