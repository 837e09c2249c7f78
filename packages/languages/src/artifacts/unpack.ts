// Writes checked entries under a folder: regular files and folders only, each created anew (O_EXCL,
// O_NOFOLLOW), so nothing is followed through a link and nothing already there is overwritten.
import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Entry } from './archive';

/** Folders 0755; files 0644, or 0755 where the archive marks them executable by their owner. Never setuid, setgid, sticky or group/other-writable. */
export const FILE_MODE = 0o644;
export const EXEC_MODE = 0o755;
export const DIR_MODE = 0o755;

/**
 * Writes `entries` (paths relative to `dir`, already checked by checkEntries) under `dir`, which must
 * not exist or be an empty folder (not a link to one). On a failure part-way, what was written is
 * removed again and the error rethrown.
 */
export function writeEntries(entries: Entry[], dir: string): void {
  const root = path.resolve(dir);
  let created = false;
  try {
    const st = lstatSync(root);
    if (!st.isDirectory()) throw new Error(`cannot unpack into ${root}: it exists and is not a folder`);
    if (readdirSync(root).length) throw new Error(`cannot unpack into ${root}: the folder is not empty`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    mkdirSync(root, { recursive: true, mode: DIR_MODE });
    created = true;
  }
  const made = new Set<string>(['']);
  const target = (rel: string) => {
    const abs = path.join(root, rel);
    if (!abs.startsWith(root + path.sep)) throw new Error(`refusing to write ${JSON.stringify(rel)} outside ${root}`);
    return abs;
  };
  const ensureDir = (rel: string) => {
    if (made.has(rel)) return;
    ensureDir(rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
    const abs = target(rel);
    try {
      mkdirSync(abs, { mode: DIR_MODE });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !lstatSync(abs).isDirectory()) throw e;
    }
    made.add(rel);
  };
  try {
    for (const e of entries) {
      if (e.kind === 'dir') {
        ensureDir(e.path);
        continue;
      }
      ensureDir(e.path.includes('/') ? e.path.slice(0, e.path.lastIndexOf('/')) : '');
      const fd = openSync(target(e.path), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, e.executable ? EXEC_MODE : FILE_MODE);
      try {
        writeFileSync(fd, e.data);
      } finally {
        closeSync(fd);
      }
    }
  } catch (e) {
    if (created) rmSync(root, { recursive: true, force: true });
    else for (const name of readdirSync(root)) rmSync(path.join(root, name), { recursive: true, force: true });
    throw e;
  }
}
