// This checkout's places and this machine's ports, for the runner and the scripts alike (Node only:
// no page imports it). The runner's paths.ts and net.ts re-export them.
import net from 'node:net';
export { CACHE_DIR, REPO_ROOT } from './cache-dir.mjs';

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
