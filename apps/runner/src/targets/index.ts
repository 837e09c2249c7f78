import type { CellPlan, JobSpec, Target } from '@scb/shared';
import { emulator } from './emulator';
import { fake } from './fake';
import type { StartedTarget, TargetPlugin } from './target';

export type { AddedLatency, ChannelStats, StartedTarget, TargetLoad, TargetPlugin, TargetStats } from './target';

/** Every target kind the runner can start; adding one is adding its file and a line here. */
const TARGETS: { [K in Target['kind']]: TargetPlugin<Extract<Target, { kind: K }>> } = { fake, emulator };

/** Starts the job's target for one cell. */
export function startTarget(spec: JobSpec, plan: CellPlan): Promise<StartedTarget> {
  return (TARGETS[spec.target.kind] as TargetPlugin).start(spec.target, spec, plan);
}
