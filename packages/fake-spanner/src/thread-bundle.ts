// The fake's thread entry as one ES module of plain JavaScript, built with esbuild from its sources (and
// the @scb/shared code they import) once per process: a worker thread then loads it without a TypeScript
// loader. Every cell on the fake starts a thread, and loading the sources through tsx there cost about half
// a second of CPU each (docs/findings/product.md, "Test budget"). Dependencies stay outside the bundle and
// load from node_modules as they are, so the file is written where they resolve: this package's
// node_modules/.cache.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./thread-entry.ts', import.meta.url));
const CACHE = fileURLToPath(new URL('../node_modules/.cache/scb-fake/', import.meta.url));

/** Every bare import outside the workspace's own packages (written in TypeScript) is left to Node. */
const dependenciesOutside: Plugin = {
  name: 'dependencies-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@scb/') ? undefined : { path: a.path, external: true }));
  },
};

let built: Promise<URL | null> | undefined;

/** The bundled entry's URL; null where it cannot be built or written (a read-only install): the thread then loads the sources with tsx. */
export function threadEntryBundle(): Promise<URL | null> {
  built ??= bundle().catch(() => null);
  return built;
}

async function bundle(): Promise<URL> {
  const out = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: [dependenciesOutside],
  });
  const code = out.outputFiles[0]!.contents;
  const file = path.join(CACHE, `thread-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    // Written whole under a name of its own, then renamed: a process beside this one never loads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  return pathToFileURL(file);
}
