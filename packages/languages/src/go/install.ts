import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { compareSemver, goModuleOf, SEMVER, type Client, type GoModule } from '@scb/shared/job';
import { unpackArtifact } from '../artifacts/index';
import { buildFolderName, ClientInstallError, oneAtATime, takeBuild, type BuildToInstall, type DriverLaunch, type InstallContext } from '../plugin';
import { exists, GO_PACKAGE, GRPC_MODULE, LAST_MONOREPO_SPANNER } from './registry';
import { scanBuildTags, writeClientDefaults, writePoolStats } from './version-sources';

const VERSION_SOURCES = fileURLToPath(new URL('./version-sources.ts', import.meta.url));

const run = promisify(execFile);
/** The driver's Go sources (package main); each client build gets a copy with its own go.mod. */
export const GO_DRIVER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver');

/**
 * The go command's environment: the installed toolchain only, module and build caches under the
 * product's cache (a fresh machine needs nothing else; -modcacherw so the cache can be removed).
 */
export function goEnv(cacheDir: string): NodeJS.ProcessEnv {
  const root = path.join(cacheDir, 'go');
  return {
    ...process.env,
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=mod -modcacherw',
    GOMODCACHE: path.join(root, 'mod'),
    GOCACHE: path.join(root, 'build'),
    GOPATH: path.join(root, 'path'),
    GOWORK: 'off',
    CGO_ENABLED: '0',
  };
}

/** The client's cache folder name: its version, and the grpc-go it was built against when pinned. */
export function goBuildName(client: Pick<Client, 'version' | 'grpcVersion'>): string {
  return client.grpcVersion ? `${client.version}+grpc-${client.grpcVersion}` : client.version;
}

/** "cloud.google.com/go/spanner v1.33.0", with the grpc-go pin when there is one. */
function clientText(client: Pick<Client, 'version' | 'grpcVersion'>): string {
  const base = `${goModuleOf(client.version)} v${client.version}`;
  return client.grpcVersion ? `${base} with ${GRPC_MODULE} v${client.grpcVersion}` : base;
}

/**
 * Builds the Go driver against the client version (and the grpc-go it pins) once, into
 * <cacheDir>/clients/go/<build>, and rebuilds when the driver's sources change.
 */
export function ensureGoClient(client: Client, ctx: InstallContext): Promise<DriverLaunch> {
  for (const [field, v] of [
    ['version', client.version],
    ['grpcVersion', client.grpcVersion],
  ] as const) {
    if (v !== undefined && !SEMVER.test(v)) return Promise.reject(new ClientInstallError(`go client ${field} "${v}" is not a plain semver version`));
  }
  return oneAtATime(path.join(ctx.cacheDir, 'clients', 'go', goBuildName(client)), () => build(client, ctx));
}

/**
 * Builds the Go driver against an uploaded build of cloud.google.com/go/spanner once, into
 * <cacheDir>/clients/go/build-<id>: the module checked and unpacked (unpackArtifact) beside the driver,
 * required through a `replace` to it, everything else from the module proxy. Go runs no code of a
 * module at build time (cgo is off; nothing is generated).
 */
export function ensureGoBuild(client: Client, build: BuildToInstall, ctx: InstallContext): Promise<DriverLaunch> {
  const name = buildFolderName(build.id);
  return oneAtATime(path.join(ctx.cacheDir, 'clients', 'go', name), async () => {
    const dir = path.join(ctx.cacheDir, 'clients', 'go', name);
    const unpacked = path.join(ctx.cacheDir, 'clients', 'go', `${name}.module`);
    rmSync(unpacked, { recursive: true, force: true });
    const info = takeBuild(build.id, () => unpackArtifact('go', build.bytes, unpacked));
    if (info.module !== GO_PACKAGE) throw new ClientInstallError(`the uploaded build is ${info.module}; Go clients take builds of ${GO_PACKAGE}`);
    return buildDriver(client, ctx, { dir: moduleRoot(unpacked), id: build.id, name });
  });
}

/** The folder holding go.mod: the unpacked folder itself, or its one subfolder (a zip's module@version/). */
function moduleRoot(dir: string): string {
  if (existsSync(path.join(dir, 'go.mod'))) return dir;
  const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  const inner = subs.length === 1 ? path.join(dir, subs[0]!.name) : null;
  if (inner && existsSync(path.join(inner, 'go.mod'))) return moduleRoot(inner);
  throw new ClientInstallError('the uploaded build has no go.mod at its root');
}

function build(client: Client, ctx: InstallContext): Promise<DriverLaunch> {
  return buildDriver(client, ctx);
}

/** A local module the driver is built against instead of a published version (an uploaded build). */
interface LocalModule {
  dir: string;
  id: string;
  /** The cache folder's name. */
  name: string;
}

async function buildDriver(client: Client, ctx: InstallContext, local?: LocalModule): Promise<DriverLaunch> {
  const dir = path.join(ctx.cacheDir, 'clients', 'go', local ? local.name : goBuildName(client));
  const binary = path.join(dir, 'driver');
  const marker = path.join(dir, '.installed');
  const sources = readdirSync(GO_DRIVER_DIR)
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
    .sort();
  const key = createHash('sha256');
  for (const f of sources) key.update(f).update(readFileSync(path.join(GO_DRIVER_DIR, f)));
  key
    // What writes a version's own Go sources: its file's text (the same however this module was loaded).
    .update(readFileSync(VERSION_SOURCES))
    .update(local?.id ?? '');
  const hash = key.digest('hex');
  const launch: DriverLaunch = { command: binary, args: [], dir };
  if (existsSync(marker) && existsSync(binary) && readFileSync(marker, 'utf8').trim() === hash) return launch;

  const module: GoModule = local ? 'cloud.google.com/go/spanner' : goModuleOf(client.version);
  if (!local && module === 'cloud.google.com/go' && compareSemver(client.version, LAST_MONOREPO_SPANNER) > 0) {
    throw new ClientInstallError(`cloud.google.com/go v${client.version} no longer holds the spanner package (the last that does is v${LAST_MONOREPO_SPANNER}; from v1.0.0 it is ${GO_PACKAGE})`);
  }
  const env = goEnv(ctx.cacheDir);
  const go = (args: string[], timeoutMin: number) => run('go', args, { cwd: dir, env, maxBuffer: 32 << 20, timeout: timeoutMin * 60_000 });
  try {
    await run('go', ['version'], { env, timeout: 30_000 });
  } catch (e) {
    const err = e as { code?: unknown; message: string };
    throw new ClientInstallError(
      err.code === 'ENOENT'
        ? 'Go clients need the Go toolchain (the go command, 1.22 or newer) on the PATH: install it from go.dev/dl or the golang Debian package'
        : `the go command does not run: ${err.message}`,
    );
  }
  // The proxy's lists miss versions that exist: ask for the exact version instead.
  for (const [m, v] of [...(local ? [] : [[module, client.version] as const]), ...(client.grpcVersion ? [[GRPC_MODULE, client.grpcVersion] as const] : [])]) {
    const found = await exists(m, v);
    if (typeof found === 'number') throw new ClientInstallError(`${m} v${v} is not published on the Go module proxy (HTTP ${found})`);
  }

  const what = local ? `the uploaded build ${local.id.slice(0, 19)}` : clientText(client);
  ctx.log(`building the Go driver against ${what} in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of sources) copyFileSync(path.join(GO_DRIVER_DIR, f), path.join(dir, f));
  try {
    await go(['mod', 'init', 'scbdriver'], 1);
    if (local) {
      // Any version in the requirement: the replace (of every version) points it at the unpacked module.
      await go(['mod', 'edit', `-require=${module}@v0.0.0-00010101000000-000000000000`, `-replace=${module}=${local.dir}`], 1);
    } else await go(['get', `${module}@v${client.version}`], 15);
    // A replace is the only pin that holds: minimum version selection raises a plain requirement back.
    if (client.grpcVersion) await go(['mod', 'edit', `-replace=${GRPC_MODULE}=${GRPC_MODULE}@v${client.grpcVersion}`], 1);
    await writeClientDefaults(dir, go);
    await writePoolStats(dir, go);
    const tags = await scanBuildTags(go);
    await go(['mod', 'tidy'], 15);
    await go(['build', '-trimpath', ...(tags.length ? ['-tags', tags.join(',')] : []), '-o', binary, '.'], 20);
  } catch (e) {
    throw new ClientInstallError(`${what} does not build here: ${goError(e)}`);
  }
  // The spanner package must come from exactly the module and version asked for (or the unpacked build).
  const { stdout } = (await go(['list', '-f', '{{.Module.Path}} {{.Module.Version}} {{with .Module.Replace}}{{.Path}}{{end}}', 'cloud.google.com/go/spanner'], 2)) as { stdout: string };
  // A local build: the module replaced by its folder, whatever version minimum version selection settled on
  // (a dependency may require a newer spanner than the placeholder).
  const [path_, , replace] = stdout.trim().split(' ');
  const ok = local ? path_ === module && replace === local.dir : stdout.trim() === `${module} v${client.version}`;
  if (!ok) {
    throw new ClientInstallError(`${what}: the spanner package resolved to ${stdout.trim()} instead`);
  }
  writeFileSync(marker, hash + '\n');
  return launch;
}

/** The compiler's or the go command's first lines, without the download chatter. */
export function goError(e: unknown): string {
  const err = e as { stderr?: string; message: string; killed?: boolean };
  if (err.killed) return 'the go command took too long and was stopped';
  const lines = (err.stderr ?? err.message)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^go: (downloading|finding|extracting|added|upgraded|found) /.test(l) && !l.startsWith('# '));
  return lines.slice(0, 3).join(' | ') || err.message.split('\n')[0]!;
}
