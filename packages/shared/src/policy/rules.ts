// The operator's policy as data, and the checks target kinds apply to it (targets/<kind>.ts); read from
// the environment in policy.ts.

/** A Cloud Spanner database the operator allows, `*` in a part matching any id. */
export interface DatabaseRule {
  projectId: string;
  instanceId: string;
  databaseId: string;
}

export interface Policy {
  spanner: {
    /** Empty: Cloud Spanner targets are off. */
    databases: DatabaseRule[];
    /** host:port patterns; `*` matches letters, digits and hyphens within one DNS label. */
    endpoints: string[];
    /** Whether `endpoints` is the default (Google's own endpoints) rather than the operator's list. */
    defaultEndpoints: boolean;
  };
  /** host:port of emulators a spec may name besides loopback ones. */
  emulatorHosts: string[];
  /**
   * The webhooks a release watch may POST its verdicts to, by the operator's name for each: a watch
   * names them, so their URLs (often secrets, such as Slack's) are never stored or shown.
   */
  webhooks: Record<string, string>;
  limits: {
    /** Cells one job may plan. */
    cellsPerJob: number;
    /** Bytes of a request body, checked before it is parsed. */
    bodyBytes: number;
    /** Minutes a job may be estimated to run (estimateJobSeconds). */
    jobMinutes: number;
    /** Jobs one identity may have queued or running at once (gates' jobs included, a watch's too). */
    queuedJobsPerIdentity: number;
    /** Release watches one identity may have that are not stopped. */
    watchesPerIdentity: number;
  };
}

/** The variables the policy is read from (docs/configuration.md). */
export const POLICY_VARIABLES = {
  databases: 'SCB_SPANNER_DATABASES',
  endpoints: 'SCB_SPANNER_ENDPOINTS',
  emulatorHosts: 'SCB_EMULATOR_HOSTS',
  webhooks: 'SCB_WEBHOOKS',
  cellsPerJob: 'SCB_MAX_CELLS_PER_JOB',
  bodyBytes: 'SCB_MAX_BODY_BYTES',
  jobMinutes: 'SCB_MAX_JOB_MINUTES',
  queuedJobsPerIdentity: 'SCB_MAX_QUEUED_JOBS',
  watchesPerIdentity: 'SCB_MAX_WATCHES',
} as const;

function matches(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[a-z0-9-]+')}$`);
  return re.test(value.toLowerCase());
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 127.0.0.0/8 or localhost, written literally: a name that merely resolves there does not count. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(h);
}

export function spannerEndpointAllowed(policy: Policy, endpoint: string): boolean {
  return policy.spanner.endpoints.some((p) => matches(p, endpoint));
}

export function spannerDatabaseAllowed(policy: Policy, db: DatabaseRule): boolean {
  const part = (rule: string, id: string) => rule === '*' || rule === id;
  return policy.spanner.databases.some((r) => part(r.projectId, db.projectId) && part(r.instanceId, db.instanceId) && part(r.databaseId, db.databaseId));
}

export function emulatorHostAllowed(policy: Policy, hostPort: string): boolean {
  const host = hostPort.slice(0, hostPort.lastIndexOf(':'));
  return isLoopbackHost(host) || policy.emulatorHosts.includes(hostPort.toLowerCase());
}

// The messages name the rule and the variable, never anything about the refused host itself.
export const RULES = {
  spannerOff: `Cloud Spanner targets are off on this server: its operator allows them by listing databases in ${POLICY_VARIABLES.databases} (see /settings)`,
  spannerDatabase: `this database is not among the Cloud Spanner databases this server's operator allows (${POLICY_VARIABLES.databases}; see /settings)`,
  spannerEndpoint: `this endpoint is not among the Cloud Spanner endpoints this server's operator allows (${POLICY_VARIABLES.endpoints}; see /settings)`,
  emulatorHost: `an emulator host must be a loopback address (127.0.0.1, localhost) or listed by this server's operator in ${POLICY_VARIABLES.emulatorHosts} (see /settings)`,
};
