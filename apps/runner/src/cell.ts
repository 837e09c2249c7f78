import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startFakeSpanner, type ConnectionStat } from '@scb/fake-spanner';
import {
  DriverMessageSchema,
  FAKE_DATABASE,
  FAKE_INSTANCE,
  FAKE_PROJECT,
  effectiveLatencyMs,
  opsAt,
  type CellPlan,
  type DriverCell,
  type JobSpec,
  type ProgressMessage,
  type ResultMessage,
} from '@scb/shared';
import type { DriverLaunch } from './drivers/index';

/** A cell that could not produce a result; the message is what the user reads. */
export class CellError extends Error {}

export interface CellOutcome {
  result: ResultMessage;
  /** Every RPC the cell's fresh fake served (sessions, warm-up, measured), and their spread over connections. */
  serverRpcs: number;
  channels: ConnectionStat[];
}

export interface CellHooks {
  onProgress?: (p: ProgressMessage) => void;
  /** Aborting kills the driver (cancel or shutdown). */
  signal?: AbortSignal;
}

/**
 * Runs one cell: a fresh fake on a free port (so no connection of an earlier cell is counted),
 * a fresh driver process with a fresh client, and the fake's per-connection accounting.
 */
export async function runCell(spec: JobSpec, plan: CellPlan, launch: DriverLaunch, hooks: CellHooks = {}): Promise<CellOutcome> {
  const latencyMs = effectiveLatencyMs(spec);
  const fake = await startFakeSpanner({ ...spec.target.server, latencyMs: spec.target.latencyMs, timeScale: spec.timeScale });
  try {
    const durationMs = spec.workload.durationSeconds !== undefined ? spec.workload.durationSeconds * 1000 : undefined;
    const cell: DriverCell = {
      endpoint: { host: fake.host, port: fake.port },
      projectId: FAKE_PROJECT,
      instanceId: FAKE_INSTANCE,
      databaseId: FAKE_DATABASE,
      client: plan.client,
      clientDir: launch.clientDir,
      configuration: plan.configuration,
      concurrency: plan.concurrency,
      operation: spec.workload.operation,
      warmupOps: opsAt(spec.workload.warmupOps, plan.concurrency),
      measuredOps: spec.workload.measuredOps === undefined ? undefined : opsAt(spec.workload.measuredOps, plan.concurrency),
      durationMs,
      deadlineMs: driverDeadlineMs(spec, plan.concurrency, latencyMs),
    };
    const result = await runDriver(cell, launch, hooks);
    const stats = fake.stats();
    return { result, serverRpcs: stats.totalRpcs, channels: stats.connections };
  } finally {
    await fake.stop();
  }
}

/** Generous upper bound on a cell's run time: start-up, warm-up and measurement at a tenth of ideal speed. */
export function driverDeadlineMs(spec: JobSpec, concurrency: number, latencyMs: number): number {
  const perOpMs = Math.max(latencyMs, 1);
  const opsMs = (ops: number) => (Math.ceil(ops / concurrency) * perOpMs) * 10;
  const measureMs = spec.workload.durationSeconds !== undefined ? spec.workload.durationSeconds * 1000 * 1.5 : opsMs(opsAt(spec.workload.measuredOps!, concurrency));
  return Math.round(60_000 + opsMs(opsAt(spec.workload.warmupOps, concurrency)) + measureMs);
}

function runDriver(cell: DriverCell, launch: DriverLaunch, hooks: CellHooks): Promise<ResultMessage> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      env: { ...process.env, METADATA_SERVER_DETECTION: 'none', SPANNER_DISABLE_BUILTIN_METRICS: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let result: ResultMessage | undefined;
    let stderrTail = '';
    let badLine: string | undefined;
    const onAbort = () => child.kill('SIGKILL');
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    // Backstop in case the driver's own deadline does not fire (e.g. a blocked event loop).
    const killer = setTimeout(() => child.kill('SIGKILL'), cell.deadlineMs + 15_000);

    child.stderr.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-4000)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.trim()) return;
      let parsed;
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
      else result = parsed.data;
    });
    child.on('error', (e) => reject(new CellError(`driver could not start: ${e.message}`)));
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      hooks.signal?.removeEventListener('abort', onAbort);
      if (result) return resolve(result);
      const why = stderrTail.trim().split('\n').slice(-5).join('\n') || (badLine ? `unexpected output: ${badLine}` : '');
      reject(new CellError(`driver exited (${signal ?? `code ${code}`}) without a result${why ? `: ${why}` : ''}`));
    });
    child.stdin.end(JSON.stringify(cell));
  });
}
