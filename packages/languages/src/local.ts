// This checkout's places and this machine's ports, for the runner and the scripts alike (Node only:
// no page imports it). The runner's paths.ts and net.ts re-export them.
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Installed client versions; SCB_CACHE_DIR moves it (e.g. to share it between clones). Unset and empty are the same. */
export const CACHE_DIR = process.env.SCB_CACHE_DIR?.trim() ? path.resolve(process.env.SCB_CACHE_DIR.trim()) : path.join(REPO_ROOT, '.cache');

/** A port of 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export { CGROUP_ROOT, createIdleCgroup, idleCgroupsCpuMs, type IdleCgroup } from './idle-cgroups';

export { SHORT_CELL_OPTIONS } from './launch/runtime-options';
