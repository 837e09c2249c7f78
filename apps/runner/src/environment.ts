import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { detectToolchains, driverRuntimeOptions } from '@scb/languages';
import type { Language } from '@scb/shared';
import { buildIsolation } from './builds';
import { env } from './env';
import { REPO_ROOT } from './paths';
import { targetVersions } from './targets/index';

const run = promisify(execFile);

export type Environment = {
  host: string;
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  platform: string;
  /** Each client language's toolchain on this machine (its version), null where it is missing. */
  toolchains: Record<Language, string | null>;
  /** The version of the software this runner starts for each target kind that has one (the emulator), null where unknown. */
  targets: Record<string, string | null>;
  commit: string | null;
  /** How uploaded builds' drivers run here (builds.ts), recorded for jobs that run one. */
  builds?: string;
  /** The runtime options the operator gave each language's drivers (SCB_JAVA_DRIVER_OPTIONS, …), where any: not the runtimes' defaults. */
  driverOptions?: Record<string, string>;
};

/** Where a job ran: numbers without their machine are not comparable. */
export async function describeEnvironment(withBuilds = false): Promise<Environment> {
  const [toolchains, commit, builds] = await Promise.all([detectToolchains(), gitCommit(), withBuilds ? buildIsolation() : undefined]);
  const driverOptions = driverRuntimeOptions();
  return {
    host: os.hostname(),
    cores: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    toolchains,
    targets: targetVersions(),
    commit,
    ...(builds && { builds: builds.text }),
    ...(Object.keys(driverOptions).length && { driverOptions }),
  };
}

async function gitCommit(): Promise<string | null> {
  if (env.SCB_GIT_COMMIT) return env.SCB_GIT_COMMIT;
  try {
    const { stdout } = await run('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, timeout: 10_000 });
    const dirty = (await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT, timeout: 10_000 })).stdout.trim();
    return stdout.trim() + (dirty ? '-dirty' : '');
  } catch {
    return null;
  }
}
