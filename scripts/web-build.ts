// Whether the web app's production build is older than its sources, and marking it built: `npm start`
// builds when it is stale, and `npm test` before its e2e tier (whose files start the product side by side).
// A build is kept in the client cache (SCB_CACHE_DIR) under its sources' stamp, so another checkout of
// the same sources on this machine (a clean clone for CI) takes it instead of building again.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR } from '@scb/languages/local';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB = path.join(ROOT, 'apps/web');
export const NEXT_BIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('next/package.json'))), 'dist/bin/next');
const STAMP_FILE = path.join(WEB, '.next/scb-source-stamp');

/** The web app bundles @scb/languages (the registry look-ups), not its drivers. */
const LANGUAGES_SRC = path.join(ROOT, 'packages/languages/src');

/** A hash of everything the web build is made of, so a stale build is rebuilt after a pull. */
function sourceStamp(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name.startsWith('.') || name === 'next-env.d.ts' || name.endsWith('.tsbuildinfo')) continue;
      const p = path.join(dir, name);
      if (p.startsWith(LANGUAGES_SRC) && name === 'driver') continue;
      if (statSync(p).isDirectory()) walk(p);
      // Paths relative to the checkout: two clones of the same sources have one stamp.
      else h.update(path.relative(ROOT, p)).update(readFileSync(p));
    }
  };
  for (const dir of ['apps/web', 'packages/shared/src', 'packages/db/src', 'packages/db/generated', 'packages/languages/src', 'packages/targets/src']) walk(path.join(ROOT, dir));
  h.update(readFileSync(path.join(ROOT, 'package-lock.json')));
  return h.digest('hex');
}

export function webBuildIsStale(): boolean {
  return !existsSync(path.join(WEB, '.next/BUILD_ID')) || !existsSync(STAMP_FILE) || readFileSync(STAMP_FILE, 'utf8') !== sourceStamp();
}

const NEXT_DIR = path.join(WEB, '.next');
const BUILDS = path.join(CACHE_DIR, 'web-builds');
/** What a build holds that serving does not need: Next's own incremental cache and traces. */
const NOT_KEPT = new Set(['cache', 'trace', 'trace-build', 'diagnostics']);
/** The files of a build that name its checkout's absolute path (the standalone server's settings). */
const NAMING_ROOT = ['required-server-files.json', 'required-server-files.js'];
const KEPT_BUILDS = 3;

/** After a successful `next build`: stamps it, and keeps a copy in the client cache under its stamp. */
export function markWebBuilt(): void {
  const stamp = sourceStamp();
  writeFileSync(STAMP_FILE, stamp);
  try {
    const dir = path.join(BUILDS, stamp);
    if (existsSync(dir)) return;
    const tmp = `${dir}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    for (const name of readdirSync(NEXT_DIR)) if (!NOT_KEPT.has(name)) cpSync(path.join(NEXT_DIR, name), path.join(tmp, '.next', name), { recursive: true, verbatimSymlinks: true });
    writeFileSync(path.join(tmp, 'root'), ROOT);
    renameSync(tmp, dir);
    // The newest few builds stay.
    const kept = readdirSync(BUILDS)
      .filter((n) => /^[0-9a-f]{64}$/.test(n))
      .map((n) => ({ n, t: statSync(path.join(BUILDS, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { n } of kept.slice(KEPT_BUILDS)) rmSync(path.join(BUILDS, n), { recursive: true, force: true });
  } catch (e) {
    console.error(`web build not kept in the cache (${(e as Error).message}); the next checkout builds its own`);
  }
}

/**
 * A stale build replaced by the cache's build of the same sources, made in another checkout on this
 * machine: true when it was (the build is then current), false when there is none.
 */
export function restoreCachedWebBuild(): boolean {
  const stamp = sourceStamp();
  const dir = path.join(BUILDS, stamp);
  if (!existsSync(path.join(dir, '.next', 'BUILD_ID'))) return false;
  const builtAt = readFileSync(path.join(dir, 'root'), 'utf8');
  for (const name of existsSync(NEXT_DIR) ? readdirSync(NEXT_DIR) : []) if (!NOT_KEPT.has(name)) rmSync(path.join(NEXT_DIR, name), { recursive: true, force: true });
  cpSync(path.join(dir, '.next'), NEXT_DIR, { recursive: true, verbatimSymlinks: true });
  for (const name of NAMING_ROOT) {
    const file = path.join(NEXT_DIR, name);
    if (existsSync(file)) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(builtAt, ROOT));
  }
  writeFileSync(STAMP_FILE, stamp);
  return true;
}
