// Where `npm test` puts the test files' bundles (scripts/test-bundles.ts), and the source file a bundle
// was built from: the reporters and the CPU probe name files by their sources.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Under node_modules, so that the bundles' bare imports resolve to the repository's dependencies. */
export const TEST_BUNDLES = path.join(ROOT, 'node_modules', '.cache', 'scb-tests');

/** test/e2e/gate.test.ts for <TEST_BUNDLES>/test/e2e/gate.test.mjs; any other path as it is. */
export function sourceOf(file) {
  if (!file?.startsWith(`${TEST_BUNDLES}${path.sep}`)) return file;
  return path.join(ROOT, path.relative(TEST_BUNDLES, file)).replace(/\.test\.mjs$/, '.test.ts');
}
