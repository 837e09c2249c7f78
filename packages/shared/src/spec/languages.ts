import type { Language } from './spec';

/** How forms and pages name each client language, and a version to start from. */
export const LANGUAGE_INFO: Record<Language, { title: string; packageName: string; exampleVersion: string }> = {
  node: { title: 'Node', packageName: '@google-cloud/spanner', exampleVersion: '9.0.0' },
  java: { title: 'Java', packageName: 'com.google.cloud:google-cloud-spanner', exampleVersion: '6.105.0' },
  go: { title: 'Go', packageName: 'cloud.google.com/go/spanner', exampleVersion: '1.33.0' },
};
