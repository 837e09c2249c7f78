// Whether the web app's production build is older than its sources, and marking it built: `npm start`
// builds when it is stale, and `npm test` before its e2e tier (whose files start the product side by side).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
      else h.update(p).update(readFileSync(p));
    }
  };
  for (const dir of ['apps/web', 'packages/shared/src', 'packages/db/src', 'packages/db/generated', 'packages/languages/src']) walk(path.join(ROOT, dir));
  h.update(readFileSync(path.join(ROOT, 'package-lock.json')));
  return h.digest('hex');
}

export function webBuildIsStale(): boolean {
  return !existsSync(path.join(WEB, '.next/BUILD_ID')) || !existsSync(STAMP_FILE) || readFileSync(STAMP_FILE, 'utf8') !== sourceStamp();
}

/** After a successful `next build`. */
export function markWebBuilt(): void {
  writeFileSync(STAMP_FILE, sourceStamp());
}
