import { nodeInfo } from './info';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { lastLines, RegistryError } from '../plugin';

const run = promisify(execFile);
export const NODE_PACKAGE = nodeInfo.packageName;
export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The registry's publish time of each version asked for (npm's `time` field). */
export async function npmPublishDates(versions: readonly string[]): Promise<Record<string, string>> {
  try {
    const { stdout } = await run(NPM, ['view', NODE_PACKAGE, 'time', '--json'], { timeout: 60_000, maxBuffer: 16 << 20 });
    const time = JSON.parse(stdout) as Record<string, unknown>;
    return Object.fromEntries(versions.flatMap((v) => (typeof time[v] === 'string' && !Number.isNaN(Date.parse(time[v])) ? [[v, new Date(time[v]).toISOString()]] : [])));
  } catch (e) {
    throw new RegistryError(`could not ask the npm registry when ${NODE_PACKAGE} versions were published: ${lastLines((e as { stderr?: string }).stderr ?? (e as Error).message, 2)}`);
  }
}

/** The gRPC library a Node client can be pinned to (a client's grpcVersion). */
export const GRPC_JS = '@grpc/grpc-js';

/** npm's own client, so a user's registry settings (.npmrc, mirrors) apply. */
export async function npmVersionsOf(pkg: string): Promise<string[]> {
  try {
    const { stdout } = await run(NPM, ['view', pkg, 'versions', '--json'], { timeout: 60_000, maxBuffer: 16 << 20 });
    return JSON.parse(stdout) as string[];
  } catch (e) {
    throw new RegistryError(`could not ask the npm registry for ${pkg} versions: ${lastLines((e as { stderr?: string }).stderr ?? (e as Error).message, 2)}`);
  }
}

export const npmVersions = () => npmVersionsOf(NODE_PACKAGE);
