import { CellError, driverDeadlineMs, runDriver, type CellHooks, type DriverLaunch } from '@scb/languages';
import { driverWorkload, isOpenLoop, targetCap, type CellEvent, type CellPlan, type CellTokens, type DriverCell, type JobSpec, type ResultMessage } from '@scb/shared';
import { isolateBuild } from './builds';
import { targetCredentials } from './driver-env';
import { env } from './env';
import { watchMachine, type MachineLoad } from './machine';
import { startTarget, type AddedLatency, type ChannelStats, type ServerTime, type TargetLoad } from './targets/index';

export interface CellOutcome {
  result: ResultMessage;
  /** Every RPC the cell's fresh target served (sessions, warm-up, measured), and their spread over connections, where the target counts them. */
  channels?: ChannelStats;
  /** What the target itself added to its RPCs, where it can tell (the fake). */
  targetAdded?: AddedLatency | null;
  /** The same on the wire, where the target measured it there (the fake with measureOnWire). */
  targetWireAdded?: AddedLatency | null;
  /** The target's own event loop while the driver measured, where it can tell (the fake). */
  targetLoad?: TargetLoad | null;
  /** The target's own process while the driver measured (the emulator), as a share of all cores. */
  targetCpuShare?: number | null;
  /** The machine while the driver measured. */
  machine?: MachineLoad;
  /** The target's time per RPC, by operation kind, while the driver measured (the fake). */
  serverByOperation?: Record<string, ServerTime>;
  /** What the target saw happen while the driver measured (the fake): connections, schedule changes, faults. */
  events?: CellEvent[];
  /** Credentials mode: every RPC's bearer token as the fake found it. */
  tokens?: CellTokens;
  /** Bytes the target sent the driver on the wire from the measured phase's start to the driver's exit, where counted (TargetStats.wireBytes). */
  wireBytes?: number | null;
}

/**
 * Runs one cell: a fresh target (so no connection of an earlier cell is counted), a fresh driver
 * process with a fresh client, and the target's per-connection accounting where it has one.
 */
/** `cap`: the cell's cost cap where a job-wide budget lowered the target's own. */
export async function runCell(spec: JobSpec, plan: CellPlan, launch: DriverLaunch, hooks: CellHooks = {}, cap = targetCap(spec.target)): Promise<CellOutcome> {
  const target = await startTarget(spec, plan);
  try {
    const cell: DriverCell = {
      endpoint: target.endpoint,
      database: target.database,
      client: plan.client,
      configuration: plan.configuration,
      ...driverWorkload(spec.workload, plan.concurrency, spec.timeScale, isOpenLoop(spec)),
      ...(cap ? { cap } : {}),
      deadlineMs: driverDeadlineMs(spec, plan.concurrency, env.SCB_DRIVER_START_MS),
    };
    // An uploaded build's driver runs in the sandbox, reaching only this target; so does every other
    // driver of a job that runs one, so that what it is compared with runs under the same conditions.
    const isolated = spec.clients.some((c) => c.artifact) ? await isolateBuild(launch, cell, target.environment ?? {}) : null;
    // The measured phase is the window of the target's and the machine's load.
    let window: ReturnType<typeof watchMachine> | undefined;
    let machine: MachineLoad | undefined;
    const result = await runDriver(
      cell,
      isolated?.launch ?? launch,
      {
        ...hooks,
        onProgress(p) {
          if (p.phase === 'measure' && !window) {
            window = watchMachine();
            target.markMeasuring?.().catch(() => {});
          }
          hooks.onProgress?.(p);
        },
        onResult() {
          machine = window?.end();
          hooks.onResult?.();
        },
      },
      targetCredentials(spec.target.kind),
      target.environment,
    )
      .catch((e: unknown) => {
        // What the target knows of why (no token was ever issued) goes before the driver's words.
        const hint = e instanceof CellError ? target.failureHint?.() : null;
        throw hint ? new CellError(`${hint}; ${(e as Error).message}`) : e;
      })
      .finally(() => isolated?.stop());
    const stats = await target.stats?.();
    // Nothing measured but the missing credentials: the cell failed, and says where they should have come from.
    const hint = result.count === 0 ? target.failureHint?.() : null;
    if (hint)
      throw new CellError(
        `${hint}: every operation failed (${
          Object.entries(result.errors)
            .map(([code, n]) => `${n} ${code}`)
            .join(', ') || 'none ran'
        })`,
      );
    return {
      result,
      channels: stats?.channels,
      targetAdded: stats?.added,
      targetWireAdded: stats?.wireAdded,
      targetLoad: stats?.load,
      targetCpuShare: stats?.cpuShare,
      machine,
      serverByOperation: stats?.serverByOperation,
      events: stats?.events,
      tokens: stats?.tokens,
      wireBytes: stats?.wireBytes,
    };
  } finally {
    await target.stop();
  }
}
