import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SEMVER } from '@scb/shared/job';
import { inspectArtifact } from '../artifacts/index';
import { buildFolderName, ClientInstallError, lastLines, oneAtATime, RegistryError, takeBuild, type BuildToInstall, type InstallContext } from '../plugin';
import { GRPC_JS, NODE_PACKAGE, NPM, npmVersionsOf } from './registry';

const run = promisify(execFile);

/**
 * Installs @google-cloud/spanner at exactly `version` into the cache once and returns its folder;
 * with `grpcVersion`, on that @grpc/grpc-js everywhere in its tree (an npm override). Both must be plain
 * semver and listed by the registry before npm is asked to install them.
 */
export async function ensureNodeClient(version: string, ctx: InstallContext, grpcVersion?: string): Promise<string> {
  if (!SEMVER.test(version)) throw new ClientInstallError(`"${version}" is not a plain semver version`);
  if (grpcVersion !== undefined && !SEMVER.test(grpcVersion)) throw new ClientInstallError(`grpcVersion "${grpcVersion}" is not a plain semver version`);
  const dir = path.join(ctx.cacheDir, 'clients', 'node', grpcVersion ? `${version}+grpc-js-${grpcVersion}` : version);
  return oneAtATime(dir, () => install(version, grpcVersion, dir, ctx));
}

async function install(version: string, grpcVersion: string | undefined, dir: string, ctx: InstallContext): Promise<string> {
  const marker = path.join(dir, '.installed');
  if (existsSync(marker)) return dir;

  const listed = await ctx.published().catch((e: Error) => {
    throw new ClientInstallError(e instanceof RegistryError ? e.message : String(e));
  });
  if (!listed.includes(version)) {
    throw new ClientInstallError(`${NODE_PACKAGE}@${version} is not published on the npm registry (newest: ${listed.at(-1) ?? 'unknown'})`);
  }
  if (grpcVersion) {
    const grpc = await npmVersionsOf(GRPC_JS).catch((e: Error) => {
      throw new ClientInstallError(e instanceof RegistryError ? e.message : String(e));
    });
    if (!grpc.includes(grpcVersion)) throw new ClientInstallError(`${GRPC_JS}@${grpcVersion} is not published on the npm registry`);
  }
  const what = `${NODE_PACKAGE}@${version}${grpcVersion ? ` on ${GRPC_JS}@${grpcVersion}` : ''}`;
  ctx.log(`installing ${what} into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Own package.json so npm does not walk up into this repo's workspaces. No install scripts: a
  // published package runs no code on the runner until its driver starts.
  const manifest = { name: 'scb-client-cache', private: true, ...(grpcVersion && { overrides: { [GRPC_JS]: grpcVersion } }) };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest) + '\n');
  try {
    await run(NPM, ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--save-exact', `${NODE_PACKAGE}@${version}`], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new ClientInstallError(`npm could not install ${what}: ${lastLines(err.stderr ?? err.message)}`);
  }
  // The override must have held everywhere: a copy of another grpc-js would carry some of the calls.
  if (grpcVersion) {
    const other = grpcJsCopies(path.join(dir, 'node_modules')).filter((v) => v !== grpcVersion);
    if (other.length) throw new ClientInstallError(`${what}: npm also installed ${GRPC_JS} ${[...new Set(other)].join(', ')}`);
  }
  writeFileSync(marker, new Date().toISOString() + '\n');
  return dir;
}

/** The version of every @grpc/grpc-js copy under a node_modules folder, nested ones included. */
function grpcJsCopies(modules: string): string[] {
  if (!existsSync(modules)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(modules)) {
    const scoped = entry.startsWith('@') ? readdirSync(path.join(modules, entry)).map((e) => path.join(entry, e)) : [entry];
    for (const name of scoped) {
      const dir = path.join(modules, name);
      if (name === GRPC_JS) found.push((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version);
      found.push(...grpcJsCopies(path.join(dir, 'node_modules')));
    }
  }
  return found;
}

/**
 * Installs an uploaded `npm pack` tarball of @google-cloud/spanner into the cache once: checked
 * (inspectArtifact) before it is written, installed by npm with no install scripts, its dependencies
 * from the registry as a published version's are.
 */
export function ensureNodeBuild(build: BuildToInstall, ctx: InstallContext): Promise<string> {
  const dir = path.join(ctx.cacheDir, 'clients', 'node', buildFolderName(build.id));
  return oneAtATime(dir, async () => {
    const marker = path.join(dir, '.installed');
    if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === build.id) return dir;
    const info = takeBuild(build.id, () => inspectArtifact('node', build.bytes));
    ctx.log(`installing the uploaded build ${build.id.slice(0, 19)} (${info.module} ${info.version}) into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scb-client-cache', private: true }) + '\n');
    const tarball = path.join(dir, 'candidate.tgz');
    writeFileSync(tarball, build.bytes);
    try {
      await run(NPM, ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: dir, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 });
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new ClientInstallError(`npm could not install the uploaded build ${build.id.slice(0, 19)}: ${lastLines(err.stderr ?? err.message)}`);
    }
    writeFileSync(marker, build.id + '\n');
    return dir;
  });
}
