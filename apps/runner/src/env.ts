// The runner's environment variables, read and validated once (docs/configuration.md); those of the
// built-in target kinds (SCB_EMULATOR_BIN, SCB_ALLOW_SPANNER, SCB_TEST_TLS_ROOTS) are theirs: @scb/targets' env.ts.
import { commaList, isPublicUrl, policyFromEnv, PUBLIC_URL_ERROR, type Policy } from '@scb/shared/policy';
import { DRIVER_START_MS } from '@scb/languages';
import { z } from 'zod';

/** Unset and empty are the same: the variable is not given. */
const optional = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional());

const RunnerEnvSchema = z.object({
  /** The PostgreSQL the runner takes jobs from (`npm start` sets it). Required by main.ts only. */
  DATABASE_URL: optional,
  /** Where client versions are installed; default `.cache/` in the checkout. */
  SCB_CACHE_DIR: optional,
  /**
   * The install cache's cap in GB (decimals allowed), checked after each job: Go's build caches go
   * first, then installed versions least recently used. Java's jars stay in Maven's own ~/.m2.
   */
  SCB_CACHE_MAX_GB: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number().positive().max(100_000).default(10)),
  /** The commit a job records as where it ran; default `git rev-parse HEAD` of the checkout. */
  SCB_GIT_COMMIT: optional,
  /**
   * 1: uploaded builds' drivers run without the sandbox where this runner has none (bubblewrap). Their
   * code then runs with the runner's own reach (its network, its files): shown on /settings and the job page.
   */
  SCB_ARTIFACTS_UNSANDBOXED: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.enum(['1', '0'], { error: 'SCB_ARTIFACTS_UNSANDBOXED is 1 or unset' }).optional()),
  /** Comma-separated labels a job can require of its runner, e.g. perf-lab. */
  SCB_RUNNER_LABELS: z.preprocess(commaList, z.array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'labels are lower-case letters, digits and hyphens'))),
  /** The machine this runner measures on: runners with the same one never measure at once. Default: the host name. */
  SCB_MACHINE: optional,
  /** Milliseconds between heartbeats; a runner silent for 4 of them is taken for dead and its job resumed. */
  SCB_HEARTBEAT_MS: z.coerce.number().int().min(200).max(60_000).default(5000),
  /**
   * Milliseconds a driver may take to start and connect beyond its operations' allowance: a cell past its
   * deadline fails. Raise it where drivers share the machine with heavier work (npm test gives the files
   * that run in its idle cgroup 300 s). Bounds a Cloud Spanner cell's cost cap by the same.
   */
  SCB_DRIVER_START_MS: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number().int().min(10_000).max(3_600_000).default(DRIVER_START_MS)),
  /** Plug-in modules (client languages, target kinds) to load at start: comma-separated absolute paths (@scb/languages/plugins). */
  SCB_PLUGINS: optional,
  /**
   * When release watches poll their registries, a crontab line's five fields (graphile-worker's crontab:
   * each time is polled once, however many runners run); default hourly. `off`: this runner never polls.
   */
  SCB_WATCH_POLL: z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().default('0 * * * *'))
    .refine((v) => v === 'off' || /^(\S+\s+){4}\S+$/.test(v), 'must be five crontab fields (e.g. 0 * * * *) or off'),
  /** Attempts of one webhook delivery before it is given up as failed. */
  SCB_WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /** Milliseconds before a failed delivery's second attempt; each later wait doubles (30 s, 1 min, 2 min, …). */
  SCB_WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** The dashboard's public URL, for the links a webhook's message carries (the web app reads it too); default http://localhost:$PORT. */
  SCB_PUBLIC_URL: optional.refine((u) => u === undefined || isPublicUrl(u), PUBLIC_URL_ERROR),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
});

export type RunnerEnv = z.output<typeof RunnerEnvSchema>;

/** What the runner reads from its environment, validated when this module is first imported. */
export const env: RunnerEnv = RunnerEnvSchema.parse(process.env);

let readPolicy: Policy | undefined;

/**
 * The operator's policy (what a spec may make this runner reach), read from the environment once, when
 * first asked: main.ts asks after loading the plug-ins (SCB_PLUGINS), so their target kinds' rules count.
 */
export function policy(): Policy {
  if (readPolicy) return readPolicy;
  const r = policyFromEnv(process.env);
  if (!r.ok) throw new Error(r.error);
  return (readPolicy = r.policy);
}

/** Why a required variable is missing, in one sentence naming it. */
export class EnvError extends Error {}

/** The value of a variable the caller cannot run without. */
export function required<K extends keyof RunnerEnv>(name: K, why: string): NonNullable<RunnerEnv[K]> {
  const v = env[name];
  if (v === undefined) throw new EnvError(`${name} is not set: ${why}`);
  return v as NonNullable<RunnerEnv[K]>;
}
