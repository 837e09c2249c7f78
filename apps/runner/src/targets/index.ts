import { policyRefusal, type CellPlan, type JobSpec, type Target } from '@scb/shared';
import { policy } from '../env';
import { emulator } from './emulator';
import { fake } from './fake';
import { spanner } from './spanner';
import type { StartedTarget, TargetPlugin } from './target';

export type { AddedLatency, ChannelStats, ServerTime, StartedTarget, TargetLoad, TargetPlugin, TargetStats } from './target';

/** Every target kind the runner can start; adding one is adding its file and a line here. */
const TARGETS: { [K in Target['kind']]: TargetPlugin<Extract<Target, { kind: K }>> } = { fake, emulator, spanner };

/**
 * Why this runner takes no job on the spec's target; null when it does. Checked before any of the
 * job's cells starts, so a target outside the operator's policy is never connected to.
 */
export function refuseJobOnTarget(spec: JobSpec): string | null {
  return (TARGETS[spec.target.kind] as TargetPlugin).refuseJob?.(spec.target) ?? policyRefusal(policy, spec.target);
}

/** Starts the job's target for one cell. */
export function startTarget(spec: JobSpec, plan: CellPlan): Promise<StartedTarget> {
  return (TARGETS[spec.target.kind] as TargetPlugin).start(spec.target, spec, plan);
}
