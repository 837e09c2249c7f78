// Where the drivers of a job that runs an uploaded build run: in the sandbox (sandbox.ts), or, where
// this runner has none and its operator said so (SCB_ARTIFACTS_UNSANDBOXED=1), as any driver does.
// Every driver of such a job runs alike (a gate's baseline too), so both arms pay the bridges' cost.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { driverReadOnly, type DriverLaunch } from '@scb/languages';
import type { DriverCell } from '@scb/shared';
import { CellError } from '@scb/languages';
import { env } from './env';
import { cellReach, sandboxDriver, sandboxUnavailable } from './sandbox';

/** How this runner runs uploaded builds' drivers, in words for the job's environment and the runners page. */
export async function buildIsolation(): Promise<{ mode: 'sandboxed' | 'unsandboxed' | 'refused'; text: string }> {
  const why = await sandboxUnavailable();
  if (!why) return { mode: 'sandboxed', text: "sandboxed (bubblewrap: a network namespace reaching only the cell's target, files read-only but its own folder)" };
  if (env.SCB_ARTIFACTS_UNSANDBOXED === '1') return { mode: 'unsandboxed', text: `UNSANDBOXED (SCB_ARTIFACTS_UNSANDBOXED=1; ${why})` };
  return { mode: 'refused', text: `refused: ${why}; the operator may set SCB_ARTIFACTS_UNSANDBOXED=1 to run them unsandboxed` };
}

/**
 * The launch of a driver for one cell of a job that runs an uploaded build (the build's, and the
 * published versions' it is compared with, alike): inside the sandbox (stop() it after the
 * driver exits), or unchanged where the operator allows unsandboxed builds; a CellError saying why not
 * otherwise, or where the cell needs what the sandbox cannot bridge.
 */
export async function isolateBuild(launch: DriverLaunch, cell: DriverCell, environment: Record<string, string>): Promise<{ launch: DriverLaunch; stop(): Promise<void> }> {
  const isolation = await buildIsolation();
  if (isolation.mode === 'unsandboxed') return { launch, stop: async () => {} };
  if (isolation.mode === 'refused') throw new CellError(`this runner does not run uploaded builds: ${isolation.text.replace(/^refused: /, '')}`);
  let reach: ReturnType<typeof cellReach>;
  try {
    reach = cellReach(cell, environment);
  } catch (e) {
    throw new CellError(`a job with an uploaded build runs sandboxed, and ${(e as Error).message}`);
  }
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'scb-build-cell-'));
  try {
    const sandbox = await sandboxDriver(launch, { workDir, readOnly: [...driverReadOnly(cell.client.language, launch), ...reach.readOnly], bridge: reach.bridge });
    return {
      launch: sandbox.launch,
      async stop() {
        await sandbox.stop();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(workDir, { recursive: true, force: true });
    throw new CellError(`the sandbox for the uploaded build did not start: ${(e as Error).message}`);
  }
}
