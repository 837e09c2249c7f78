import { z } from 'zod';
import type { Policy } from '../policy/rules';
import { registerTargetKind, targetKindNamed, targetKinds } from '../registry';
import { BUILT_IN_KINDS, type EmulatorTarget, type FakeTarget, type SpannerTarget } from '@scb/targets/kinds';
import type { JobBudget, TargetClient, TargetConfiguration, TargetKind } from './kind';

// The built-in kinds live in @scb/targets (packages/targets/src/<kind>/kind.ts), listed once there.
export {
  DEFAULT_TARGET,
  FakeServerSchema,
  FakeTargetSchema,
  GRPC_JS_DNS_AUTHORITY,
  type FakeTarget,
  EMULATOR_HOST_RULE,
  EMULATOR_POLICY_VARIABLES,
  emulatorHostAllowed,
  EmulatorTargetSchema,
  type EmulatorPolicy,
  type EmulatorTarget,
  type PortRange,
  DEFAULT_SPANNER_CEILINGS,
  DEFAULT_SPANNER_ENDPOINT,
  GOOGLE_SPANNER_ENDPOINTS,
  SPANNER_POLICY_VARIABLES,
  SPANNER_RULES,
  spannerDatabaseAllowed,
  spannerEndpointAllowed,
  SpannerTargetSchema,
  type DatabaseRule,
  type SpannerPolicy,
  type SpannerTarget,
} from '@scb/targets/kinds';
export { NetworkSchema, type Network } from './network';
export type { JobBudget, TargetClient, TargetConfiguration, TargetKind, TargetPolicy } from './kind';

for (const kind of BUILT_IN_KINDS) registerTargetKind(kind);

/** A target of a kind a plug-in registered: its fields are its kind's business. */
export interface OtherTarget {
  kind: string;
  [field: string]: unknown;
}
/** Where a job's cells run: a target of a registered kind. */
export type Target = FakeTarget | EmulatorTarget | SpannerTarget | OtherTarget;

/**
 * Where a job's cells run, validated by the schema of its `kind` as registered (registry.ts). Not a
 * z.discriminatedUnion: kinds registered after this module loads (plug-ins) count, and a plug-in's
 * schema may come from another copy of zod.
 */
export const TargetSchema = z.looseObject({ kind: z.string() }).transform((value, ctx): Target => {
  const kind = targetKindNamed(value.kind);
  if (!kind) {
    ctx.addIssue({
      code: 'custom',
      path: ['kind'],
      input: value.kind,
      message: `must be one of ${targetKinds()
        .map((k) => k.name)
        .join(', ')}`,
    });
    return z.NEVER;
  }
  const parsed = kind.schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // As the kind's schema raised them (unrecognized keys keep their keys), under this schema's path.
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: value } as Parameters<typeof ctx.addIssue>[0]);
  return z.NEVER;
});

function kindOf<T extends Target>(target: T): TargetKind<T> {
  const kind = targetKindNamed(target.kind);
  if (!kind) throw new Error(`no target kind "${target.kind}" is registered`);
  return kind as TargetKind<T>;
}

/** The kind's name in words ("Cloud Spanner emulator"); the name itself for one no plug-in registered (a stored job whose plug-in is gone). */
export function targetTitle(kind: string): string {
  return targetKindNamed(kind)?.title ?? kind;
}

/** Whether the runner starts the target from software of its own (placement, and the version recorded with the job). */
export function startedByRunner(target: Target): boolean {
  return kindOf(target).startedByRunner?.(target) ?? false;
}

/** The rules of the operator's policy the target breaks, at fields of the target. */
export function targetPolicyIssues(target: Target, policy: Policy): { field: string; message: string }[] {
  return kindOf(target).policyIssues?.(target, policy) ?? [];
}

/** Whether the target is a service beyond this machine (TargetKind.remote). */
export function isRemoteTarget(target: Target): boolean {
  return kindOf(target).remote === true;
}

type TargetOfSpec = { target: Target; timeScale: number };

/** Server time of one data RPC after the time scale, where the target models one; the ideal qps line needs it. */
export function modeledLatencyMs(spec: TargetOfSpec): number | null {
  return kindOf(spec.target).modeledLatencyMs(spec.target, spec.timeScale);
}

export function normalizeTarget(target: Target): Target {
  return kindOf(target).normalize(target);
}

/** What the run-time estimate assumes of a target: its set-up per cell and an operation's time. */
export function targetEstimate(target: Target): { setupSeconds: number; operationMs: number } {
  return kindOf(target).estimate;
}

/** Streams per connection the target allows at once; null where it sets no limit. */
export function streamLimit(target: Target): number | null {
  return kindOf(target).streamLimit(target);
}

/** The job-wide budget on the target, where it has one (real Spanner). */
export function targetBudget(target: Target): JobBudget | null {
  return kindOf(target).budget?.(target) ?? null;
}

/** The cost cap of each cell on the target, where it has one (real Spanner). */
export function targetCap(target: Target): { ops: number; ms: number } | null {
  return kindOf(target).cap?.(target) ?? null;
}

/** Why a client and configuration can never run on the target; null when they can. */
export function targetRefusal(target: Target, client: TargetClient, configuration: TargetConfiguration): { option: string; message: string } | null {
  return kindOf(target).refuse?.(client, configuration) ?? null;
}

/** Why a client can never run on the target as the spec sets it up; null when it can. */
export function targetClientRefusal(target: Target, client: TargetClient): string | null {
  return kindOf(target).refuseClient?.(target, client) ?? null;
}

/** The configuration a cell runs on the target (the emulator turns Node's multiplexed sessions off). */
export function configurationOn<C extends TargetConfiguration>(target: Target, client: TargetClient, configuration: C): C {
  return kindOf(target).adjust?.(client, configuration) ?? configuration;
}

export function describeTarget(spec: TargetOfSpec): string {
  return kindOf(spec.target).describe(spec.target, spec.timeScale);
}

/** The closed-loop ceiling: C requests in flight, each taking the server latency. */
export function idealQps(concurrency: number, latencyMs: number): number {
  return latencyMs > 0 ? (concurrency * 1000) / latencyMs : Number.POSITIVE_INFINITY;
}
