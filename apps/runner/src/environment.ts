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

/**
 * How long the toolchains and the commit found are taken as they were: finding them starts a process per
 * language and two git commands (about 0.15 s of CPU), which every job would pay again within seconds of
 * the last (`npm test` runs some hundred jobs).
 */
const FOUND_FOR_MS = 60_000;
let found: { at: number; value: Promise<[Record<Language, string | null>, string | null]> } | undefined;

/** Where a job ran: numbers without their machine are not comparable. */
export async function describeEnvironment(withBuilds = false): Promise<Environment> {
  if (!found || Date.now() - found.at > FOUND_FOR_MS) {
    const value = Promise.all([detectToolchains(), gitCommit()]);
    found = { at: Date.now(), value };
    value.catch(() => (found = undefined));
  }
  const [[toolchains, commit], builds] = await Promise.all([found.value, withBuilds ? buildIsolation() : undefined]);
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
