// The runner's writes outlive a database restart: a write that fails because the database cannot be
// reached is tried again until it can (a result measured is not thrown away for a restart).

import { isDatabaseUnreachable } from '@scb/db';

/** Runs a database write, retrying it every `everyMs` while the database is unreachable, for up to `forMs`. */
export async function untilStored<T>(write: () => Promise<T>, log: (line: string) => void, what: string, forMs = 300_000, everyMs = 1000): Promise<T> {
  const t0 = Date.now();
  let told = false;
  for (;;) {
    try {
      const r = await write();
      if (told) log(`${what}: stored after the database came back (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      return r;
    } catch (e) {
      if (!isDatabaseUnreachable(e) || Date.now() - t0 > forMs) throw e;
      if (!told) log(`${what}: the database is unreachable; retrying every ${everyMs / 1000} s`);
      told = true;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
