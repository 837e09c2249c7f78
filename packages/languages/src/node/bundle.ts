import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The Node driver as one ES module, built with esbuild from its sources (and the @scb/shared and
 * hdr-histogram-js code they import) once per runner process, kept under <cacheDir>/drivers/node by the
 * hash of its content. A cell's process then loads plain JavaScript: no TypeScript loader, no compile on
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

async function bundle(entry: string, cacheDir: string): Promise<string> {
  const out = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent', legalComments: 'none' });
  const code = out.outputFiles[0]!.contents;
  const dir = path.join(cacheDir, 'drivers', 'node');
  const file = path.join(dir, `driver-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written whole under a name of its own, then renamed: a runner beside this one never loads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  return file;
}
