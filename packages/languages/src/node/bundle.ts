import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The Node driver as one ES module, built with esbuild from its sources (and the @scb/shared and
 * hdr-histogram-js code they import) once per set of sources (builtBefore), kept under
 * <cacheDir>/drivers/node by the hash of its content. A cell's process then loads plain JavaScript: no TypeScript loader, no compile on
 * start (tsx's cache lives in TMPDIR, which a sandboxed driver gets fresh), about a second less per cell.
 * The client itself is not in it: the driver loads it from the installed version's folder at run time.
 */
const building = new Map<string, Promise<string>>();

export function nodeDriverBundle(entry: string, cacheDir: string): Promise<string> {
  const key = `${entry}\0${cacheDir}`;
  let p = building.get(key);
  if (!p) {
    p = bundle(entry, cacheDir);
    // A failed build is tried again by the next cell, not remembered.
    p.catch(() => building.delete(key));
    building.set(key, p);
  }
  return p;
}

/** The options of the build: an index made under others is not taken (its name holds their hash). */
const OPTIONS = { bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent', legalComments: 'none', metafile: true } as const;

const sha = (bytes: Buffer | Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The bundle another process built from these very sources: the index beside it lists every file the
 * build read (its metafile) with a hash of its content, so a process whose files all hash the same takes
 * that bundle without running esbuild (a build is about half a second of CPU; every runner and test
 * process that starts a Node driver made one). Undefined where any file changed or is gone.
 */
export function builtBefore(index: string): string | undefined {
  try {
    const known = JSON.parse(readFileSync(index, 'utf8')) as { file: string; inputs: Record<string, string> };
    if (!existsSync(known.file)) return undefined;
    for (const [file, sum] of Object.entries(known.inputs)) if (sha(readFileSync(file)) !== sum) return undefined;
    return known.file;
  } catch {
    return undefined; // none yet, unreadable, or an input gone
  }
}

/** Written whole under a name of this process's, then renamed: a process beside it never reads half a file. */
function writeWhole(file: string, content: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

async function bundle(entry: string, cacheDir: string): Promise<string> {
  const dir = path.join(cacheDir, 'drivers', 'node');
  const index = path.join(dir, `inputs-${sha(`${entry}\0${JSON.stringify(OPTIONS)}`).slice(0, 16)}.json`);
  const before = builtBefore(index);
  if (before) return before;
  const out = await build({ ...OPTIONS, entryPoints: [entry] });
  const code = out.outputFiles[0]!.contents;
  const file = path.join(dir, `driver-${sha(code).slice(0, 16)}.mjs`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(file)) writeWhole(file, code);
  try {
    // The metafile names inputs from esbuild's working directory (this process's).
    const inputs = Object.fromEntries(Object.keys(out.metafile.inputs).map((p) => [path.resolve(p), sha(readFileSync(path.resolve(p)))]));
    writeWhole(index, JSON.stringify({ file, inputs }));
  } catch {
    // An input this process cannot read again: no index, the next process builds too.
  }
  return file;
}
