// This checkout's root and the cache under it, in plain JavaScript: local.ts re-exports them, and the
// compile cache's preload (node/compile-cache-preload.mjs), which runs before any TypeScript loader, reads them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Installed client versions; SCB_CACHE_DIR moves it (e.g. to share it between clones). Unset and empty are the same. */
export const CACHE_DIR = process.env.SCB_CACHE_DIR?.trim() ? path.resolve(process.env.SCB_CACHE_DIR.trim()) : path.join(REPO_ROOT, '.cache');
