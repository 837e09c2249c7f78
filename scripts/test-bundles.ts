// `npm test` runs each test file from one ES module of plain JavaScript, built with esbuild from the file
// and the workspace's TypeScript it imports (test helpers, the runner, the packages), instead of loading
// those hundreds of modules through tsx's loader in every file's process: about half the CPU of loading
// them (docs/findings/product.md, "Test budget"). The files run without tsx: child processes name it
// themselves, and plug-in modules register it when loaded (plugins.mjs). Dependencies stay outside the bundles and
// load from node_modules as they are. Each module keeps its own `import.meta.url`, `dirname` and
// `filename` (written in as the source file's), so paths relative to a source mean what they meant.
// The bundles mirror the repository under TEST_BUNDLES: test/e2e/gate.test.ts runs as
// <TEST_BUNDLES>/test/e2e/gate.test.mjs (scripts/test-sources.mjs maps a bundle back to its source), and
// the commands the files start (scripts/start.ts, the runner, the CLIs) from theirs (nodeArgs there).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { bundleOf, COMMANDS, TEST_BUNDLES } from './test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bare imports outside the workspace's own packages (written in TypeScript) are left to Node: a package by
 * its name, a file inside one (`next/server`, which Node's resolver finds only as `next/server.js` where
 * the package has no exports map) by the path esbuild resolves it to.
 */
const dependenciesOutside: Plugin = {
  name: 'dependencies-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (a) => {
      if (a.path.startsWith('@scb/') || a.pluginData === 'resolving') return undefined;
      const subpath = a.path.split('/').length > (a.path.startsWith('@') ? 2 : 1) && !a.path.startsWith('node:');
      if (!subpath) return { path: a.path, external: true };
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: 'resolving' });
      return { path: r.errors.length ? a.path : r.path, external: true };
    });
  },
};

/** Each workspace module's import.meta as its source file's, not the bundle's. */
const sourceImportMeta: Plugin = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, (a) => {
      if (a.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const code = readFileSync(a.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(a.path)))
        .replaceAll('import.meta.filename', JSON.stringify(a.path));
      return { contents: code, loader: a.path.endsWith('.tsx') ? 'tsx' : a.path.endsWith('.ts') || a.path.endsWith('.mts') ? 'ts' : 'js', resolveDir: path.dirname(a.path) };
    });
  },
};

/**
 * Bundles `files` (test files, by paths relative to the working folder or absolute) and the COMMANDS they
 * start into TEST_BUNDLES, the code they share in chunks of its own. Returns each file's bundle, or an empty map when they cannot be built (the files then run from
 * their sources, through tsx, and the reason is printed).
 */
export async function bundleTestFiles(files: string[]): Promise<Map<string, string>> {
  rmSync(TEST_BUNDLES, { recursive: true, force: true });
  try {
    await build({
      // The commands the files start (the stack, the runner, the CLIs) too: they run from their bundles (nodeArgs).
      entryPoints: [...files, ...COMMANDS].map((f) => path.resolve(ROOT, f)),
      outbase: ROOT,
      outdir: TEST_BUNDLES,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'silent',
      legalComments: 'none',
      // Functions and classes keep their names (an error's name, a function named in a message).
      keepNames: true,
      plugins: [dependenciesOutside, sourceImportMeta],
    });
  } catch (e) {
    // esbuild's message names only the count: each error with where it is.
    const errors = ((e as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? []).map(
      (x) => `${x.location ? `${x.location.file}:${x.location.line}: ` : ''}${x.text}`,
    );
    console.log(`# test files run from their sources: bundling them failed (${errors.length ? errors.join('; ') : (e as Error).message.split('\n')[0]})`);
    return new Map();
  }
  return new Map(files.map((f) => [f, bundleOf(path.resolve(f))]));
}
