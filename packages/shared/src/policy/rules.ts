// The operator's policy as data, and the checks target kinds apply to it (@scb/targets: packages/targets/src/<kind>/kind.ts); read from
// the environment in policy.ts.

export interface Policy {
  /**
   * Each target kind's own rules, by its name, as its TargetKind.policy read them (the Cloud Spanner
   * databases and endpoints, the emulator hosts): read them with targetPolicy.
   */
  targets: Readonly<Record<string, unknown>>;
  /** Uploaded client builds (POST /api/artifacts): whether they are taken at all, and where they may run. */
  artifacts: {
    /** SCB_ARTIFACTS=on. */
    enabled: boolean;
    /** SCB_ARTIFACTS_ON_SPANNER=on: also against remote targets (Cloud Spanner), not only the fake and the emulator. */
    onRemoteTargets: boolean;
    /** The largest upload, bytes (SCB_MAX_ARTIFACT_MB). */
    maxBytes: number;
  };
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

/** The variables the policy is read from besides its target kinds' own (TargetPolicy.variables; docs/configuration.md). */
export const POLICY_VARIABLES = {
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

/** 127.0.0.0/8 or localhost, written literally: a name that merely resolves there does not count. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(h);
}

/** The URL of the operator's webhook of that name; undefined for any other name ("constructor" included). */
export function webhookUrl(policy: Policy, name: string): string | undefined {
  return Object.hasOwn(policy.webhooks, name) ? policy.webhooks[name] : undefined;
}

/** A kind's part of the policy (TargetKind.policy), as policyFromEnv read it; undefined for a kind without rules. */
export function targetPolicy<P>(policy: Policy, kind: string): P | undefined {
  return Object.hasOwn(policy.targets, kind) ? (policy.targets[kind] as P) : undefined;
}

/** A comma-separated variable's entries, trimmed; unset or empty is none. Every app reads its lists so. */
export const commaList = (v: unknown): string[] =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

const HOST_PORT = /^([a-z0-9*.-]+):(\d{1,5})$/;

/** A variable's host:port entries, lower-cased, or one sentence naming the variable and the entry that is not one. */
export function hostPortList(env: Record<string, string | undefined>, name: string): { ok: true; entries: string[] } | { ok: false; error: string } {
  const entries = commaList(env[name]).map((e) => e.toLowerCase());
  const bad = entries.find((e) => !HOST_PORT.test(e) || Number(e.split(':').pop()) > 65_535);
  return bad === undefined ? { ok: true, entries } : { ok: false, error: `${name}: "${bad}" is not host:port` };
}

/** A variable's whole number of at least 1 (undefined when unset), or one sentence naming it. */
export function wholeNumber(env: Record<string, string | undefined>, name: string): { ok: true; value: number | undefined } | { ok: false; error: string } {
  const v = env[name]?.trim();
  if (!v) return { ok: true, value: undefined };
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1) return { ok: false, error: `${name}: "${v}" is not a whole number of at least 1` };
  return { ok: true, value: Number(v) };
}
