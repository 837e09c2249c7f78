import { z } from 'zod';
import { RULES, spannerDatabaseAllowed, spannerEndpointAllowed } from '../policy/rules';
import type { TargetKind } from './kind';

// Resource id rules of Cloud Spanner (instance 2-64, database 2-30 characters) and of projects,
// optionally domain-scoped ("example.com:my-project").
const PROJECT_ID = /^([a-z][a-z0-9.-]*[a-z0-9]:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const INSTANCE_ID = /^[a-z][-a-z0-9]{0,62}[a-z0-9]$/;
const DATABASE_ID = /^[a-z][a-z0-9_-]{0,28}[a-z0-9]$/;
const HOST_PORT = /^[A-Za-z0-9.-]+:\d{1,5}$/;

export const SpannerTargetSchema = z.strictObject({
  kind: z.literal('spanner'),
  projectId: z.string().regex(PROJECT_ID, 'must be a Google Cloud project id, e.g. my-project'),
  instanceId: z.string().regex(INSTANCE_ID, 'must be a Spanner instance id: 2-64 lower-case letters, digits and hyphens, starting with a letter'),
  databaseId: z.string().regex(DATABASE_ID, 'must be a Spanner database id: 2-30 lower-case letters, digits, _ and -, starting with a letter'),
  /** A regional or private endpoint, host:port; default spanner.googleapis.com:443. */
  endpoint: z
    .string()
    .refine((h) => HOST_PORT.test(h) && Number(h.split(':').pop()) <= 65_535, 'must be host:port, e.g. us-central1-spanner.googleapis.com:443')
    .optional(),
  /** Cost cap, required on real Spanner: operations a cell may start (warm-up and measured together). */
  maxOpsPerCell: z.number({ error: 'required on Cloud Spanner: the most operations one cell may run (a cost cap)' }).int().min(1).max(10_000_000),
  /** Cost cap, required on real Spanner: seconds a cell may issue operations for. */
  maxSecondsPerCell: z.number({ error: 'required on Cloud Spanner: the most seconds one cell may run operations (a cost cap)' }).min(1).max(3600),
  /** Job-wide budget: operations all cells together may start; the runner stops the job there. */
  maxOpsPerJob: z.number().int().min(1).max(1_000_000_000).optional(),
  /** Job-wide budget: seconds all cells together may take, start to end; the runner stops the job there. */
  maxSecondsPerJob: z.number().min(1).max(86_400).optional(),
  /** Job-wide budget: sessions all cells' clients together may create; the runner stops the job there. */
  maxSessionsPerJob: z.number().int().min(1).max(1_000_000).optional(),
});
export type SpannerTarget = z.output<typeof SpannerTargetSchema>;

export const DEFAULT_SPANNER_ENDPOINT = 'spanner.googleapis.com:443';

export const spannerTarget: TargetKind<SpannerTarget> = {
  name: 'spanner',
  remote: true,
  title: 'Cloud Spanner',
  schema: SpannerTargetSchema,
  // No placement: a runner not enabled for it fails such a job at once, saying how to enable it.
  policyIssues: (t, policy) => {
    if (policy.spanner.databases.length === 0) return [{ field: 'kind', message: RULES.spannerOff }];
    // The spec's caps may be lower than the operator's ceilings, never higher; a job's budget no higher than what any job may spend.
    const { maxOpsPerCell, maxSecondsPerCell } = policy.spanner;
    const opsPerJob = maxOpsPerCell * policy.limits.cellsPerJob;
    return [
      ...(spannerDatabaseAllowed(policy, t) ? [] : [{ field: 'databaseId', message: RULES.spannerDatabase }]),
      ...(spannerEndpointAllowed(policy, t.endpoint ?? DEFAULT_SPANNER_ENDPOINT) ? [] : [{ field: 'endpoint', message: RULES.spannerEndpoint }]),
      ...(t.maxOpsPerCell > maxOpsPerCell ? [{ field: 'maxOpsPerCell', message: RULES.spannerMaxOps(maxOpsPerCell) }] : []),
      ...(t.maxSecondsPerCell > maxSecondsPerCell ? [{ field: 'maxSecondsPerCell', message: RULES.spannerMaxSeconds(maxSecondsPerCell) }] : []),
      ...(t.maxOpsPerJob !== undefined && t.maxOpsPerJob > opsPerJob ? [{ field: 'maxOpsPerJob', message: RULES.spannerMaxOpsPerJob(opsPerJob) }] : []),
    ];
  },
  modeledLatencyMs: () => null,
  // Sessions and the table probe; an operation a few milliseconds in one region.
  estimate: { setupSeconds: 5, operationMs: 10 },
  normalize: (t) => ({ ...t, endpoint: t.endpoint ?? DEFAULT_SPANNER_ENDPOINT }),
  // Spanner's front end allows 100 streams per HTTP/2 connection.
  streamLimit: () => 100,
  describe: (t) =>
    `Cloud Spanner projects/${t.projectId}/instances/${t.instanceId}/databases/${t.databaseId}${t.endpoint && t.endpoint !== DEFAULT_SPANNER_ENDPOINT ? ` at ${t.endpoint}` : ''}, at most ${t.maxOpsPerCell} operations and ${t.maxSecondsPerCell} s per cell`,
  cap: (t) => ({ ops: t.maxOpsPerCell, ms: t.maxSecondsPerCell * 1000 }),
  budget: (t) => ({ ops: t.maxOpsPerJob ?? null, seconds: t.maxSecondsPerJob ?? null, sessions: t.maxSessionsPerJob ?? null }),
};
