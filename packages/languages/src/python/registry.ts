import { compareSemver, SEMVER } from '@scb/shared/job';
import { RegistryError } from '../plugin';
import { pythonInfo } from './info';

export const PYTHON_PACKAGE = pythonInfo.packageName;
/** PyPI's JSON API (warehouse): https://pypi.org/pypi/<project>/json; SCB_PYPI_URL points elsewhere (a mirror with the same API). */
const projectUrl = () => `${(process.env.SCB_PYPI_URL || 'https://pypi.org').replace(/\/$/, '')}/pypi/${PYTHON_PACKAGE}/json`;

interface PypiFile {
  upload_time_iso_8601?: string;
  yanked?: boolean;
}

/** Each release with at least one file that is not yanked, and its files. */
async function releases(): Promise<Record<string, PypiFile[]>> {
  let body: { releases?: Record<string, PypiFile[]> };
  try {
    const res = await fetch(projectUrl(), { signal: AbortSignal.timeout(30_000), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = (await res.json()) as typeof body;
  } catch (e) {
    throw new RegistryError(`could not read PyPI's release list of ${PYTHON_PACKAGE}: ${(e as Error).message}`);
  }
  if (!body.releases || typeof body.releases !== 'object') throw new RegistryError(`PyPI's answer for ${PYTHON_PACKAGE} lists no releases`);
  return Object.fromEntries(Object.entries(body.releases).filter(([, files]) => Array.isArray(files) && files.some((f) => !f.yanked)));
}

/** Published plain-semver versions (PEP 440 pre-releases such as 1.0.0rc1 are not semver and left out), oldest first. */
export async function pypiVersions(): Promise<string[]> {
  return Object.keys(await releases())
    .filter((v) => SEMVER.test(v))
    .sort(compareSemver);
}

/** Each version's publish date: the upload time of its first file on PyPI. */
export async function pypiPublishDates(versions: readonly string[]): Promise<Record<string, string>> {
  const all = await releases();
  const dates: Record<string, string> = {};
  for (const v of versions) {
    const times = (all[v] ?? []).map((f) => Date.parse(f.upload_time_iso_8601 ?? '')).filter((t) => !Number.isNaN(t));
    if (times.length) dates[v] = new Date(Math.min(...times)).toISOString();
  }
  return dates;
}
