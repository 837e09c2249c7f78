import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeOptionsOf } from '../launch/runtime-options';
import type { DriverLaunch, LanguagePlugin, RuntimeOptionsRule } from '../plugin';
import { nodeDriverBundle } from './bundle';
import { ensureNodeBuild, ensureNodeClient } from './install';
import { NODE_PACKAGE, npmVersions, npmPublishDates } from './registry';

/** V8 options an operator may give every Node driver (SCB_NODE_DRIVER_OPTIONS): its tiers, its collector, heap sizes; nothing that loads, inspects, traces or writes. */
const NODE_RUNTIME_OPTIONS: RuntimeOptionsRule = {
  variable: 'SCB_NODE_DRIVER_OPTIONS',
  allowed: [/--(no-opt|jitless|no-sparkplug|max-lazy|single-threaded-gc|single-threaded|no-concurrent-recompilation)/, /--(max-old-space-size|max-semi-space-size|stack-size)=\d{1,6}/],
  allowedText:
    '--single-threaded-gc, --single-threaded, --no-opt, --jitless, --no-sparkplug, --max-lazy, --no-concurrent-recompilation, --max-old-space-size=N, --max-semi-space-size=N, --stack-size=N',
};

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver', 'main.ts');
/**
 * The driver, loading the client from an installed folder given as its one argument: its sources bundled
 * into one plain module under the cache (bundle.ts), so the cell's process compiles nothing.
 */
const launchFrom = async (clientDir: string, cacheDir: string): Promise<DriverLaunch> => ({
  command: process.execPath,
  args: [...runtimeOptionsOf(NODE_RUNTIME_OPTIONS), await nodeDriverBundle(DRIVER, cacheDir), clientDir],
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
  // The client's folder and the driver's bundle (after any runtime options): it imports nothing else.
  sandboxReadOnly: (launch) => [launch.dir, launch.args.at(-2)!],
  runtimeOptions: NODE_RUNTIME_OPTIONS,
};
