import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverLaunch, LanguagePlugin } from '../plugin';
import { nodeDriverBundle } from './bundle';
import { ensureNodeBuild, ensureNodeClient } from './install';
import { NODE_PACKAGE, npmVersions, npmPublishDates } from './registry';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver', 'main.ts');
/**
 * The driver, loading the client from an installed folder given as its one argument: its sources bundled
 * into one plain module under the cache (bundle.ts), so the cell's process compiles nothing.
 */
const launchFrom = async (clientDir: string, cacheDir: string): Promise<DriverLaunch> => ({
  command: process.execPath,
  args: [await nodeDriverBundle(DRIVER, cacheDir), clientDir],
  dir: clientDir,
});

export const node: LanguagePlugin = {
  language: 'node',
  packageName: NODE_PACKAGE,
  listVersions: npmVersions,
  publishDates: npmPublishDates,
  install: async (client, ctx) => launchFrom(await ensureNodeClient(client.version, ctx, client.grpcVersion), ctx.cacheDir),
  installBuild: async (_client, build, ctx) => launchFrom(await ensureNodeBuild(build, ctx), ctx.cacheDir),
  // The driver runs on the runner's own Node.
  toolchain: async () => process.version,
  // The client's folder and the driver's bundle: it imports nothing else.
  sandboxReadOnly: (launch) => [launch.dir, launch.args[0]!],
};
