import { z } from 'zod';
import type { Client, Configuration } from '../job/spec';
import { emulatorTarget, EmulatorTargetSchema } from './emulator';
import { fakeTarget, FakeTargetSchema } from './fake';
import { spannerTarget, SpannerTargetSchema } from './spanner';
import type { JobBudget, TargetKind } from './kind';

export { FakeServerSchema, type FakeTarget } from './fake';
export type { EmulatorTarget } from './emulator';
export { NetworkSchema, type Network } from './network';
export { DEFAULT_SPANNER_ENDPOINT, type SpannerTarget } from './spanner';
export type { JobBudget, TargetKind } from './kind';

/** Where a job's cells run. One schema per kind, discriminated by `kind`. */
export const TargetSchema = z.discriminatedUnion('kind', [FakeTargetSchema, EmulatorTargetSchema, SpannerTargetSchema]);
export type Target = z.output<typeof TargetSchema>;

const KINDS: { [K in Target['kind']]: TargetKind<Extract<Target, { kind: K }>> } = { fake: fakeTarget, emulator: emulatorTarget, spanner: spannerTarget };

function kindOf<T extends Target>(target: T): TargetKind<T> {
  return KINDS[target.kind] as TargetKind<T>;
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
export function targetRefusal(target: Target, client: Client, configuration: Configuration): { option: string; message: string } | null {
  return kindOf(target).refuse?.(client, configuration) ?? null;
}

/** The configuration a cell runs on the target (the emulator turns Node's multiplexed sessions off). */
export function configurationOn(target: Target, client: Client, configuration: Configuration): Configuration {
  return kindOf(target).adjust?.(client, configuration) ?? configuration;
}

export function describeTarget(spec: TargetOfSpec): string {
  return kindOf(spec.target).describe(spec.target, spec.timeScale);
}

/** The closed-loop ceiling: C requests in flight, each taking the server latency. */
export function idealQps(concurrency: number, latencyMs: number): number {
  return latencyMs > 0 ? (concurrency * 1000) / latencyMs : Number.POSITIVE_INFINITY;
}
