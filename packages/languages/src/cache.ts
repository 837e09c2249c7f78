// The client install cache under a size cap. Installed versions live in <cacheDir>/clients/<language>/<name>
// and are stamped each time a driver is prepared from them; build caches (what a language keeps only to
// build the next version faster) are removed first, then versions, least recently used first.
import { chmodSync, existsSync, lstatSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const USED = '.used';

/** Records that an installed client was used now: the eviction's order. */
export function markUsed(dir: string): void {
  if (existsSync(dir)) writeFileSync(path.join(dir, USED), `${new Date().toISOString()}\n`);
}

/** Bytes under a path, symbolic links not followed; iterative (a module cache is deep and wide). */
export function bytesUnder(root: string): number {
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    const s = lstatSync(p, { throwIfNoEntry: false });
    if (!s) continue;
    if (s.isDirectory()) for (const name of readdirSync(p)) stack.push(path.join(p, name));
    else total += s.size;
  }
  return total;
}

/** Removes a tree even where its directories are read-only (Go's module cache is). */
function removeTree(root: string): void {
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      if (!lstatSync(p).isDirectory()) continue;
      chmodSync(p, 0o755);
      for (const name of readdirSync(p)) stack.push(path.join(p, name));
    } catch {}
  }
  rmSync(root, { recursive: true, force: true });
}

export interface CacheEntry {
  /** e.g. clients/go/1.33.0, or go/mod for a build cache. */
  name: string;
  bytes: number;
  /** When a driver was last prepared from it (ms); 0 for build caches and versions never stamped. */
  usedAt: number;
}

export interface Eviction {
  bytesBefore: number;
  bytesAfter: number;
  removed: CacheEntry[];
}

/**
 * Brings the cache under `maxBytes`: build caches first (they only speed up the next build), then
 * installed versions, least recently used first. `buildCaches` are paths relative to `cacheDir`.
 */
export function enforceCacheCap(cacheDir: string, maxBytes: number, buildCaches: string[]): Eviction {
  const versions: CacheEntry[] = [];
  const clients = path.join(cacheDir, 'clients');
  for (const language of existsSync(clients) ? readdirSync(clients) : [])
    for (const name of readdirSync(path.join(clients, language))) {
      // An install in progress (oneAtATime's lock) is not a version to evict.
      if (name.endsWith('.lock')) continue;
      const dir = path.join(clients, language, name);
      const used = path.join(dir, USED);
      versions.push({ name: path.join('clients', language, name), bytes: bytesUnder(dir), usedAt: existsSync(used) ? statSync(used).mtimeMs : 0 });
    }
  const builds = buildCaches.filter((b) => existsSync(path.join(cacheDir, b))).map((b) => ({ name: b, bytes: bytesUnder(path.join(cacheDir, b)), usedAt: 0 }));
  const bytesBefore = [...versions, ...builds].reduce((a, e) => a + e.bytes, 0);
  let bytes = bytesBefore;
  const removed: CacheEntry[] = [];
  for (const e of [...builds, ...versions.sort((a, b) => a.usedAt - b.usedAt)]) {
    if (bytes <= maxBytes) break;
    removeTree(path.join(cacheDir, e.name));
    bytes -= e.bytes;
    removed.push(e);
  }
  return { bytesBefore, bytesAfter: bytes, removed };
}
