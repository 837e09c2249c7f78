import { versionRefusal, type LanguageInfo, type RefusableConfiguration, type RefusalContext } from '@scb/shared/language-info';

/** The first google-cloud-spanner with execute_sql(lazy_decode=...) (python-spanner, 3.51.0). */
export const PYTHON_LAZY_DECODE_SINCE = '3.51.0';
/**
 * The first google-cloud-spanner with multiplexed sessions (python-spanner PR #1381, 3.55.0), switched
 * by GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS (and _FOR_RW, _PARTITIONED_OPS); on by default from
 * 3.56.0 (PR #1394) unless those say false.
 */
export const PYTHON_MULTIPLEXED_SINCE = '3.55.0';

/** What the spec, forms and pages know of the Python client (registered by ../info.ts). */
export const pythonInfo = {
  name: 'python',
  title: 'Python',
  packageName: 'google-cloud-spanner',
  exampleVersion: '3.71.0',
  cellSeconds: 5,
  // The driver counts the sessions its pool has handed out and not yet taken back.
  poolInUse: 'in_use',
  // One thread per agent under the GIL: the scheduler's thread waits for it like any other.
  scheduleLagGoalMs: 5,
  refuse: (c, context) => pythonRefusal(c, context),
  refuseForeign: (c, language) => {
    if (c.pythonPool !== undefined) return { option: 'pythonPool', message: `is a python client option (FixedSizePool, BurstyPool or PingingPool); the ${language} client has none` };
    if (c.pythonLazyDecode !== undefined)
      return { option: 'pythonLazyDecode', message: `is a python client option (execute_sql lazy_decode, ${PYTHON_LAZY_DECODE_SINCE} on); the ${language} client has none` };
    return null;
  },
  // Its session pool classes (pythonPool), at their default size; the JSON sets sessionPool.maxSessions.
  formConfigurations: [
    { key: 'fixed', label: 'FixedSizePool', configuration: { pythonPool: 'fixed' } },
    { key: 'bursty', label: 'BurstyPool', configuration: { pythonPool: 'bursty' } },
    { key: 'pinging', label: 'PingingPool', configuration: { pythonPool: 'pinging' } },
  ],
  hints: {
    configurations: 'The Python client has no grpc-gcp and one gRPC channel: each box is a session pool class (pythonPool) at its default size; the JSON sets its size (sessionPool.maxSessions).',
    numChannels: 'Not exposed by the Python client (one gRPC channel).',
  },
} satisfies LanguageInfo;

/** What the Python client never has, and what a version lacks. */
function pythonRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  if (c.grpcGcp === 'on') return { option: 'grpcGcp', message: 'grpc-gcp is not available in the Python driver: use default or off' };
  if (c.numChannels !== undefined) return { option: 'numChannels', message: 'is not exposed by the Python client: it opens one gRPC channel' };
  if (c.dynamicChannelPool !== undefined) return { option: 'dynamicChannelPool', message: 'is a java client option; the python client has none' };
  for (const field of ['minSessions', 'maxIdle', 'writeSessionsFraction'] as const)
    if (c.sessionPool?.[field] !== undefined) return { option: 'sessionPool', message: `${field} is not a python pool option: its pools take one size (sessionPool.maxSessions)` };
  if (c.pythonLazyDecode !== undefined && context?.workload && !context.workload.operations.includes('scan'))
    return { option: 'pythonLazyDecode', message: "changes when the scan operation's values decode, which the workload does not run" };
  return (
    versionRefusal(
      'pythonLazyDecode',
      c.pythonLazyDecode !== undefined,
      'python',
      context?.version,
      PYTHON_LAZY_DECODE_SINCE,
      `lazy_decode came in google-cloud-spanner ${PYTHON_LAZY_DECODE_SINCE}`,
    ) ??
    versionRefusal(
      'multiplexedSessions',
      c.multiplexedSessions !== undefined,
      'python',
      context?.version,
      PYTHON_MULTIPLEXED_SINCE,
      `multiplexed sessions came in google-cloud-spanner ${PYTHON_MULTIPLEXED_SINCE} (python-spanner PR #1381)`,
    )
  );
}
