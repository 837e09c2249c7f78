import { languageInfo, languageInfos, registerLanguage } from '../registry';
import { columnName } from '../result-set/shape';
import type { LanguageInfo, RefusableConfiguration, RefusalContext } from './language-info';
import { compareSemver } from './semver';

export type { LanguageInfo, RefusableConfiguration, RefusalContext } from './language-info';

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
    refuse: (c, context) => goOnly(c, 'node') ?? javaOnly(c, 'node') ?? nodeRowsRefusal(c, context) ?? nodeScanRefusal(c, context),
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
    refuse: (c, context) => goOnly(c, 'java') ?? nodeOnly(c, 'java') ?? decodeModeRefusal(c, context),
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
    refuse: (c, context) =>
      (c.grpcGcp === 'on' ? { option: 'grpcGcp', message: 'grpc-gcp is not available in the Go client: use default or off' } : null) ??
      javaOnly(c, 'go') ??
      nodeOnly(c, 'go') ??
      goJsonUseNumberRefusal(c, context),
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

/**
 * Why a configuration cannot run on a language, before anything is installed; null when it can. With
 * a context it also weighs the client version and the workload (a job spec's pairs); without, only
 * what no version of the language could run.
 */
export function refusedOption(language: string, configuration: RefusableConfiguration, context?: RefusalContext): { option: string; message: string } | null {
  return languageInfo(language)?.refuse?.(configuration, context) ?? null;
}

/** The first google-cloud-spanner with DecodeMode (java-spanner PR #2847): SpannerOptions.Builder.setDecodeMode. */
export const JAVA_DECODE_MODE_SINCE = '6.59.0';

/** Java's DecodeMode, on a version that lacks it. */
function decodeModeRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  const version = context?.version;
  if (c.decodeMode === undefined || version === undefined || compareSemver(version, JAVA_DECODE_MODE_SINCE) >= 0) return null;
  return {
    option: 'decodeMode',
    message: `is not supported by java ${version}: DecodeMode came in google-cloud-spanner ${JAVA_DECODE_MODE_SINCE} (java-spanner PR #2847); leave decodeMode unset for this version or run ${JAVA_DECODE_MODE_SINCE} or later`,
  };
}

/**
 * The Node row formats, against the workload: they shape the scan operation's rows only, and `json`
 * (numbers unwrapped) cannot read an INT64 result: the client throws for every value outside
 * Number.isSafeInteger, and the generated INT64 values span the whole 64-bit range.
 */
function nodeRowsRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  const workload = context?.workload;
  if (c.nodeRows === undefined || !workload) return null;
  if (!workload.operations.includes('scan')) return { option: 'nodeRows', message: "shapes the rows of the scan operation's query, which the workload does not run" };
  if (c.nodeRows !== 'json') return null;
  const i = workload.resultSet?.columns.findIndex((col) => /^(ARRAY<)?INT64>?$/.test(col.type) && (col.nullFraction ?? 0) < 1) ?? -1;
  if (i < 0) return null;
  const col = workload.resultSet!.columns[i]!;
  return {
    option: 'nodeRows',
    message: `json reads INT64 values as JS numbers and @google-cloud/spanner throws for any outside Number.isSafeInteger (±2^53 − 1), which the result's column ${columnName(i)} (${col.type}) holds (its values span the whole 64-bit range): use json-wrapNumbers, or a result without INT64 columns`,
  };
}

/** Node's nodeScan, against the workload: it says how the scan operation takes its rows. */
function nodeScanRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  if (c.nodeScan === undefined || !context?.workload || context.workload.operations.includes('scan')) return null;
  return { option: 'nodeScan', message: 'says how the scan operation takes its rows, which the workload does not run' };
}

/** The first cloud.google.com/go/spanner with UseNumberWithJSONDecoderEncoder (google-cloud-go PR #9054, for issue #8669). */
export const GO_JSON_USE_NUMBER_SINCE = '1.54.0';

/** Go's goJsonUseNumber, on a version that lacks the switch or a workload that reads no JSON. */
function goJsonUseNumberRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  if (c.goJsonUseNumber === undefined) return null;
  const version = context?.version;
  if (version !== undefined && compareSemver(version, GO_JSON_USE_NUMBER_SINCE) < 0)
    return {
      option: 'goJsonUseNumber',
      message: `is not supported by go ${version}: UseNumberWithJSONDecoderEncoder came in cloud.google.com/go/spanner ${GO_JSON_USE_NUMBER_SINCE} (google-cloud-go PR #9054); leave goJsonUseNumber unset for this version or run ${GO_JSON_USE_NUMBER_SINCE} or later`,
    };
  if (context?.workload && !context.workload.operations.includes('scan'))
    return { option: 'goJsonUseNumber', message: 'changes how JSON values decode, which only the scan operation reads, and the workload does not run it' };
  return null;
}

/** Options only the Java client has, for another language. */
function javaOnly(c: RefusableConfiguration, language: string): { option: string; message: string } | null {
  if (c.decodeMode !== undefined) return { option: 'decodeMode', message: `is a java client option (DecodeMode, google-cloud-spanner ${JAVA_DECODE_MODE_SINCE} on); the ${language} client has none` };
  return null;
}

/** Options only the Node client has, for another language. */
function nodeOnly(c: RefusableConfiguration, language: string): { option: string; message: string } | null {
  if (c.nodeRows !== undefined) return { option: 'nodeRows', message: `is a node client option (its json and wrapNumbers query options); the ${language} client has none` };
  if (c.nodeScan !== undefined) return { option: 'nodeScan', message: `is a node client option (database.run or database.runStream); the ${language} client has neither` };
  return null;
}

/** Options only the Go driver has: an application's context deadline, the pool's handle tracking, JSON numbers as json.Number. */
function goOnly(c: RefusableConfiguration, language: string): { option: string; message: string } | null {
  if (c.operationTimeoutMs !== undefined) return { option: 'operationTimeoutMs', message: `is a go driver option (a context deadline per operation); the ${language} driver has none` };
  if (c.sessionPool?.trackSessionHandles !== undefined) return { option: 'sessionPool', message: `trackSessionHandles is a go client option; the ${language} client has none` };
  if (c.goJsonUseNumber !== undefined)
    return { option: 'goJsonUseNumber', message: `is a go client option (UseNumberWithJSONDecoderEncoder, ${GO_JSON_USE_NUMBER_SINCE} on); the ${language} client has none` };
  return null;
}
