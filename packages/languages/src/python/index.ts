import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverLaunch, LanguagePlugin } from '../plugin';
import { basePrefixOf, ensurePythonBuild, ensurePythonClient, PIP_CACHE, pythonToolchain, type PythonInstall } from './install';
import { PYTHON_PACKAGE, pypiPublishDates, pypiVersions } from './registry';

/** The driver's sources: main.py and its modules, run by the installed version's venv. */
const DRIVER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver');

/**
 * The driver on the venv's interpreter: -E (no PYTHON* variables), -s (no user site-packages), -B (no
 * .pyc written beside the sources, which a sandbox shows read-only).
 */
const launchOf = (i: PythonInstall): DriverLaunch => ({ command: i.python, args: ['-E', '-s', '-B', path.join(DRIVER_DIR, 'main.py')], dir: i.dir });

export const python: LanguagePlugin = {
  language: 'python',
  packageName: PYTHON_PACKAGE,
  listVersions: pypiVersions,
  publishDates: pypiPublishDates,
  install: async (client, ctx) => launchOf(await ensurePythonClient(client.version, ctx)),
  installBuild: async (_client, build, ctx) => launchOf(await ensurePythonBuild(build, ctx)),
  buildCaches: [PIP_CACHE],
  toolchain: pythonToolchain,
  // The venv, the driver's sources, and the Python installation the venv's interpreter links to.
  sandboxReadOnly: (launch) => [launch.dir, DRIVER_DIR, ...(basePrefixOf(launch.dir) ? [basePrefixOf(launch.dir)!] : [])],
};
