// What a client language is to the spec, forms and pages: the registry's record of it (registry.ts),
// below the spec and the languages themselves so that neither imports the other to name it. The
// languages' entries (packages/languages/src/<language>/info.ts) import only this, the registry and
// result-set/shape.ts of this package: @scb/shared imports them (job/languages.ts) without a cycle.
import { compareSemver } from './semver';

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
  /**
   * Why a configuration can never run on this language (on the context's client version, with its
   * workload, where given), before anything is installed; null when it can.
   */
  refuse?(configuration: RefusableConfiguration, context?: RefusalContext): { option: string; message: string } | null;
  /**
   * Its own options (those no other language has), given to `language`: why that language refuses
   * them, or null. Every other language's configuration is checked against it.
   */
  refuseForeign?(configuration: RefusableConfiguration, language: string): { option: string; message: string } | null;
  /** What the launch form says under its fields while this language is picked. */
  hints?: { configurations?: string; numChannels?: string };
  /**
   * The configurations the launch form offers as checkboxes while this language is picked, each a
   * configuration's options (its label the checkbox's); absent: grpc-gcp on and off, the client default
   * and the dynamic channel pool, with the numChannels field.
   */
  formConfigurations?: { key: string; label: string; configuration: Record<string, unknown> }[];
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

/** What a language's `refuse` reads of a configuration. */
export interface RefusableConfiguration {
  grpcGcp?: string;
  operationTimeoutMs?: number;
  sessionPool?: { trackSessionHandles?: boolean; minSessions?: number; maxSessions?: number; maxIdle?: number; writeSessionsFraction?: number };
  decodeMode?: string;
  nodeRows?: string;
  nodeScan?: string;
  goJsonUseNumber?: boolean;
  numChannels?: number;
  dynamicChannelPool?: boolean;
  multiplexedSessions?: boolean;
  pythonPool?: string;
  pythonLazyDecode?: boolean;
}

/** What else a language's `refuse` may weigh: the client version and the workload it would run. */
export interface RefusalContext {
  version?: string;
  workload?: { operations: readonly string[]; resultSet?: { columns: readonly { type: string; nullFraction?: number }[] } };
}

/**
 * An option that came to a client in `since`, set (`set`) for an older `version`: refused with what came
 * and where (`came`: "DecodeMode came in google-cloud-spanner 6.59.0 (java-spanner PR #2847)"); null
 * for a version that has it, or where the version is not known.
 */
export function versionRefusal(option: string, set: boolean, language: string, version: string | undefined, since: string, came: string): { option: string; message: string } | null {
  if (!set || version === undefined || compareSemver(version, since) >= 0) return null;
  return { option, message: `is not supported by ${language} ${version}: ${came}; leave ${option} unset for this version or run ${since} or later` };
}
