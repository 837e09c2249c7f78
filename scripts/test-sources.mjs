// Where `npm test` puts the bundles it runs (scripts/test-bundles.ts): the test files, and the commands
// they start (the stack, the runner, the CLIs), each mapped back to the source it was built from.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Under node_modules, so that the bundles' bare imports resolve to the repository's dependencies. */
export const TEST_BUNDLES = path.join(ROOT, 'node_modules', '.cache', 'scb-tests');

/** Set by `npm test` for the files it runs from bundles: the commands they start run from theirs too. */
export const BUNDLED_ENV = 'SCB_TEST_BUNDLES';

/** The commands test files start, bundled beside them (paths from the repository's root). */
export const COMMANDS = ['scripts/start.ts', 'apps/runner/src/main.ts', 'scripts/token.ts', 'scripts/gate.ts', 'bench/calibrate.ts'];

/** test/e2e/gate.test.ts for <TEST_BUNDLES>/test/e2e/gate.test.mjs; any other path as it is. */
export function sourceOf(file) {
  if (!file?.startsWith(`${TEST_BUNDLES}${path.sep}`)) return file;
  return path.join(ROOT, path.relative(TEST_BUNDLES, file)).replace(/\.test\.mjs$/, '.test.ts');
}

/** The bundle of a source (absolute, or from the repository's root) under TEST_BUNDLES. */
export function bundleOf(source) {
  return path.join(TEST_BUNDLES, path.relative(ROOT, path.resolve(ROOT, source))).replace(/\.ts$/, '.mjs');
}

/**
 * Loaded first by the product's own Node processes (the commands below, the web server, the test files):
 * the CommonJS modules they load compile from code caches kept in the client cache.
 */
export const COMPILE_CACHE_PRELOAD = path.join(ROOT, 'packages', 'languages', 'src', 'node', 'compile-cache-preload.mjs');

/**
 * Node's arguments that run a TypeScript command (`source`, absolute or from the repository's root): its
 * bundle where `npm test` built one for this run (BUNDLED_ENV set), else the source through tsx.
 */
export function nodeArgs(source) {
  const file = path.resolve(ROOT, source);
  const bundle = bundleOf(file);
  if (process.env[BUNDLED_ENV] === TEST_BUNDLES && existsSync(bundle)) return ['--import', COMPILE_CACHE_PRELOAD, '--enable-source-maps', bundle];
  return ['--import', COMPILE_CACHE_PRELOAD, '--import', 'tsx', file];
}
