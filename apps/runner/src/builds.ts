// Where the drivers of a job that runs an uploaded build run: in the sandbox (sandbox.ts), or, where
// this runner has none and its operator said so (SCB_ARTIFACTS_UNSANDBOXED=1), as any driver does.
// Every driver of such a job runs alike (a gate's baseline too), so both arms pay the bridges' cost.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { driverReadOnly, type DriverLaunch } from '@scb/languages';
import type { DriverCell } from '@scb/shared';
import { CellError } from './cell-error';
import { env } from './env';
import { sandboxDriver, sandboxUnavailable } from './sandbox';

/** How this runner runs uploaded builds' drivers, in words for the job's environment and the runners page. */
export async function buildIsolation(): Promise<{ mode: 'sandboxed' | 'unsandboxed' | 'refused'; text: string }> {
  const why = await sandboxUnavailable();
  if (!why) return { mode: 'sandboxed', text: "sandboxed (bubblewrap: a network namespace reaching only the cell's target, files read-only but its own folder)" };
  if (env.SCB_ARTIFACTS_UNSANDBOXED === '1') return { mode: 'unsandboxed', text: `UNSANDBOXED (SCB_ARTIFACTS_UNSANDBOXED=1; ${why})` };
  return { mode: 'refused', text: `refused: ${why}; the operator may set SCB_ARTIFACTS_UNSANDBOXED=1 to run them unsandboxed` };
}

/** The loopback addresses a cell's driver must reach: its target, and the fake's metadata server where credentials are on. */
function bridged(cell: DriverCell, environment: Record<string, string>): { host: string; port: number }[] {
  const out = [{ host: cell.endpoint.host, port: cell.endpoint.port }];
  const metadata = environment.GCE_METADATA_HOST ?? environment.GCE_METADATA_IP;
  const m = metadata ? /^(.+):(\d+)$/.exec(metadata) : null;
  if (m) out.push({ host: m[1]!, port: Number(m[2]) });
  return out;
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
  if (cell.endpoint.resolver) throw new CellError("an uploaded build's sandbox bridges TCP to the target only: target.dns (a DNS server for the driver) is not available to it");
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'scb-build-cell-'));
  const readOnly = [...driverReadOnly(cell.client.language, launch), ...(cell.endpoint.tlsRootsFile ? [cell.endpoint.tlsRootsFile] : [])];
  try {
    const sandbox = await sandboxDriver(launch, { workDir, readOnly, bridge: bridged(cell, environment) });
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
