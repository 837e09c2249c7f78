import { GO_MODULES, compareSemver, type GoModule } from '@scb/shared/job';
import { goInfo } from './info';
import { RegistryError } from '../plugin';

export const GO_PACKAGE = goInfo.packageName;
export const GRPC_MODULE = 'google.golang.org/grpc';

/** The first proxy of GOPROXY (default proxy.golang.org), as the go command would ask it. */
function proxy(): string {
  const first = (process.env.GOPROXY ?? '').split(/[,|]/)[0]?.trim();
  return first && first !== 'direct' && first !== 'off' ? first.replace(/\/$/, '') : 'https://proxy.golang.org';
}

/** The proxy's path of a module: upper-case letters escaped as !lower. */
const escaped = (module: string) => module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

async function proxyGet(url: string): Promise<Response> {
  return fetch(url, { signal: AbortSignal.timeout(30_000) });
}

/** The proxy's time of each version (its .info), from the module that holds it (0.x: the monorepo). */
export async function goPublishDates(versions: readonly string[]): Promise<Record<string, string>> {
  const dates: Record<string, string> = {};
  for (const v of versions) {
    const module = v.startsWith('0.') ? 'cloud.google.com/go' : 'cloud.google.com/go/spanner';
    const res = await proxyGet(`${proxy()}/${escaped(module)}/@v/v${v}.info`).catch((e: Error) => {
      throw new RegistryError(`could not ask the Go module proxy when ${GO_PACKAGE} ${v} was published: ${e.message}`);
    });
    if (!res.ok) continue;
    const time = ((await res.json().catch(() => ({}))) as { Time?: unknown }).Time;
    if (typeof time === 'string' && !Number.isNaN(Date.parse(time))) dates[v] = new Date(time).toISOString();
  }
  return dates;
}

/**
 * The versions the proxy lists: the spanner module (1.x) and, before it, the monorepo releases that
 * still held the spanner package (0.x up to 0.45.1; spanner became its own module at v1.0.0). The proxy's
 * lists are incomplete (v1.33.0 is missing although it fetches): a version is checked by `exists`.
 */
export async function goVersions(): Promise<string[]> {
  try {
    const lists = await Promise.all(
      GO_MODULES.map(async (module) => {
        const res = await proxyGet(`${proxy()}/${escaped(module)}/@v/list`);
        if (!res.ok) throw new Error(`${module}: HTTP ${res.status}`);
        const versions = (await res.text())
          .split('\n')
          .map((v) => v.trim().replace(/^v/, ''))
          .filter(Boolean);
        return module === 'cloud.google.com/go' ? versions.filter((v) => v.startsWith('0.') && compareSemver(v, LAST_MONOREPO_SPANNER) <= 0) : versions;
      }),
    );
    return lists.flat().sort(compareSemver);
  } catch (e) {
    throw new RegistryError(`could not ask the Go module proxy for ${GO_PACKAGE} versions: ${(e as Error).message}`);
  }
}

/** The newest monorepo release that still contains the spanner package (0.46.3 has none; checked in the proxy's zips). */
export const LAST_MONOREPO_SPANNER = '0.45.1';

/**
 * Whether module@version exists on the proxy: 'yes', the HTTP status that says it does not (404 or
 * 410; some mirrors answer 403), or null when the proxy cannot be asked (then the go command decides).
 */
export async function exists(module: GoModule | typeof GRPC_MODULE, version: string): Promise<'yes' | number | null> {
  try {
    const res = await proxyGet(`${proxy()}/${escaped(module)}/@v/v${version}.info`);
    if (res.ok) return 'yes';
    return [403, 404, 410].includes(res.status) ? res.status : null;
  } catch {
    return null;
  }
}
