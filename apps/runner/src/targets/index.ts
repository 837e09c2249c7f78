import { policyRefusal, type CellPlan, type JobSpec } from '@scb/shared';
import { builtInRunners } from '@scb/targets';
import { TargetError, type StartedTarget, type TargetPlugin } from '@scb/shared/target-plugin';
import { CellError } from '@scb/languages';
import { policy } from '../env';

export type { AddedLatency, ChannelStats, ServerTime, StartedTarget, TargetLoad, TargetPlugin, TargetStats } from '@scb/shared/target-plugin';

/** Every target kind the runner can start: the built-ins, then what plug-ins register (SCB_PLUGINS). */
const TARGETS = new Map<string, TargetPlugin<any>>((await builtInRunners()).map((p) => [p.kind, p]));

/** Adds (or replaces) a target plug-in; its TargetKind must be registered in @scb/shared as well. */
export function registerTargetPlugin(plugin: TargetPlugin<any>): void {
  TARGETS.set(plugin.kind, plugin);
}

export function targetPlugin(kind: string): TargetPlugin | undefined {
  return TARGETS.get(kind);
}

/** The kinds this runner offers: those whose plug-in is available here. */
export function availableTargets(): string[] {
  return [...TARGETS.values()].filter((p) => p.available()).map((p) => p.kind);
}

/** The version of each available kind's software this runner starts (recorded with each job). */
export function targetVersions(): Record<string, string | null> {
  return Object.fromEntries([...TARGETS.values()].flatMap((p) => (p.version && p.available() ? [[p.kind, p.version()]] : [])));
}

function pluginOf(spec: JobSpec): TargetPlugin {
  const p = TARGETS.get(spec.target.kind);
  if (!p) throw new Error(`this runner has no plug-in for the target kind "${spec.target.kind}"`);
  return p;
}

/**
 * Why this runner takes no job on the spec's target; null when it does. Checked before any of the
 * job's cells starts, so a target outside the operator's policy is never connected to.
 */
export function refuseJobOnTarget(spec: JobSpec): string | null {
  const p = TARGETS.get(spec.target.kind);
  if (!p) return `this runner has no plug-in for the target kind "${spec.target.kind}"`;
  return p.refuseJob?.(spec.target) ?? policyRefusal(policy(), spec);
}

/** Starts the job's target for one cell; why it could not (a TargetError) becomes the cell's error, redacted. */
export async function startTarget(spec: JobSpec, plan: CellPlan): Promise<StartedTarget> {
  try {
    return await pluginOf(spec).start(spec.target, spec, plan);
  } catch (e) {
    throw e instanceof TargetError ? new CellError(e.message) : e;
  }
}
