// The runner's side of a target kind: how it starts and stops for a cell and what it records. Beside
// its TargetKind (kind.ts): a plug-in module (SCB_PLUGINS) names it from @scb/shared/target-plugin;
// the built-in kinds' runner side is packages/targets/src/<kind>/runner.ts.
import type { CellPlan } from '../job/plan';
import type { JobSpec } from '../job/spec';
import type { DriverCell } from '../protocol';
import type { CellEvent, CellTokens } from '../stored';

/** What a target saw of a cell's connections: every RPC it served and their spread over connections. */
export interface ChannelStats {
  /** Who counted: the fake server itself, or the connection tap in front of the target. */
  source: 'fake' | 'tap';
  totalRpcs: number;
  connections: { connection: number; peer: string; rpcs: number; peakInFlight: number }[];
}

export interface AddedLatency {
  p50Ms: number;
  p99Ms: number;
}

/** How busy the target's own event loop was while the cell measured: busy share 0..1, delay p99. */
export interface TargetLoad {
  utilization: number;
  delayP99Ms: number;
}

export interface TargetStats {
  channels: ChannelStats;
  /** The time the target added to its RPCs beyond the latency it applied, over the whole cell. */
  added: AddedLatency | null;
  /** The same as the wire shows it (the fake with measureOnWire: the tap's time per RPC minus the latency applied); null where not measured. */
  wireAdded?: AddedLatency | null;
  /** Its event loop over the measured phase (from `markMeasuring`). */
  load: TargetLoad | null;
  /** A target in a process of its own (the emulator): its CPU over the measured phase, as a share of all cores. */
  cpuShare: number | null;
  /** Where the target knows which operation an RPC belongs to (the fake): its time per RPC, by operation, over the measured phase. */
  serverByOperation?: Record<string, ServerTime>;
  /** Connections opened and closed, schedule changes and injected faults while the driver measured, where the target saw them (the fake). */
  events?: CellEvent[];
  /** Credentials mode: every RPC's bearer token as the fake found it (valid, missing, expired, invalid). */
  tokens?: CellTokens;
  /**
   * Bytes the target sent the driver on the wire (TCP payload) from the measured phase's start until the
   * driver exited: the connection tap's count where one is in front, else the fake's own sockets'; null
   * where neither counted.
   */
  wireBytes?: number | null;
}

/** The server's time per RPC of one operation kind: how many RPCs, and their percentiles. */
export interface ServerTime {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

/** A target ready for one cell's driver. */
export interface StartedTarget {
  endpoint: DriverCell['endpoint'];
  database: DriverCell['database'];
  /** Where the target is ours (the fake): what it counted and measured, read after the driver has exited. */
  stats?(): Promise<TargetStats>;
  /** Called when the driver starts its measured phase, so the target's load covers that phase. */
  markMeasuring?(): Promise<void>;
  /** Set in the driver's environment over the runner's own (the fake's credentials mode: its metadata server). */
  environment?: Record<string, string>;
  /** What the target knows of why a cell failed (its metadata server gave no token), put before the driver's words. */
  failureHint?(): string | null;
  stop(): Promise<void>;
}

/**
 * One kind of target (packages/targets/src/<kind>/runner.ts): started fresh for every cell, so no earlier connection
 * counts. What is known of the kind without starting it is its TargetKind (@scb/shared).
 */
export interface TargetPlugin<T extends { kind: string } = { kind: string }> {
  /** Its TargetKind's name. */
  kind: string;
  /** Whether this runner can start or reach the kind (the emulator: its binary was found): it offers only those. */
  available(): boolean;
  /** The version of the software this runner starts for the kind, recorded with each job; null where unknown. */
  version?(): string | null;
  /** Whether drivers get the runner's Google credentials (GOOGLE_APPLICATION_CREDENTIALS and the like) for this kind. */
  credentials?: boolean;
  /** Why this runner takes no job on the target (e.g. real Spanner not enabled by its operator); null when it does. */
  refuseJob?(target: T): string | null;
  start(target: T, spec: JobSpec, plan: CellPlan): Promise<StartedTarget>;
}

/**
 * Why a target could not start for a cell, in words the user reads (stored with the cell, publicly:
 * the runner redacts its environment's values from it and stores it as the cell's error).
 */
export class TargetError extends Error {}
