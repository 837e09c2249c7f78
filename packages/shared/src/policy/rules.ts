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
    /** The most a spec's maxOpsPerCell may be (it may set less, never more). */
    maxOpsPerCell: number;
    /** The most a spec's maxSecondsPerCell may be. */
    maxSecondsPerCell: number;
  };
  /** Uploaded client builds (POST /api/artifacts): whether they are taken at all, and where they may run. */
  artifacts: {
    /** SCB_ARTIFACTS=on. */
    enabled: boolean;
    /** SCB_ARTIFACTS_ON_SPANNER=on: also against remote targets (Cloud Spanner), not only the fake and the emulator. */
    onRemoteTargets: boolean;
    /** The largest upload, bytes (SCB_MAX_ARTIFACT_MB). */
    maxBytes: number;
  };
  /** host:port of emulators a spec may name besides loopback ones. */
  emulatorHosts: string[];
  /** Loopback ports a spec's emulatorHost may name (127.0.0.1:<port>, localhost:<port>); empty: none. */
  emulatorPorts: PortRange[];
  /**
   * The webhooks a release watch may POST its verdicts to, by the operator's name for each: a watch
   * names them, so their URLs (often secrets, such as Slack's) are never stored or shown. A record
   * without a prototype: look a name up with webhookUrl, never with `in` or a bare index.
   */
  webhooks: Readonly<Record<string, string>>;
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

/** Ports from `from` to `to`, both included. */
export interface PortRange {
  from: number;
  to: number;
}

/** The variables the policy is read from (docs/configuration.md). */
export const POLICY_VARIABLES = {
  databases: 'SCB_SPANNER_DATABASES',
  endpoints: 'SCB_SPANNER_ENDPOINTS',
  emulatorHosts: 'SCB_EMULATOR_HOSTS',
  emulatorPorts: 'SCB_EMULATOR_PORTS',
  spannerMaxOps: 'SCB_SPANNER_MAX_OPS',
  spannerMaxSeconds: 'SCB_SPANNER_MAX_SECONDS',
  webhooks: 'SCB_WEBHOOKS',
  artifacts: 'SCB_ARTIFACTS',
  artifactsOnSpanner: 'SCB_ARTIFACTS_ON_SPANNER',
  artifactMb: 'SCB_MAX_ARTIFACT_MB',
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

/**
 * Listed in SCB_EMULATOR_HOSTS, or on loopback at a port SCB_EMULATOR_PORTS lists: any loopback port
 * would let a spec probe the runner's own services (its PostgreSQL, a metadata proxy).
 */
export function emulatorHostAllowed(policy: Policy, hostPort: string): boolean {
  const at = hostPort.lastIndexOf(':');
  const port = Number(hostPort.slice(at + 1));
  if (policy.emulatorHosts.includes(hostPort.toLowerCase())) return true;
  return isLoopbackHost(hostPort.slice(0, at)) && policy.emulatorPorts.some((r) => port >= r.from && port <= r.to);
}

/** The URL of the operator's webhook of that name; undefined for any other name ("constructor" included). */
export function webhookUrl(policy: Policy, name: string): string | undefined {
  return Object.hasOwn(policy.webhooks, name) ? policy.webhooks[name] : undefined;
}

// The messages name the rule and the variable, never anything about the refused host itself.
export const RULES = {
  spannerOff: `Cloud Spanner targets are off on this server: its operator allows them by listing databases in ${POLICY_VARIABLES.databases} (see /settings)`,
  spannerDatabase: `this database is not among the Cloud Spanner databases this server's operator allows (${POLICY_VARIABLES.databases}; see /settings)`,
  spannerEndpoint: `this endpoint is not among the Cloud Spanner endpoints this server's operator allows (${POLICY_VARIABLES.endpoints}; see /settings)`,
  emulatorHost: `an emulator host must be on loopback (127.0.0.1, localhost) at a port this server's operator lists in ${POLICY_VARIABLES.emulatorPorts}, or listed in ${POLICY_VARIABLES.emulatorHosts} (see /settings)`,
  spannerMaxOps: (ceiling: number) => `must be at most ${ceiling}, this server's ceiling of operations per cell (${POLICY_VARIABLES.spannerMaxOps}; see /settings)`,
  spannerMaxSeconds: (ceiling: number) => `must be at most ${ceiling}, this server's ceiling of seconds per cell (${POLICY_VARIABLES.spannerMaxSeconds}; see /settings)`,
  spannerMaxOpsPerJob: (ceiling: number) =>
    `must be at most ${ceiling}, the most any job may spend on this server: ${POLICY_VARIABLES.spannerMaxOps} operations per cell × ${POLICY_VARIABLES.cellsPerJob} cells (see /settings)`,
};
