import { LANGUAGE_INFO } from '@scb/shared/job';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { lastLines, RegistryError } from '../plugin';

const run = promisify(execFile);
export const NODE_PACKAGE = LANGUAGE_INFO.node.packageName;
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** npm's own client, so a user's registry settings (.npmrc, mirrors) apply. */
export async function npmVersions(): Promise<string[]> {
  try {
    const { stdout } = await run(NPM, ['view', NODE_PACKAGE, 'versions', '--json'], { timeout: 60_000, maxBuffer: 16 << 20 });
    return JSON.parse(stdout) as string[];
  } catch (e) {
    throw new RegistryError(`could not ask the npm registry for ${NODE_PACKAGE} versions: ${lastLines((e as { stderr?: string }).stderr ?? (e as Error).message, 2)}`);
  }
}
