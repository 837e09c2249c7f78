import type http from 'node:http';
import { after, before } from 'node:test';

/** The variables that point the clients' registries somewhere else: npm, Maven, the Go module proxy. */
const VARIABLES = ['npm_config_registry', 'npm_config_fetch_retries', 'SCB_MAVEN_REPOSITORY', 'GOPROXY'] as const;

/**
 * For one test file: `server` (a registry stand-in answering under /npm/, /maven and /go) listens on
 * loopback before its tests and every registry look-up of this process goes to it; after them the
 * variables are as they were and the server is closed. npm is asked once per look-up (no retries):
 * a registry that is down is said at once, and requests count look-ups.
 */
export function useRegistryStandIn(server: http.Server): void {
  const saved = Object.fromEntries(VARIABLES.map((k) => [k, process.env[k]]));
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    process.env.npm_config_registry = `${base}/npm/`;
    process.env.npm_config_fetch_retries = '0';
    process.env.SCB_MAVEN_REPOSITORY = `${base}/maven`;
    process.env.GOPROXY = `${base}/go`;
  });
  after(async () => {
    for (const k of VARIABLES)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    await new Promise<void>((r) => server.close(() => r()));
  });
}
