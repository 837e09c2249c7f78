import { toolVersion, type LanguagePlugin } from '../plugin';
import { ensureJavaBuild, ensureJavaClient, javaReadOnly } from './install';
import { JAVA_RUNTIME_OPTIONS } from './runtime-options';
import { JAVA_ARTIFACT, mavenVersions, mavenPublishDates } from './registry';

export const java: LanguagePlugin = {
  language: 'java',
  packageName: JAVA_ARTIFACT,
  listVersions: mavenVersions,
  publishDates: mavenPublishDates,
  install: (client, ctx) => ensureJavaClient(client.version, ctx),
  installBuild: (_client, build, ctx) => ensureJavaBuild(build, ctx),
  // `java -version` writes to stderr: `openjdk version "17.0.12" 2024-07-16`.
  toolchain: () => toolVersion('java', ['-version'], (out) => out.match(/version "([^"]+)"/)?.[1]),
  sandboxReadOnly: javaReadOnly,
  runtimeOptions: JAVA_RUNTIME_OPTIONS,
};
