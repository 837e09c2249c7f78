import { toolVersion, type LanguagePlugin } from '../plugin';
import { ensureGoBuild, ensureGoClient } from './install';
import { GO_PACKAGE, goVersions, goPublishDates } from './registry';

export const go: LanguagePlugin = {
  language: 'go',
  packageName: GO_PACKAGE,
  listVersions: goVersions,
  publishDates: goPublishDates,
  install: (client, ctx) => ensureGoClient(client, ctx),
  installBuild: (client, build, ctx) => ensureGoBuild(client, build, ctx),
  // goEnv's module and build caches: every installed version keeps its own driver binary.
  buildCaches: ['go/mod', 'go/build'],
  // The local toolchain, never one GOTOOLCHAIN would download.
  toolchain: () => toolVersion('go', ['env', 'GOVERSION'], (out) => out.trim(), { ...process.env, GOTOOLCHAIN: 'local' }),
  // The build's folder holds the driver binary, which needs nothing but the C library.
  sandboxReadOnly: (launch) => [launch.dir],
};
