import { versionRefusal, type LanguageInfo, type RefusableConfiguration, type RefusalContext } from '@scb/shared/language-info';

/** The first cloud.google.com/go/spanner with UseNumberWithJSONDecoderEncoder (google-cloud-go PR #9054, for issue #8669). */
export const GO_JSON_USE_NUMBER_SINCE = '1.54.0';

/** What the spec, forms and pages know of the Go client (registered by ../info.ts). */
export const goInfo = {
  name: 'go',
  title: 'Go',
  packageName: 'cloud.google.com/go/spanner',
  exampleVersion: '1.33.0',
  cellSeconds: 3,
  refuse: (c, context) => (c.grpcGcp === 'on' ? { option: 'grpcGcp', message: 'grpc-gcp is not available in the Go client: use default or off' } : null) ?? goJsonUseNumberRefusal(c, context),
  // Options only the Go driver has: an application's context deadline, the pool's handle tracking, JSON numbers as json.Number.
  refuseForeign: (c, language) => {
    if (c.operationTimeoutMs !== undefined) return { option: 'operationTimeoutMs', message: `is a go driver option (a context deadline per operation); the ${language} driver has none` };
    if (c.sessionPool?.trackSessionHandles !== undefined) return { option: 'sessionPool', message: `trackSessionHandles is a go client option; the ${language} client has none` };
    if (c.goJsonUseNumber !== undefined)
      return { option: 'goJsonUseNumber', message: `is a go client option (UseNumberWithJSONDecoderEncoder, ${GO_JSON_USE_NUMBER_SINCE} on); the ${language} client has none` };
    return null;
  },
  poolInUse: 'num_in_use_sessions',
  grpcPackage: 'google.golang.org/grpc',
  hints: { configurations: 'The Go client has no grpc-gcp.', numChannels: 'The gRPC connection pool size.' },
} satisfies LanguageInfo;

/** Go's goJsonUseNumber, on a version that lacks the switch or a workload that reads no JSON. */
function goJsonUseNumberRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  if (c.goJsonUseNumber === undefined) return null;
  const lacking = versionRefusal(
    'goJsonUseNumber',
    true,
    'go',
    context?.version,
    GO_JSON_USE_NUMBER_SINCE,
    `UseNumberWithJSONDecoderEncoder came in cloud.google.com/go/spanner ${GO_JSON_USE_NUMBER_SINCE} (google-cloud-go PR #9054)`,
  );
  if (lacking) return lacking;
  if (context?.workload && !context.workload.operations.includes('scan'))
    return { option: 'goJsonUseNumber', message: 'changes how JSON values decode, which only the scan operation reads, and the workload does not run it' };
  return null;
}
