// The driver launcher: one driver process on one cell, its protocol lines read, and the deadline the
// runner holds it to. The runner (apps/runner/src/cell.ts) and the benches and tests run drivers with it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DriverMessageSchema, isOpenLoop, modeledLatencyMs, opsAt, targetCap, type DriverCell, type JobSpec, type ProgressMessage, type ResultMessage } from '@scb/shared';
import type { DriverLaunch } from '../plugin';
import { CellError } from './cell-error';
import { driverEnvironment } from './environment';

export interface CellHooks {
  onProgress?: (p: ProgressMessage) => void;
  /** The driver's result line has arrived (before the process has exited). */
  onResult?: () => void;
  /** Aborting kills the driver (cancel or shutdown). */
  signal?: AbortSignal;
}

/** How long a driver may take to start and connect, beyond its operations' allowance, unless the runner says otherwise (SCB_DRIVER_START_MS). */
export const DRIVER_START_MS = 60_000;

/**
 * Generous upper bound on a cell's run time: start-up (`startMs`), warm-up and measurement at a tenth of
 * ideal speed.
 */
export function driverDeadlineMs(spec: JobSpec, level: number, startMs = DRIVER_START_MS): number {
  // Where the target models no latency, allow a second per operation and loop; a think time adds its mean.
  const perOpMs = Math.max(modeledLatencyMs(spec) ?? 1000, 1) + (spec.workload.thinkTime?.ms ?? 0) * spec.timeScale;
  // An open loop's operations arrive at `level` per second, whatever they take.
  const opsMs = (ops: number) => (isOpenLoop(spec) ? ((ops / level) * 1000 + perOpMs) * 10 : Math.ceil(ops / level) * perOpMs * 10);
  const measureMs = spec.workload.durationSeconds !== undefined ? spec.workload.durationSeconds * 1000 * 1.5 : opsMs(opsAt(spec.workload.measuredOps!, level));
  const bound = startMs + opsMs(opsAt(spec.workload.warmupOps, level)) + measureMs;
  // A target that costs money caps a cell's traffic: start-up gets its allowance beyond that, no more.
  const cap = targetCap(spec.target);
  return Math.round(cap ? Math.min(bound, cap.ms + startMs) : bound);
}

/** How long past its deadline a driver may take to exit by itself before the runner kills it. */
export const DEADLINE_GRACE_MS = 15_000;

/**
 * Runs a driver process on one cell and reads its protocol lines; the result, or a CellError saying why not.
 * The driver gets a minimal environment (driverEnvironment): Application Default Credentials only with
 * `credentials` (a target the runner reaches with its own, Cloud Spanner); `environment` adds the target's.
 */
export function runDriver(cell: DriverCell, launch: DriverLaunch, hooks: CellHooks = {}, credentials = false, environment: Record<string, string> = {}): Promise<ResultMessage> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      env: { ...driverEnvironment(credentials), ...environment } as NodeJS.ProcessEnv,
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
