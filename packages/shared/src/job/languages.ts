import { languageInfo, languageInfos, registerLanguage } from '../registry';

/**
 * What the spec, forms and pages know of a client language without installing it. `cellSeconds`: what
 * a cell costs besides its operations (the driver process, its client's start, the runner's
 * bookkeeping), for the run-time estimate. Installing and driving it is its LanguagePlugin's
 * (packages/languages).
 */
export interface LanguageInfo {
  name: string;
  title: string;
  packageName: string;
  /** A version to start a form from. */
  exampleVersion: string;
  cellSeconds: number;
  /** Why a configuration can never run on this language, before anything is installed; null when it can. */
  refuse?(configuration: RefusableConfiguration): { option: string; message: string } | null;
  /** What the launch form says under its fields while this language is picked. */
  hints?: { configurations?: string; numChannels?: string };
  /** The figure of its session pool's per-second samples (timeline `pool`) that counts sessions in use, where it has one. */
  poolInUse?: string;
  /**
   * How late its driver may start an open loop's operations (p99 of the schedule lag, ms) before its
   * cell is harness-bound: the driver, not the client, then shaped the arrivals. 1 ms where not given.
   */
  scheduleLagGoalMs?: number;
  /** The gRPC library a client of this language can be pinned to (a client's `grpcVersion`), where it can. */
  grpcPackage?: string;
}

/** The built-in languages, for their own plug-ins' code; everything else asks the registry. */
export const LANGUAGE_INFO = {
  node: {
    name: 'node',
    title: 'Node',
    packageName: '@google-cloud/spanner',
    exampleVersion: '9.0.0',
    cellSeconds: 5,
    poolInUse: 'borrowed',
    // One event loop shared with the client: timers fire between its callbacks.
    scheduleLagGoalMs: 5,
    grpcPackage: '@grpc/grpc-js',
    refuse: (c) => goOnly(c, 'node'),
    hints: {
      configurations: 'With grpc-gcp off the Node client uses one HTTP/2 connection (100 streams). The dynamic channel pool is a Java option.',
      numChannels: "The grpc-gcp pool's maximum size (needs grpc-gcp).",
    },
  },
  java: {
    name: 'java',
    title: 'Java',
    packageName: 'com.google.cloud:google-cloud-spanner',
    exampleVersion: '6.105.0',
    cellSeconds: 5,
    poolInUse: 'in_use',
    refuse: (c) => goOnly(c, 'java'),
    hints: {
      configurations: 'The dynamic channel pool (enableDynamicChannelPool) only applies when numChannels is unset.',
      numChannels: 'SpannerOptions numChannels.',
    },
  },
  go: {
    name: 'go',
    title: 'Go',
    packageName: 'cloud.google.com/go/spanner',
    exampleVersion: '1.33.0',
    cellSeconds: 3,
    refuse: (c) => (c.grpcGcp === 'on' ? { option: 'grpcGcp', message: 'grpc-gcp is not available in the Go client: use default or off' } : null),
    poolInUse: 'num_in_use_sessions',
    grpcPackage: 'google.golang.org/grpc',
    hints: { configurations: 'The Go client has no grpc-gcp.', numChannels: 'The gRPC connection pool size.' },
  },
} satisfies Record<string, LanguageInfo>;

for (const info of Object.values(LANGUAGE_INFO)) registerLanguage(info);

/** The names of every registered language, built-ins first. */
export function languageNames(): string[] {
  return languageInfos().map((l) => l.name);
}

/** The language's info; throws for a name no plug-in registered (specs are parsed before they get here). */
export function infoOf(language: string): LanguageInfo {
  const info = languageInfo(language);
  if (!info) throw new Error(`no client language "${language}" is registered`);
  return info;
}

/** The client as its users name it: google-cloud-spanner (a Maven artifact without its group), @google-cloud/spanner, cloud.google.com/go/spanner. */
export function clientName(language: string): string {
  return languageInfo(language)?.packageName.split(':').pop() ?? language;
}

/** Why a configuration cannot run on a language at all, before anything is installed; null when it can. */
export function refusedOption(language: string, configuration: RefusableConfiguration): { option: string; message: string } | null {
  return languageInfo(language)?.refuse?.(configuration) ?? null;
}

/** What a language's `refuse` reads of a configuration. */
export interface RefusableConfiguration {
  grpcGcp?: string;
  operationTimeoutMs?: number;
  sessionPool?: { trackSessionHandles?: boolean };
}

/** Options only the Go driver has: an application's context deadline, and the pool's handle tracking. */
function goOnly(c: RefusableConfiguration, language: string): { option: string; message: string } | null {
  if (c.operationTimeoutMs !== undefined) return { option: 'operationTimeoutMs', message: `is a go driver option (a context deadline per operation); the ${language} driver has none` };
  if (c.sessionPool?.trackSessionHandles !== undefined) return { option: 'sessionPool', message: `trackSessionHandles is a go client option; the ${language} client has none` };
  return null;
}
