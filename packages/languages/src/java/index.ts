import type { LanguagePlugin } from '../plugin';
import { ensureJavaClient } from './install';
import { JAVA_ARTIFACT, mavenVersions } from './registry';

export const java: LanguagePlugin = {
  language: 'java',
  packageName: JAVA_ARTIFACT,
  listVersions: mavenVersions,
  install: (client, ctx) => ensureJavaClient(client.version, ctx),
};
