import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { DriverLaunch } from '@scb/languages';
import {
  DriverMessageSchema,
  driverWorkload,
  isOpenLoop,
  modeledLatencyMs,
  opsAt,
  targetCap,
  type CellEvent,
  type CellPlan,
  type CellTokens,
  type DriverCell,
  type JobSpec,
  type ProgressMessage,
  type ResultMessage,
  type Target,
} from '@scb/shared';
import { isolateBuild } from './builds';
import { CellError } from './cell-error';
import { driverEnvironment } from './driver-env';
import { watchMachine, type MachineLoad } from './machine';
import { startTarget, type AddedLatency, type ChannelStats, type ServerTime, type TargetLoad } from './targets/index';

export { CellError } from './cell-error';

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

export interface CellHooks {
  onProgress?: (p: ProgressMessage) => void;
  /** The driver's result line has arrived (before the process has exited). */
  onResult?: () => void;
  /** Aborting kills the driver (cancel or shutdown). */
  signal?: AbortSignal;
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
      deadlineMs: driverDeadlineMs(spec, plan.concurrency),
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
      spec.target.kind,
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

/** Generous upper bound on a cell's run time: start-up, warm-up and measurement at a tenth of ideal speed. */
export function driverDeadlineMs(spec: JobSpec, level: number): number {
  // Where the target models no latency, allow a second per operation and loop; a think time adds its mean.
  const perOpMs = Math.max(modeledLatencyMs(spec) ?? 1000, 1) + (spec.workload.thinkTime?.ms ?? 0) * spec.timeScale;
  // An open loop's operations arrive at `level` per second, whatever they take.
  const opsMs = (ops: number) => (isOpenLoop(spec) ? ((ops / level) * 1000 + perOpMs) * 10 : Math.ceil(ops / level) * perOpMs * 10);
  const measureMs = spec.workload.durationSeconds !== undefined ? spec.workload.durationSeconds * 1000 * 1.5 : opsMs(opsAt(spec.workload.measuredOps!, level));
  const bound = 60_000 + opsMs(opsAt(spec.workload.warmupOps, level)) + measureMs;
  // A target that costs money caps a cell's traffic: start-up gets a minute beyond that, no more.
  const cap = targetCap(spec.target);
  return Math.round(cap ? Math.min(bound, cap.ms + 60_000) : bound);
}

/** How long past its deadline a driver may take to exit by itself before the runner kills it. */
export const DEADLINE_GRACE_MS = 15_000;

/**
 * Runs a driver process on one cell and reads its protocol lines; the result, or a CellError saying why not.
 * The driver gets a minimal environment: Application Default Credentials only when `target` is `spanner`.
 */
export function runDriver(cell: DriverCell, launch: DriverLaunch, hooks: CellHooks = {}, target?: Target['kind'], environment: Record<string, string> = {}): Promise<ResultMessage> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      env: { ...driverEnvironment(target), ...environment },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let result: ResultMessage | undefined;
    let stderrTail = '';
    let badLine: string | undefined;
    const onAbort = () => child.kill('SIGKILL');
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    // The hard deadline: a driver whose own deadline does not fire (a blocked event loop, a client
    // that ignores the cap) is killed, and the cell says so.
    let overran = false;
    const killer = setTimeout(() => {
      overran = true;
      child.kill('SIGKILL');
    }, cell.deadlineMs + DEADLINE_GRACE_MS);

    child.stderr.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-4000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.trim()) return;
      let parsed: ReturnType<typeof DriverMessageSchema.safeParse> | undefined;
      try {
        parsed = DriverMessageSchema.safeParse(JSON.parse(line));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        badLine ??= line.slice(0, 200);
        return;
      }
      if (parsed.data.type === 'progress') hooks.onProgress?.(parsed.data);
      else {
        result = parsed.data;
        hooks.onResult?.();
      }
    });
    child.on('error', (e) => reject(new CellError(`driver could not start: ${e.message}`)));
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      hooks.signal?.removeEventListener('abort', onAbort);
      if (result) return resolve(result);
      if (overran) return reject(new CellError(`the runner killed the driver at the cell's hard deadline (${Math.round((cell.deadlineMs + DEADLINE_GRACE_MS) / 1000)} s): it had not ended by itself`));
      const why = stderrTail.trim().split('\n').slice(-5).join('\n') || (badLine ? `unexpected output: ${badLine}` : '');
      reject(new CellError(`driver exited (${signal ?? `code ${code}`}) without a result${why ? `: ${why}` : ''}`));
    });
    child.stdin.end(JSON.stringify(cell));
  });
}
