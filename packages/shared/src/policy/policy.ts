// The operator's policy: what a job spec may make a runner reach. Read once from the environment by
// the web app (to refuse a spec with a 400 naming the rule) and by every runner (to refuse a job
// before any connection is made, whoever stored it). Pure: the caller passes the environment.
import type { FieldIssue } from '../job/spec';
import { cellCount } from '../job/plan';
import { estimateJobSeconds } from '../job/estimate';
import { isRemoteTarget, targetPolicyIssues, type Target } from '../targets/index';
import { targetKinds } from '../registry';
import { commaList, POLICY_VARIABLES, webhookUrl, wholeNumber, type Policy } from './rules';

export * from './rules';

/**
 * The defaults, and why: the largest preset plans 72 cells and a gate 20, so 500 leaves room for any
 * sweep a person means (about two hours of 15 s cells) and refuses one typo'd into days; the largest
 * spec here is a few kilobytes, so 256 KB refuses only what is not a spec. Four hours of estimated run
 * time is several times the longest preset and keeps a runner from being held for a night by one job;
 * 20 queued jobs is a release's worth of gates (three scenarios on each of a few versions) while one
 * identity's loop cannot fill the queue every runner serves. 5 watches per identity is a watch per
 * client language with room for a second look at one; each polls its registry forever.
 */
/** The largest uploaded build by default: a java-spanner repository fragment with its admin modules is tens of MB. */
export const DEFAULT_ARTIFACT_MB = 200;

export const DEFAULT_LIMITS = { cellsPerJob: 500, bodyBytes: 256 * 1024, jobMinutes: 240, queuedJobsPerIdentity: 20, watchesPerIdentity: 5 };

/** A webhook's name as a watch gives it. */
export const WEBHOOK_NAME = /^[a-z0-9][a-z0-9-]{0,40}$/;

/** Every variable the policy is read from: its own and its target kinds' (a stored message may show their values). */
export function policyVariables(): string[] {
  return [...Object.values(POLICY_VARIABLES), ...targetKinds().flatMap((k) => Object.values(k.policy?.variables ?? {}))];
}

/** The policy in the environment, or one sentence naming the variable and entry that is malformed. */
export function policyFromEnv(env: Record<string, string | undefined>): { ok: true; policy: Policy } | { ok: false; error: string } {
  // Each target kind's own rules, by its name (TargetKind.policy).
  const targets: Record<string, unknown> = Object.create(null);
  for (const kind of targetKinds()) {
    if (!kind.policy) continue;
    const r = kind.policy.read(env);
    if (!r.ok) return r;
    targets[kind.name] = r.value;
  }
  // No prototype: a watch's "constructor" or "__proto__" names nothing here.
  const webhooks: Record<string, string> = Object.create(null);
  for (const entry of commaList(env[POLICY_VARIABLES.webhooks])) {
    const at = entry.indexOf('=');
    const name = entry.slice(0, at).trim();
    const url = entry.slice(at + 1).trim();
    // Its URL may be a secret: a malformed entry is named by its name alone.
    if (at < 1 || !WEBHOOK_NAME.test(name)) return { ok: false, error: `${POLICY_VARIABLES.webhooks}: an entry is not name=https://… (a name of lower-case letters, digits and hyphens)` };
    if (!/^https?:$/.test(URL.parse(url)?.protocol ?? '')) return { ok: false, error: `${POLICY_VARIABLES.webhooks}: the URL of "${name}" is not an http(s) URL` };
    if (Object.hasOwn(webhooks, name)) return { ok: false, error: `${POLICY_VARIABLES.webhooks}: "${name}" is named twice` };
    webhooks[name] = url;
  }
  const given: Partial<Record<keyof typeof POLICY_VARIABLES, number>> = {};
  for (const key of ['cellsPerJob', 'bodyBytes', 'jobMinutes', 'queuedJobsPerIdentity', 'watchesPerIdentity', 'artifactMb'] as const) {
    const r = wholeNumber(env, POLICY_VARIABLES[key]);
    if (!r.ok) return r;
    if (r.value !== undefined) given[key] = r.value;
  }
  const limits = {
    cellsPerJob: given.cellsPerJob ?? DEFAULT_LIMITS.cellsPerJob,
    bodyBytes: given.bodyBytes ?? DEFAULT_LIMITS.bodyBytes,
    jobMinutes: given.jobMinutes ?? DEFAULT_LIMITS.jobMinutes,
    queuedJobsPerIdentity: given.queuedJobsPerIdentity ?? DEFAULT_LIMITS.queuedJobsPerIdentity,
    watchesPerIdentity: given.watchesPerIdentity ?? DEFAULT_LIMITS.watchesPerIdentity,
  };
  const onOff = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' || v === 'off'
      ? { ok: true as const, on: false }
      : v === 'on'
        ? { ok: true as const, on: true }
        : { ok: false as const, error: `${name}: "${v}" is not on or off` };
  };
  const artifacts = onOff(POLICY_VARIABLES.artifacts);
  if (!artifacts.ok) return artifacts;
  const artifactsOnSpanner = onOff(POLICY_VARIABLES.artifactsOnSpanner);
  if (!artifactsOnSpanner.ok) return artifactsOnSpanner;
  return {
    ok: true,
    policy: {
      artifacts: { enabled: artifacts.on, onRemoteTargets: artifactsOnSpanner.on, maxBytes: (given.artifactMb ?? DEFAULT_ARTIFACT_MB) * 1024 * 1024 },
      targets: Object.freeze(targets),
      webhooks: Object.freeze(webhooks),
      limits,
    },
  };
}

/** Every client of a spec that names an uploaded build the policy does not let run (off, or on a remote target), at clients.N.artifact. */
export function artifactIssues(policy: Policy, spec: { target: Target; clients: readonly { artifact?: string | undefined }[] }, at = 'clients'): FieldIssue[] {
  return spec.clients.flatMap((c, i) => {
    if (!c.artifact) return [];
    if (!policy.artifacts.enabled)
      return [{ path: `${at}.${i}.artifact`, message: `uploaded builds are off on this server (${POLICY_VARIABLES.artifacts}): its operator runs published versions only` }];
    if (isRemoteTarget(spec.target) && !policy.artifacts.onRemoteTargets)
      return [{ path: `${at}.${i}.artifact`, message: `an uploaded build runs only on the fake and emulator targets here: ${POLICY_VARIABLES.artifactsOnSpanner} is not on` }];
    return [];
  });
}

/** Every rule of the policy a target breaks (its kind's rules), at its field's path under `target`; empty when it breaks none. */
export function policyIssues(policy: Policy, target: Target, at = 'target'): FieldIssue[] {
  return targetPolicyIssues(target, policy).map((i) => ({ path: `${at}.${i.field}`, message: i.message }));
}

/** The limits a job spec breaks (its planned cells, its estimated run time), at the field to change; empty when it breaks none. */
export function limitIssues(policy: Policy, spec: Parameters<typeof estimateJobSeconds>[0]): FieldIssue[] {
  const cells = cellCount(spec);
  if (cells > policy.limits.cellsPerJob) {
    // Counted first: an estimate walks the clients and concurrencies, which this bounds.
    return [
      {
        path: 'repeats',
        message: `the job plans ${cells} cells (${spec.pairing === 'zip' ? 'clients' : 'clients × configurations'} × concurrencies × repeats), more than this server's limit of ${policy.limits.cellsPerJob} (${POLICY_VARIABLES.cellsPerJob}): split it into smaller jobs`,
      },
    ];
  }
  const minutes = Math.ceil(estimateJobSeconds(spec) / 60);
  if (minutes <= policy.limits.jobMinutes) return [];
  return [
    {
      path: spec.workload.durationSeconds !== undefined ? 'workload.durationSeconds' : 'workload.measuredOps',
      message: `the job is estimated to run ${minutes} minutes, more than this server's limit of ${policy.limits.jobMinutes} (${POLICY_VARIABLES.jobMinutes}): measure less per cell or split it into smaller jobs`,
    },
  ];
}

/** Why an identity may not queue another job (or `adding` jobs at once: a watch's backfill) now, or null when it may. */
export function queueLimitRefusal(policy: Policy, queuedOrRunning: number, adding = 1): string | null {
  const limit = policy.limits.queuedJobsPerIdentity;
  if (queuedOrRunning + adding <= limit) return null;
  const these = adding === 1 ? '' : ` and this queues ${adding} more`;
  return `you have ${queuedOrRunning} jobs queued or running${these}, this server's limit per identity is ${limit} (${POLICY_VARIABLES.queuedJobsPerIdentity}): wait for some to finish or cancel them`;
}

/** Why a watch's backfill is refused: it alone queues more gates than one identity may have queued (400: narrow it). */
export function backfillLimitRefusal(policy: Policy, gates: number): string | null {
  const limit = policy.limits.queuedJobsPerIdentity;
  return gates <= limit
    ? null
    : `the backfill queues ${gates} gates at once, more than this server's limit of ${limit} jobs queued or running per identity (${POLICY_VARIABLES.queuedJobsPerIdentity}): set a later since or an until`;
}

/** Why an identity may not make another watch now, or null when it may. */
export function watchLimitRefusal(policy: Policy, watches: number): string | null {
  const limit = policy.limits.watchesPerIdentity;
  return watches < limit
    ? null
    : `you have ${watches} watches, this server's limit per identity is ${limit} (${POLICY_VARIABLES.watchesPerIdentity}): delete one you no longer need (DELETE /api/watches/<id>)`;
}

/** The policy in one sentence per rule, for a job a runner refuses (its page says why). */
export function policyRefusal(policy: Policy, spec: { target: Target; clients: readonly { artifact?: string | undefined }[] }): string | null {
  const issues = [...policyIssues(policy, spec.target), ...artifactIssues(policy, spec)];
  return issues.length ? `this runner's policy refuses the job: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : null;
}

/** The webhooks a watch names that the operator has not listed (SCB_WEBHOOKS), at their field's path. */
export function webhookIssues(policy: Policy, names: readonly string[]): FieldIssue[] {
  const known = Object.keys(policy.webhooks);
  return names.flatMap((name, i) =>
    webhookUrl(policy, name) !== undefined
      ? []
      : [{ path: `webhooks.${i}`, message: `"${name}" is not one of this server's webhooks (${POLICY_VARIABLES.webhooks}${known.length ? `: ${known.join(', ')}` : ' lists none'})` }],
  );
}

/** SCB_PUBLIC_URL, read by the web app and the runners alike: an http(s) URL. */
export const isPublicUrl = (u: string) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol);
export const PUBLIC_URL_ERROR = 'SCB_PUBLIC_URL must be an http(s) URL, e.g. https://bench.example.com';

/** Where permanent links point: SCB_PUBLIC_URL's origin, else the app on this machine's port. */
export function publicOriginOf(publicUrl: string | undefined, port: number): string {
  return new URL(publicUrl ?? `http://localhost:${port}`).origin;
}
