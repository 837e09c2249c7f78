import { z } from 'zod';
import { fakeTarget, FakeTargetSchema } from './fake';
import type { TargetKind } from './kind';

export { FakeServerSchema, type FakeTarget } from './fake';
export type { TargetKind } from './kind';

/** Where a job's cells run. One schema per kind, discriminated by `kind`. */
export const TargetSchema = z.discriminatedUnion('kind', [FakeTargetSchema]);
export type Target = z.output<typeof TargetSchema>;

const KINDS: { [K in Target['kind']]: TargetKind<Extract<Target, { kind: K }>> } = { fake: fakeTarget };

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

export function describeTarget(spec: TargetOfSpec): string {
  return kindOf(spec.target).describe(spec.target, spec.timeScale);
}

/** The closed-loop ceiling: C requests in flight, each taking the server latency. */
export function idealQps(concurrency: number, latencyMs: number): number {
  return latencyMs > 0 ? (concurrency * 1000) / latencyMs : Number.POSITIVE_INFINITY;
}
