// The one module of this package that needs Node (node:crypto); it has its own export
// (@scb/shared/scenario-key) so that everything else can go into a browser bundle.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json';
import { scenarioOf } from './scenario';
import type { JobSpec } from './spec';

/** A short stable id of the scenario, for URLs (/versions?scenario=...); stored links hold it, so it never changes. */
export function scenarioKey(spec: JobSpec): string {
  return createHash('sha256')
    .update(canonicalJson(scenarioOf(spec)))
    .digest('hex')
    .slice(0, 12);
}
