import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { env } from './env';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Installed client versions; SCB_CACHE_DIR moves it (e.g. to share it between clones). */
export const CACHE_DIR = env.SCB_CACHE_DIR ? path.resolve(env.SCB_CACHE_DIR) : path.join(REPO_ROOT, '.cache');
