import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SEMVER } from '@scb/shared/job';
import { inspectArtifact } from '../artifacts/index';
import { buildFolderName, ClientInstallError, lastLines, oneAtATime, RegistryError, takeBuild, toolVersion, type BuildToInstall, type InstallContext } from '../plugin';
import { PYTHON_PACKAGE } from './registry';

const run = promisify(execFile);

/** The Python the virtual environments are made from: `python3` on the PATH. */
export const PYTHON = 'python3';
/** The oldest Python the driver runs on (dataclasses, typing, time.perf_counter_ns...). */
export const PYTHON_MINIMUM: [number, number] = [3, 9];

/** pip's download cache, shared by every version (removed first when the client cache is over its cap). */
export const PIP_CACHE = 'python/pip';

/** `python3 --version`: "Python 3.11.7"; null where missing or older than PYTHON_MINIMUM. */
export async function pythonToolchain(): Promise<string | null> {
  const version = await toolVersion(PYTHON, ['--version'], (out) => /Python (\d+\.\d+\.\d+)/.exec(out)?.[1]);
  if (!version) return null;
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > PYTHON_MINIMUM[0] || (major === PYTHON_MINIMUM[0] && minor >= PYTHON_MINIMUM[1]) ? version : null;
}

/** An installed version's folder: its virtual environment (venv/) and what the installer noted of it. */
export interface PythonInstall {
  dir: string;
  /** The venv's interpreter. */
  python: string;
  /** The Python installation the venv was made from (sys.base_prefix): its standard library, which a sandboxed driver reads. */
  basePrefix: string;
}

/**
 * Installs google-cloud-spanner at exactly `version` into a virtual environment of its own under the
 * cache, once: wheels only (`--only-binary=:all:`, so no setup.py of it or of any dependency runs), the
 * version pinned, after the registry has listed it. A version whose dependencies have no wheel for this
 * Python is refused with that sentence.
 */
export async function ensurePythonClient(version: string, ctx: InstallContext): Promise<PythonInstall> {
  if (!SEMVER.test(version)) throw new ClientInstallError(`"${version}" is not a plain semver version`);
  const dir = path.join(ctx.cacheDir, 'clients', 'python', version);
  return oneAtATime(dir, () =>
    install(version, dir, ctx).catch((e: unknown) => {
      // A refused version leaves no half-made venv behind (it would only fill the cache).
      if (!existsSync(path.join(dir, '.installed'))) rmSync(dir, { recursive: true, force: true });
      throw e;
    }),
  );
}

const installed = (dir: string): PythonInstall => ({ dir, python: path.join(dir, 'venv', 'bin', 'python'), basePrefix: basePrefixOf(dir) ?? '' });

/** The Python installation an installed version's venv was made from, as its installer noted it; null where not installed. */
export function basePrefixOf(dir: string): string | null {
  try {
    return readFileSync(path.join(dir, '.installed'), 'utf8').split('\n')[1]?.trim() || null;
  } catch {
    return null;
  }
}

const missingPython = () =>
  new ClientInstallError(`Python clients need ${PYTHON} (${PYTHON_MINIMUM.join('.')} or newer, with its venv module) on the PATH: install it (the python3 and python3-venv Debian packages)`);

async function install(version: string, dir: string, ctx: InstallContext): Promise<PythonInstall> {
  if (existsSync(path.join(dir, '.installed'))) return installed(dir);
  const toolchain = await pythonToolchain();
  if (!toolchain) throw missingPython();
  const listed = await ctx.published().catch((e: Error) => {
    throw new ClientInstallError(e instanceof RegistryError ? e.message : String(e));
  });
  if (!listed.includes(version)) throw new ClientInstallError(`${PYTHON_PACKAGE} ${version} is not published on PyPI (newest: ${listed.at(-1) ?? 'unknown'})`);
  const what = `${PYTHON_PACKAGE} ${version}`;
  ctx.log(`installing ${what} into ${dir} (Python ${toolchain}, wheels only)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return intoVenv(dir, what, `${PYTHON_PACKAGE}==${version}`, toolchain, ctx, '');
}

/**
 * An uploaded wheel of the client (inspected again first), installed as a published version is: a
 * virtual environment of its own under <cacheDir>/clients/python/build-<id>, its dependencies from PyPI
 * as wheels only. pip runs nothing of a wheel when it installs one.
 */
export function ensurePythonBuild(build: BuildToInstall, ctx: InstallContext): Promise<PythonInstall> {
  const dir = path.join(ctx.cacheDir, 'clients', 'python', buildFolderName(build.id));
  return oneAtATime(dir, async () => {
    const marker = path.join(dir, '.installed');
    if (existsSync(marker) && readFileSync(marker, 'utf8').split('\n')[2]?.trim() === build.id) return installed(dir);
    const info = takeBuild(build.id, () => inspectArtifact('python', build.bytes));
    const toolchain = await pythonToolchain();
    if (!toolchain) throw missingPython();
    const what = `the uploaded build ${build.id.slice(0, 19)} (${info.module} ${info.version})`;
    ctx.log(`installing ${what} into ${dir} (Python ${toolchain}, wheels only)`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // pip takes a wheel by its file name's distribution, version and tags.
    const wheel = path.join(dir, info.wheelName!);
    writeFileSync(wheel, build.bytes);
    try {
      return await intoVenv(dir, what, wheel, toolchain, ctx, build.id);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  });
}

/**
 * Makes dir/venv and installs `requirement` (a pinned name or a wheel's path) into it, wheels only; then
 * checks the client imports, and notes the install (when, the base Python, the build's id if any).
 */
async function intoVenv(dir: string, what: string, requirement: string, toolchain: string, ctx: InstallContext, buildId: string): Promise<PythonInstall> {
  const venv = path.join(dir, 'venv');
  const python = path.join(venv, 'bin', 'python');
  // No user site-packages and no PYTHON* variables of the runner: the venv holds everything the driver imports.
  const env: NodeJS.ProcessEnv = { ...process.env, PIP_CACHE_DIR: path.join(ctx.cacheDir, PIP_CACHE), PIP_NO_INPUT: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONNOUSERSITE: '1' };
  delete env.PYTHONPATH;
  delete env.PYTHONHOME;
  try {
    await run(PYTHON, ['-m', 'venv', venv], { env, timeout: 5 * 60_000 });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new ClientInstallError(`${PYTHON} could not make a virtual environment for ${what} (is its venv module installed?): ${lastLines(err.stderr ?? err.message)}`);
  }
  try {
    await run(python, ['-m', 'pip', 'install', '--only-binary=:all:', '--no-input', requirement], { env, cwd: dir, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new ClientInstallError(pipRefusal(what, toolchain, err.stderr ?? err.message));
  }
  // Installed is not enough: its modules must import on this Python (an old protobuf may not).
  let basePrefix: string;
  try {
    const { stdout } = await run(python, ['-E', '-s', '-B', '-c', 'import sys; import google.cloud.spanner_v1; print(sys.base_prefix)'], { cwd: dir, timeout: 120_000 });
    basePrefix = stdout.trim();
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new ClientInstallError(`${what} installed but does not import on Python ${toolchain}: ${lastLines(err.stderr ?? err.message, 1)}`);
  }
  writeFileSync(path.join(dir, '.installed'), `${new Date().toISOString()}\n${basePrefix}\n${buildId}\n`);
  return installed(dir);
}

/** pip's failure as the sentence a cell shows: a requirement without a wheel for this Python named as such. */
export function pipRefusal(what: string, python: string, stderr: string): string {
  const missing = /No matching distribution found for (\S+)/.exec(stderr)?.[1];
  if (missing) {
    const whole = missing.toLowerCase().startsWith(PYTHON_PACKAGE);
    return `${what} cannot be installed from wheels on Python ${python}: ${whole ? `it has no wheel` : `its dependency ${missing} has no wheel`} for this Python, and installs take wheels only (no setup.py runs)`;
  }
  if (/ResolutionImpossible|conflicting dependencies/i.test(stderr))
    return `${what} cannot be installed on Python ${python}: pip found no set of wheels that satisfies its dependencies (${lastLines(stderr, 2)})`;
  return `pip could not install ${what}: ${lastLines(stderr)}`;
}
