import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguagePlugin } from '../plugin';
import { ensureNodeBuild, ensureNodeClient } from './install';
import { NODE_PACKAGE, npmVersions, npmPublishDates } from './registry';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver', 'main.ts');

export const node: LanguagePlugin = {
  language: 'node',
  packageName: NODE_PACKAGE,
  listVersions: npmVersions,
  publishDates: npmPublishDates,
  async install(client, ctx) {
    const clientDir = await ensureNodeClient(client.version, ctx, client.grpcVersion);
    // The driver loads the client from that version's own folder, given as its one argument.
    return { command: process.execPath, args: ['--import', 'tsx', DRIVER, clientDir], dir: clientDir };
  },
  async installBuild(_client, build, ctx) {
    const clientDir = await ensureNodeBuild(build, ctx);
    return { command: process.execPath, args: ['--import', 'tsx', DRIVER, clientDir], dir: clientDir };
  },
  // The driver runs on the runner's own Node.
  toolchain: async () => process.version,
};
