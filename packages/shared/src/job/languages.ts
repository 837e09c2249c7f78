import type { Language } from './spec';

/**
 * How forms and pages name each client language, and a version to start from. `cellSeconds`: what a
 * cell costs besides its operations (the driver process, its client's start, the runner's bookkeeping),
 * for the run-time estimate.
 */
export const LANGUAGE_INFO: Record<Language, { title: string; packageName: string; exampleVersion: string; cellSeconds: number }> = {
  node: { title: 'Node', packageName: '@google-cloud/spanner', exampleVersion: '9.0.0', cellSeconds: 5 },
  java: { title: 'Java', packageName: 'com.google.cloud:google-cloud-spanner', exampleVersion: '6.105.0', cellSeconds: 5 },
  go: { title: 'Go', packageName: 'cloud.google.com/go/spanner', exampleVersion: '1.33.0', cellSeconds: 3 },
};
