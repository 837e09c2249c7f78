import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SEMVER } from '@scb/shared/job';
import { ClientInstallError, lastLines, oneAtATime, RegistryError, type InstallContext } from '../plugin';
import { NODE_PACKAGE, NPM } from './registry';

const run = promisify(execFile);

/**
 * Installs @google-cloud/spanner at exactly `version` into the cache once and returns its folder.
 * The version must be plain semver and listed by the registry before npm is asked to install it.
 */
export async function ensureNodeClient(version: string, ctx: InstallContext): Promise<string> {
  if (!SEMVER.test(version)) throw new ClientInstallError(`"${version}" is not a plain semver version`);
  const dir = path.join(ctx.cacheDir, 'clients', 'node', version);
  return oneAtATime(dir, () => install(version, dir, ctx));
}

async function install(version: string, dir: string, ctx: InstallContext): Promise<string> {
  const marker = path.join(dir, '.installed');
  if (existsSync(marker)) return dir;

  const listed = await ctx.published().catch((e: Error) => {
    throw new ClientInstallError(e instanceof RegistryError ? e.message : String(e));
  });
  if (!listed.includes(version)) {
    throw new ClientInstallError(`${NODE_PACKAGE}@${version} is not published on the npm registry (newest: ${listed.at(-1) ?? 'unknown'})`);
  }
  ctx.log(`installing ${NODE_PACKAGE}@${version} into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Own package.json so npm does not walk up into this repo's workspaces. No install scripts: a
  // published package runs no code on the runner until its driver starts.
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scb-client-cache', private: true }) + '\n');
  try {
    await run(NPM, ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--save-exact', `${NODE_PACKAGE}@${version}`], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new ClientInstallError(`npm could not install ${NODE_PACKAGE}@${version}: ${lastLines(err.stderr ?? err.message)}`);
  }
  writeFileSync(marker, new Date().toISOString() + '\n');
  return dir;
}
