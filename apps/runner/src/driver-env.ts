// What a Driver process sees of the Runner's environment (packages/languages/src/launch/environment.ts),
// for a Cell on a target of this kind.
import type { Target } from '@scb/shared';
import { driverEnvironment as environmentOf } from '@scb/languages';
import { targetPlugin } from './targets/index';

export { redactEnvironment } from '@scb/languages';

/** Whether drivers of cells on this target kind get the runner's Google credentials. */
export const targetCredentials = (target: Target['kind'] | undefined): boolean => Boolean(target && targetPlugin(target)?.credentials);

/** A Driver's whole environment for a Cell on a Target of this kind. */
export function driverEnvironment(target: Target['kind'] | undefined, runner: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return environmentOf(targetCredentials(target), runner);
}
