import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { compareSemver, SEMVER, type Client, type Language } from '@scb/shared/job';
import { go } from './go/index';
import { java } from './java/index';
import { node } from './node/index';
import { python } from './python/index';
import { enforceCacheCap, markUsed, type Eviction } from './cache';
import { lookUpDates, lookUpVersions } from './lookups';
import { ClientInstallError, type DriverLaunch, type InstallContext, type LanguagePlugin } from './plugin';
import { artifactId } from './artifacts/index';
import { runtimeOptionsByLanguage } from './launch/runtime-options';

export {
  ArtifactError,
  artifactId,
  DEFAULT_ARTIFACT_LIMITS,
  GO_LOCAL_VERSION,
  inspectArtifact,
  JAVA_SPANNER_MODULES,
  makeMavenFragment,
  nodeDelaySnippet,
  pythonDelaySnippet,
  publishedNodeTarball,
  publishedPythonWheel,
  rewriteWheel,
  slowedGoBuild,
  slowedNodeBuild,
  slowedPythonBuild,
  tarGz,
  unpackArtifact,
  zipOf,
  type ArtifactFormat,
  type ArtifactInfo,
  type ArtifactLimits,
  type MavenFragmentOptions,
} from './artifacts/index';
export { JAVA_SLOWED_METHODS, slowedJavaBuild, slowedJavaVersion } from './java/slowed';
export { CellError } from './launch/cell-error';
export { driverEnvironment, redactEnvironment } from './launch/environment';
export { RuntimeOptionsError, runtimeOptionsOf, SHORT_CELL_OPTIONS, type RuntimeOptionsRule } from './launch/runtime-options';
export { DEADLINE_GRACE_MS, DRIVER_START_MS, driverDeadlineMs, runDriver, type CellHooks } from './launch/run-driver';
export { bytesUnder, enforceCacheCap, type CacheEntry, type Eviction } from './cache';
export { REGISTRY_ANSWER_TTL_MS, REGISTRY_FAILURE_TTL_MS } from './lookups';
export { ClientInstallError, RegistryError, type BuildToInstall, type DriverLaunch, type InstallContext, type LanguagePlugin } from './plugin';

// On globalThis for the reason the registries of @scb/shared are (registry.ts there): the web app
// bundles a copy of this package, and plug-ins loaded at start (SCB_PLUGINS) must reach it.
const KEY = Symbol.for('spanner-client-bench.language-plugins');
const PLUGINS: Map<string, LanguagePlugin> = ((globalThis as Record<symbol, unknown>)[KEY] as Map<string, LanguagePlugin> | undefined) ?? new Map();
(globalThis as Record<symbol, unknown>)[KEY] = PLUGINS;

/**
 * Adds (or replaces) how a client language is installed and driven; its LanguageInfo must be
 * registered in @scb/shared as well (registerLanguage). The built-ins register here.
 */
export function registerLanguagePlugin(plugin: LanguagePlugin): void {
  PLUGINS.set(plugin.language, plugin);
}

for (const p of [node, java, go, python]) registerLanguagePlugin(p);

/** Every client language this process can drive, built-ins first. */
export function languagePlugins(): LanguagePlugin[] {
  return [...PLUGINS.values()];
}

function pluginOf(language: Language): LanguagePlugin {
  const p = PLUGINS.get(language);
  if (!p) throw new ClientInstallError(`no plug-in for the client language "${language}" is loaded here`);
  return p;
}

/** Each language's toolchain on this machine: its version, or null where it is missing. */
export async function detectToolchains(): Promise<Record<Language, string | null>> {
  const plugins = languagePlugins();
  const versions = await Promise.all(plugins.map((p) => p.toolchain()));
  return Object.fromEntries(plugins.map((p, i) => [p.language, versions[i]!])) as Record<Language, string | null>;
}

/** The runtime options the operator set for each language's drivers (launch/runtime-options.ts), as a job records them; throws RuntimeOptionsError for one a language refuses. */
export function driverRuntimeOptions(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return runtimeOptionsByLanguage(languagePlugins(), env);
}

/**
 * Published plain-semver versions, oldest first as the registries list them. Remembered and shared
 * (lookups.ts: one look-up per language at a time, answers kept 5 minutes, failures 30 s); `fresh`:
 * asked again. Throws RegistryError.
 */
export async function publishedVersions(language: Language, { fresh = false }: { fresh?: boolean } = {}): Promise<string[]> {
  const p = pluginOf(language);
  return lookUpVersions(language, async () => (await p.listVersions()).filter((v) => SEMVER.test(v)), { fresh });
}

/** When each of `versions` was published, where the language's registry says; {} for a language that cannot. Remembered as the lists are. Throws RegistryError. */
export async function publishDates(language: Language, versions: readonly string[]): Promise<Record<string, string>> {
  const p = pluginOf(language);
  return versions.length && p.publishDates ? lookUpDates(language, versions, (missing) => p.publishDates!(missing)) : {};
}

/** Semver order, newest first; prereleases after their release. */
export function newestFirst(versions: string[]): string[] {
  return [...versions].sort((a, b) => compareSemver(b, a));
}

/** The files and folders a sandboxed driver of this launch must read (LanguagePlugin.sandboxReadOnly). */
export function driverReadOnly(language: Language, launch: DriverLaunch): string[] {
  return pluginOf(language).sandboxReadOnly?.(launch) ?? [launch.dir];
}

/**
 * Installs the client version on first use and says how to start its driver.
 * Throws ClientInstallError with a message for the user.
 */
export async function prepareDriver(
  client: Client,
  ctx: { cacheDir: string; log: (line: string) => void /** An uploaded build's bytes by id (from the database), for a client that names one. */; buildBytes?: (id: string) => Promise<Buffer | null> },
): Promise<DriverLaunch> {
  // A version installed now adds a folder under clients/<language> (a Go build fills the shared Go caches with it).
  const installed = path.join(ctx.cacheDir, 'clients', client.language);
  const before = folderNames(installed);
  try {
    const plugin = pluginOf(client.language);
    const context = installContext(client.language, ctx);
    const launch = client.artifact ? await installBuild(plugin, client, client.artifact, ctx.buildBytes, context) : await plugin.install(client, context);
    markUsed(launch.dir);
    return launch;
  } finally {
    if (folderNames(installed) !== before) installs++;
  }
}

async function installBuild(plugin: LanguagePlugin, client: Client, id: string, bytesOf: ((id: string) => Promise<Buffer | null>) | undefined, ctx: InstallContext): Promise<DriverLaunch> {
  if (!plugin.installBuild) throw new ClientInstallError(`${client.language} clients take no uploaded builds here`);
  const bytes = bytesOf ? await bytesOf(id) : null;
  if (!bytes) throw new ClientInstallError(`the uploaded build ${id.slice(0, 19)} is not stored here (removed, or never uploaded to this database)`);
  // The bytes must still be the build the spec names.
  if (artifactId(bytes) !== id) throw new ClientInstallError(`the stored build ${id.slice(0, 19)} does not match its id: refused`);
  return plugin.installBuild(client, { id, bytes }, ctx);
}

const folderNames = (dir: string): string => (existsSync(dir) ? readdirSync(dir).sort().join('\n') : '');
let installs = 0;

/**
 * How many client versions this process has installed (not found installed): the cache grows only with
 * them, so it is measured against its cap only after a job that installed one (walking it costs about a
 * second of CPU).
 */
export function installedDrivers(): number {
  return installs;
}

/** Brings the install cache under its cap (SCB_CACHE_MAX_GB): every language's build caches, then versions least recently used. */

export function trimClientCache(cacheDir: string, maxBytes: number): Eviction {
  return enforceCacheCap(
    cacheDir,
    maxBytes,
    languagePlugins().flatMap((p) => p.buildCaches ?? []),
  );
}

/** An install asks the registry afresh (once per version and machine: an installed version is not listed again). */
export function installContext(language: Language, ctx: { cacheDir: string; log?: (line: string) => void }): InstallContext {
  return { cacheDir: ctx.cacheDir, log: ctx.log ?? (() => {}), published: () => publishedVersions(language, { fresh: true }) };
}
