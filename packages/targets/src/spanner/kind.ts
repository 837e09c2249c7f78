import { z } from 'zod';
import { commaList, hostPortList, POLICY_VARIABLES, targetPolicy, wholeNumber, type Policy } from '@scb/shared/policy-rules';
import type { TargetForm, TargetKind, TargetPolicy } from '@scb/shared/target-kind';

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

/** A Cloud Spanner database the operator allows, `*` in a part matching any id. */
export interface DatabaseRule {
  projectId: string;
  instanceId: string;
  databaseId: string;
}

/** The operator's Cloud Spanner rules (its part of Policy.targets). */
export interface SpannerPolicy {
  /** Empty: Cloud Spanner targets are off. */
  databases: DatabaseRule[];
  /** host:port patterns; `*` matches letters, digits and hyphens within one DNS label. */
  endpoints: string[];
  /** Whether `endpoints` is the default (Google's own endpoints) rather than the operator's list. */
  defaultEndpoints: boolean;
  /** The most a spec's maxOpsPerCell may be (it may set less, never more). */
  maxOpsPerCell: number;
  /** The most a spec's maxSecondsPerCell may be. */
  maxSecondsPerCell: number;
}

/** The variables the Cloud Spanner rules are read from. */
export const SPANNER_POLICY_VARIABLES = {
  databases: 'SCB_SPANNER_DATABASES',
  endpoints: 'SCB_SPANNER_ENDPOINTS',
  maxOps: 'SCB_SPANNER_MAX_OPS',
  maxSeconds: 'SCB_SPANNER_MAX_SECONDS',
} as const;

/**
 * The ceilings of a Cloud Spanner spec's cost caps, and why: the launch form starts at 20,000 operations
 * and 60 s a cell; 100,000 operations is five times that (a minute at about 1,700 operations a second),
 * and 300 s five such minutes, while the spec's own schema would take 10,000,000 and an hour. A spec
 * sets its caps below them as it likes; the operator raises them for a bigger instance.
 */
export const DEFAULT_SPANNER_CEILINGS = { maxOpsPerCell: 100_000, maxSecondsPerCell: 300 };

/** Google's own Cloud Spanner endpoints: global, regional and locational. */
export const GOOGLE_SPANNER_ENDPOINTS = ['spanner.googleapis.com:443', '*-spanner.googleapis.com:443', 'spanner.*.rep.googleapis.com:443'];

const ID = /^(\*|[a-z][a-z0-9.:_-]{0,62})$/;
const V = SPANNER_POLICY_VARIABLES;

// The messages name the rule and the variable, never anything about the refused host itself.
export const SPANNER_RULES = {
  off: `Cloud Spanner targets are off on this server: its operator allows them by listing databases in ${V.databases} (see /settings)`,
  database: `this database is not among the Cloud Spanner databases this server's operator allows (${V.databases}; see /settings)`,
  endpoint: `this endpoint is not among the Cloud Spanner endpoints this server's operator allows (${V.endpoints}; see /settings)`,
  maxOps: (ceiling: number) => `must be at most ${ceiling}, this server's ceiling of operations per cell (${V.maxOps}; see /settings)`,
  maxSeconds: (ceiling: number) => `must be at most ${ceiling}, this server's ceiling of seconds per cell (${V.maxSeconds}; see /settings)`,
  maxOpsPerJob: (ceiling: number) => `must be at most ${ceiling}, the most any job may spend on this server: ${V.maxOps} operations per cell × ${POLICY_VARIABLES.cellsPerJob} cells (see /settings)`,
};

const NO_SPANNER: SpannerPolicy = { databases: [], endpoints: GOOGLE_SPANNER_ENDPOINTS, defaultEndpoints: true, ...DEFAULT_SPANNER_CEILINGS };
const spannerPolicyOf = (policy: Policy): SpannerPolicy => targetPolicy<SpannerPolicy>(policy, 'spanner') ?? NO_SPANNER;

function matches(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[a-z0-9-]+')}$`);
  return re.test(value.toLowerCase());
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function spannerEndpointAllowed(policy: Policy, endpoint: string): boolean {
  return spannerPolicyOf(policy).endpoints.some((p) => matches(p, endpoint));
}

export function spannerDatabaseAllowed(policy: Policy, db: DatabaseRule): boolean {
  const part = (rule: string, id: string) => rule === '*' || rule === id;
  return spannerPolicyOf(policy).databases.some((r) => part(r.projectId, db.projectId) && part(r.instanceId, db.instanceId) && part(r.databaseId, db.databaseId));
}

const spannerPolicy: TargetPolicy<SpannerPolicy> = {
  title: 'Cloud Spanner',
  variables: SPANNER_POLICY_VARIABLES,
  read(env) {
    const databases: DatabaseRule[] = [];
    for (const entry of commaList(env[V.databases])) {
      const parts = entry.split('/');
      if (parts.length !== 3 || !parts.every((p) => ID.test(p))) return { ok: false, error: `${V.databases}: "${entry}" is not project/instance/database (ids, or * for any)` };
      databases.push({ projectId: parts[0]!, instanceId: parts[1]!, databaseId: parts[2]! });
    }
    const endpoints = hostPortList(env, V.endpoints);
    if (!endpoints.ok) return endpoints;
    const maxOps = wholeNumber(env, V.maxOps);
    if (!maxOps.ok) return maxOps;
    const maxSeconds = wholeNumber(env, V.maxSeconds);
    if (!maxSeconds.ok) return maxSeconds;
    const defaultEndpoints = endpoints.entries.length === 0;
    return {
      ok: true,
      value: {
        databases,
        endpoints: defaultEndpoints ? GOOGLE_SPANNER_ENDPOINTS : endpoints.entries,
        defaultEndpoints,
        maxOpsPerCell: maxOps.value ?? DEFAULT_SPANNER_CEILINGS.maxOpsPerCell,
        maxSecondsPerCell: maxSeconds.value ?? DEFAULT_SPANNER_CEILINGS.maxSecondsPerCell,
      },
    };
  },
  settings: (p) => [
    { term: 'targets', value: p.databases.length ? 'on, for the databases below' : `off: no database is listed in ${V.databases}` },
    { term: `databases (${V.databases})`, value: p.databases.length ? p.databases.map((d) => `${d.projectId}/${d.instanceId}/${d.databaseId}`).join(', ') : 'none' },
    { term: `endpoints (${V.endpoints})`, value: `${p.endpoints.join(', ')}${p.defaultEndpoints ? " (the default: Google's own endpoints)" : ''}` },
    { term: `operations per cell, at most (${V.maxOps})`, value: `${p.maxOpsPerCell.toLocaleString('en-US')}: a spec's maxOpsPerCell may be lower, never higher` },
    { term: `seconds per cell, at most (${V.maxSeconds})`, value: `${p.maxSecondsPerCell} s: a spec's maxSecondsPerCell may be lower, never higher` },
    { term: 'credentials', value: "each runner's own Application Default Credentials, and only on runners started with SCB_ALLOW_SPANNER=1; never part of a spec" },
  ],
};

export interface SpannerFormState {
  projectId: string;
  instanceId: string;
  databaseId: string;
  endpoint: string;
  maxOpsPerCell: number;
  maxSecondsPerCell: number;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The database on Cloud Spanner, an optional endpoint and the cost caps every cell's driver enforces. */
const spannerForm: TargetForm<SpannerFormState> = {
  option: 'Cloud Spanner (real; costs money)',
  hint: "Runs only on a runner started with SCB_ALLOW_SPANNER=1; it uses that runner's Application Default Credentials, which are never entered, stored or shown here. Nothing is created in the database: the workload's tables must exist.",
  initial: { projectId: '', instanceId: '', databaseId: '', endpoint: '', maxOpsPerCell: 20_000, maxSecondsPerCell: 60 },
  read: (t) => ({
    ...spannerForm.initial,
    ...t,
    projectId: text(t.projectId),
    instanceId: text(t.instanceId),
    databaseId: text(t.databaseId),
    endpoint: text(t.endpoint),
  }),
  write: ({ endpoint, ...s }) => ({
    kind: 'spanner',
    ...s,
    projectId: s.projectId.trim(),
    instanceId: s.instanceId.trim(),
    databaseId: s.databaseId.trim(),
    ...(endpoint.trim() ? { endpoint: endpoint.trim() } : {}),
  }),
  fields: [
    { key: 'projectId', id: 'spanner-projectId', label: 'Project id', type: 'text' },
    { key: 'instanceId', id: 'spanner-instanceId', label: 'Instance id', type: 'text' },
    { key: 'databaseId', id: 'spanner-databaseId', label: 'Database id', type: 'text' },
    { key: 'endpoint', id: 'spanner-endpoint', label: 'Endpoint host:port', type: 'text', placeholder: 'spanner.googleapis.com:443' },
    { key: 'maxOpsPerCell', id: 'spanner-maxOpsPerCell', label: 'Cost cap: operations per cell', type: 'number', min: 1 },
    { key: 'maxSecondsPerCell', id: 'spanner-maxSecondsPerCell', label: 'Cost cap: seconds per cell', type: 'number', min: 1 },
  ],
  note: {
    id: 'spanner-cost',
    text: (s, cells) =>
      `Cost bound: ${cells} cell(s), at most ${(cells * s.maxOpsPerCell).toLocaleString('en-US')} operations and ${Math.ceil((cells * s.maxSecondsPerCell) / 60)} minutes of traffic in all. The driver starts no operation past either cap (warm-up included); a capped cell says so.`,
  },
};

export const spannerTarget: TargetKind<SpannerTarget> = {
  form: spannerForm,
  name: 'spanner',
  remote: true,
  title: 'Cloud Spanner',
  schema: SpannerTargetSchema,
  // No placement: a runner not enabled for it fails such a job at once, saying how to enable it.
  policy: spannerPolicy,
  policyIssues: (t, policy) => {
    const rules = spannerPolicyOf(policy);
    if (rules.databases.length === 0) return [{ field: 'kind', message: SPANNER_RULES.off }];
    // The spec's caps may be lower than the operator's ceilings, never higher; a job's budget no higher than what any job may spend.
    const { maxOpsPerCell, maxSecondsPerCell } = rules;
    const opsPerJob = maxOpsPerCell * policy.limits.cellsPerJob;
    return [
      ...(spannerDatabaseAllowed(policy, t) ? [] : [{ field: 'databaseId', message: SPANNER_RULES.database }]),
      ...(spannerEndpointAllowed(policy, t.endpoint ?? DEFAULT_SPANNER_ENDPOINT) ? [] : [{ field: 'endpoint', message: SPANNER_RULES.endpoint }]),
      ...(t.maxOpsPerCell > maxOpsPerCell ? [{ field: 'maxOpsPerCell', message: SPANNER_RULES.maxOps(maxOpsPerCell) }] : []),
      ...(t.maxSecondsPerCell > maxSecondsPerCell ? [{ field: 'maxSecondsPerCell', message: SPANNER_RULES.maxSeconds(maxSecondsPerCell) }] : []),
      ...(t.maxOpsPerJob !== undefined && t.maxOpsPerJob > opsPerJob ? [{ field: 'maxOpsPerJob', message: SPANNER_RULES.maxOpsPerJob(opsPerJob) }] : []),
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
