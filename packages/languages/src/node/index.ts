import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DriverLaunch, LanguagePlugin } from '../plugin';
import { ensureNodeBuild, ensureNodeClient } from './install';
import { NODE_PACKAGE, npmVersions, npmPublishDates } from './registry';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'driver', 'main.ts');
/** The workspace the driver's sources belong to: its packages and the node_modules they import from. */
const WORKSPACE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const NODE_MODULES = path.join(WORKSPACE, 'node_modules');

/** tsx's loader by its path, not by the name `tsx`, which resolves from the working folder (a sandbox's has no node_modules). */
function tsxLoader(): string {
  const dir = path.join(NODE_MODULES, 'tsx');
  const exported = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { exports: Record<string, string | { import?: string; default?: string }> }).exports['.'];
  const file = typeof exported === 'string' ? exported : (exported?.import ?? exported?.default);
  if (!file) throw new Error(`${dir}/package.json exports no loader`);
  return pathToFileURL(path.join(dir, file)).href;
}

/** The driver, loading the client from an installed folder given as its one argument. */
const launchFrom = (clientDir: string): DriverLaunch => ({ command: process.execPath, args: ['--import', tsxLoader(), DRIVER, clientDir], dir: clientDir });

export const node: LanguagePlugin = {
  language: 'node',
  packageName: NODE_PACKAGE,
  listVersions: npmVersions,
  publishDates: npmPublishDates,
  install: async (client, ctx) => launchFrom(await ensureNodeClient(client.version, ctx, client.grpcVersion)),
  installBuild: async (_client, build, ctx) => launchFrom(await ensureNodeBuild(build, ctx)),
  // The driver runs on the runner's own Node.
  toolchain: async () => process.version,
  // The client's folder; the driver's sources and what they import (tsx, @scb/shared, hdr-histogram-js...).
  sandboxReadOnly: (launch) => [launch.dir, path.join(WORKSPACE, 'packages'), NODE_MODULES],
};
