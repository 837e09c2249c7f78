// A Java source compiled once per its text and classpath: the classes kept in a folder of the cache,
// named by a hash of both, made whole in a temporary folder beside it first.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder of `source`'s classes compiled against `classpath`, under `dir`; javac runs only when it is not there yet. */
export async function compiledOnce(source: string, classpath: string, dir: string): Promise<string> {
  const key = createHash('sha256').update(readFileSync(source)).update(classpath).digest('hex').slice(0, 16);
  const classes = path.join(dir, key);
  if (existsSync(classes)) return classes;
  mkdirSync(dir, { recursive: true });
  const tmp = mkdtempSync(`${classes}.tmp-`);
  try {
    await run('javac', ['--release', '17', '-nowarn', '-encoding', 'UTF-8', '-cp', classpath, '-d', tmp, source], { timeout: 5 * 60_000, maxBuffer: 1 << 24 });
    // Whole or not at all: another process may have put it there meanwhile (its copy is kept).
    if (!existsSync(classes)) renameSync(tmp, classes);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return classes;
}
