import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client, Language } from '@scb/shared';
import { ArtifactError } from './artifacts/archive';

/** How to start a driver process for one installed client version: spawn(command, args), cell on stdin. */
export interface DriverLaunch {
  command: string;
  args: string[];
  /** The installed client's folder under <cacheDir>/clients: stamped on each use for the cache's eviction. */
  dir: string;
}

/** An uploaded build to install: its id and bytes (checked again by the installer before anything is written). */
export interface BuildToInstall {
  id: string;
  bytes: Buffer;
}

/** An uploaded build's folder under <cacheDir>/clients/<language>: build-<the first 16 hex digits of its id>. */
export const buildFolderName = (id: string): string => `build-${id.slice('sha256:'.length, 'sha256:'.length + 16)}`;

/** A check of an uploaded build (inspect or unpack), its refusal turned into the sentence a cell shows. */
export function takeBuild<T>(id: string, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof ArtifactError) throw new ClientInstallError(`the uploaded build ${id.slice(0, 19)} is not taken: ${e.message}`);
    throw e;
  }
}

export interface InstallContext {
  /** Installed clients go under <cacheDir>/clients/<language>/<version>. */
  cacheDir: string;
  log: (line: string) => void;
  /** The registry's published versions, asked afresh; a version must be listed before it is installed. */
  published: () => Promise<string[]>;
}

/**
 * Everything of one client language: where its versions are published, how one is installed, and
 * how its driver is started. Each language is a folder (node/, java/) with an index.ts exporting one.
 */
export interface LanguagePlugin {
  language: Language;
  /** The client's package in its registry, for messages. */
  packageName: string;
  /** Published versions, oldest first as the registry lists them. Throws RegistryError. */
  listVersions(): Promise<string[]>;
  /** When each of `versions` was published, ISO 8601, where the registry says (a version it does not date is left out). Throws RegistryError. */
  publishDates?(versions: readonly string[]): Promise<Record<string, string>>;
  /** Installs the client (its version, and what else the language pins) on first use; throws ClientInstallError with a sentence for the user. */
  install(client: Client, ctx: InstallContext): Promise<DriverLaunch>;
  /**
   * Installs an uploaded build of the client (client.artifact) on first use, with the language's usual
   * install rules (nothing in it runs at install time); absent where the language takes no builds.
   */
  installBuild?(client: Client, build: BuildToInstall, ctx: InstallContext): Promise<DriverLaunch>;
  /** Folders under the cache the language keeps only to build versions faster: removed first when the cache is over its cap. */
  buildCaches?: string[];
  /**
   * The version of the toolchain this machine has for the language, or null where it is missing: a
   * runner offers only the languages whose toolchain it has, and records the versions with each job.
   */
  toolchain(): Promise<string | null>;
  /**
   * What this launch's driver reads besides the system's programs and libraries (/usr and the like), for
   * a sandbox that shows it nothing else: the installed client, the driver's build and sources, its
   * runtime's files outside /usr. Without it, the launch's own folder.
   */
  sandboxReadOnly?(launch: DriverLaunch): string[];
  /** Options of the driver's runtime an operator may give every driver of the language (launch/runtime-options.ts). */
  runtimeOptions?: RuntimeOptionsRule;
}

/** A language's runtime options (launch/runtime-options.ts): the variable that holds them and the shapes an option may have. */
export interface RuntimeOptionsRule {
  variable: string;
  /** Each whitespace-separated option must match one of these, whole. */
  allowed: RegExp[];
  /** What the allowed options are, for the sentence that refuses one. */
  allowedText: string;
}

const run = promisify(execFile);

/** A tool's version from what `command args` prints (stdout, else stderr); null where it is missing or says nothing. */
export async function toolVersion(command: string, args: string[], read: (output: string) => string | null | undefined, env?: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    // 30 s, not 10: on a starved machine a test once took python3 (pyenv's shim, a shell script) for missing while it was there.
    const { stdout, stderr } = await run(command, args, { timeout: 30_000, ...(env ? { env } : {}) });
    return read(stdout.trim() || stderr) || null;
  } catch {
    return null;
  }
}

/** A failure the user can act on; its message is shown as is on the cell. */
export class ClientInstallError extends Error {}

/** The registry could not be asked. */
export class RegistryError extends Error {}

/** The last meaningful lines of a tool's output, for one-line messages. */
export function lastLines(text: string, n = 3): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.includes('Unknown user config'))
    .slice(-n)
    .join(' | ');
}

const installing = new Map<string, Promise<unknown>>();

/**
 * One installation into `dir` at a time: cells of one job asking for the same client share one
 * promise, and other processes on the machine (runners sharing SCB_CACHE_DIR, test files run side by
 * side) wait for the lock `<dir>.lock` instead of building into the same folder at once.
 */
export function oneAtATime<T>(dir: string, install: () => Promise<T>): Promise<T> {
  let p = installing.get(dir) as Promise<T> | undefined;
  if (!p) {
    p = withDirLock(`${dir}.lock`, install).finally(() => installing.delete(dir));
    installing.set(dir, p);
  }
  return p;
}

/** A lock older than this is an installer that died without removing it (installs time out well before). */
const STALE_LOCK_MS = 30 * 60_000;

async function withDirLock<T>(lock: string, body: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock); // atomic: exactly one process creates it
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (lockIsStale(lock)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  writeFileSync(path.join(lock, 'pid'), `${process.pid}\n`);
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockIsStale(lock: string): boolean {
  try {
    if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) return true;
    const pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    process.kill(pid, 0); // throws where no such process lives
    return false;
  } catch (e) {
    // No pid yet: its owner is between mkdir and writing it.
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
