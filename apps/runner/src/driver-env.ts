// What a Driver process sees of the Runner's environment, by its Target's kind (the lists and the
// redaction of stored errors: driver-allowlist.ts). A Driver runs a client version a user picked: it
// gets an allowlist, never the Runner's secrets.
import type { Target } from '@scb/shared';
import { CREDENTIALS, PASSED, SET, SET_WITHOUT_CREDENTIALS } from './driver-allowlist';
import { targetPlugin } from './targets/index';

export { redactEnvironment } from './driver-allowlist';

/**
 * A Driver's whole environment for a Cell on a Target of this kind. Not passed on purpose, besides
 * the Runner's secrets: NODE_OPTIONS, JAVA_TOOL_OPTIONS, GOMAXPROCS and the like (they would change
 * what is measured) and proxies (the Driver only reaches the Target).
 */
export function driverEnvironment(target: Target['kind'] | undefined, runner: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const credentials = Boolean(target && targetPlugin(target)?.credentials);
  const names: readonly string[] = credentials ? [...PASSED, ...CREDENTIALS, 'METADATA_SERVER_DETECTION'] : PASSED;
  const env: Record<string, string> = {};
  for (const name of names) {
    const v = runner[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...SET, ...(credentials ? {} : SET_WITHOUT_CREDENTIALS) };
}
