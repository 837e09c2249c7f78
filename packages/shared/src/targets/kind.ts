import type { z } from 'zod';
import type { Policy } from '../policy/rules';

/** What a target kind reads of a spec's client (job/spec.ts, Client): the spec sits above the kinds. */
export interface TargetClient {
  language: string;
  version: string;
  grpcVersion?: string;
}

/** What a target kind reads and changes of a configuration (job/spec.ts, Configuration). */
export interface TargetConfiguration {
  multiplexedSessions?: boolean;
}

/**
 * A kind's part of the operator's policy: the variables it reads, how, and how /settings shows what it
 * read. policyFromEnv reads every registered kind's; its `policyIssues` finds the value with targetPolicy.
 */
export interface TargetPolicy<P = unknown> {
  /** Its section's heading on /settings. */
  title: string;
  /** The environment variables it reads, by a short name (docs/configuration.md). */
  variables: Readonly<Record<string, string>>;
  /** Its rules from the environment, or one sentence naming the variable and the entry that is malformed. */
  read(env: Record<string, string | undefined>): { ok: true; value: P } | { ok: false; error: string };
  /** Its rows on /settings: each a term (naming its variable) and what this server read. */
  settings(value: P): { term: string; value: string }[];
}

/** What a whole job may spend on a target that costs money. */
export interface JobBudget {
  ops: number | null;
  seconds: number | null;
  sessions: number | null;
}

/** One input of a kind's part of the launch form, bound to a key of the fields' state. */
export interface TargetFormField<S> {
  key: keyof S & string;
  label: string;
  type: 'text' | 'number';
  /** The input's id on the form (unique across kinds); the key by default. */
  id?: string;
  placeholder?: string;
  min?: number;
  step?: string;
}

/**
 * A kind's part of the launch form, as data (no React: the spec parts load in the runner and the
 * drivers' bundles too): the Target select's option, its hint, its fields' state and how that state maps
 * to and from the spec's `target` (pure: the form's tests use them), and its inputs, which the web app
 * renders. A kind without one is launched from JSON.
 */
export interface TargetForm<S = any> {
  /** The Target select's option. */
  option: string;
  /** What the user should know when picking it. */
  hint?: string;
  initial: S;
  /** A target of this kind as the fields' state. */
  read(target: Record<string, unknown>): S;
  /** The fields' state as the spec's target. */
  write(state: S): { kind: string } & Record<string, unknown>;
  fields: TargetFormField<S>[];
  /** A sentence under the inputs computed from them and the job's cell count (a cost bound), with its element id. */
  note?: { id: string; text(state: S, cells: number): string };
}

/**
 * What the spec, placement, policy, pages and statistics know of a target kind without running it.
 * Each kind has its schema and one of these in its folder (packages/targets/src/<kind>/kind.ts), registered in the
 * registry (registry.ts); starting it is the runner's TargetPlugin (the folder's runner.ts).
 */
export interface TargetKind<T extends { kind: string } = { kind: string }> {
  /** Its `kind` in specs. */
  name: string;
  /** The kind in words, for forms, the runners page and the job page ("Cloud Spanner emulator"). */
  title: string;
  /**
   * A service beyond this machine the runner connects to with its own credentials (Cloud Spanner): an
   * uploaded build runs against it only where the operator allows (SCB_ARTIFACTS_ON_SPANNER).
   */
  remote?: boolean;
  /** The target's spec, `kind` included (a literal of `name`). */
  schema: z.ZodType<T>;
  /**
   * Whether the runner starts this target from software of its own (a fresh emulator per cell): a job
   * then goes only to runners that offer the kind, and the job records the version the runner has.
   * Absent: never (a target the runner only connects to, such as Cloud Spanner).
   */
  startedByRunner?(target: T): boolean;
  /** Its rules in the operator's policy, where it has any (the Cloud Spanner databases, the emulator hosts). */
  policy?: TargetPolicy<any>;
  /** Every rule of the operator's policy the target breaks, each at its field; absent or empty: none. */
  policyIssues?(target: T, policy: Policy): { field: string; message: string }[];
  /** Server time of one data RPC after the time scale where the target models it (the fake); null where it does not. */
  modeledLatencyMs(target: T, timeScale: number): number | null;
  /** The target with its defaults spelled out, so that equal scenarios have equal keys. */
  normalize(target: T): T;
  /**
   * For the run-time estimate only: seconds to bring the target up for a cell, and the time of an
   * operation where the target models none (a guess, not a measurement of the target).
   */
  estimate: { setupSeconds: number; operationMs: number };
  /** The streams a connection may carry at once, where the target imposes a limit (the fake: like Spanner's front end); null where it does not. */
  streamLimit(target: T): number | null;
  /** The target in words, for setup lines. */
  describe(target: T, timeScale: number): string;
  /** Why a client and configuration can never run on this kind of target; null when they can. */
  refuse?(client: TargetClient, configuration: TargetConfiguration): { option: string; message: string } | null;
  /** Why a client can never follow what this target asks of it (a language whose resolver cannot); null when it can. */
  refuseClient?(target: T, client: TargetClient): string | null;
  /** The cost cap every cell's driver enforces on this target (real Spanner); absent where there is none. */
  cap?(target: T): { ops: number; ms: number };
  /** The job-wide budget the runner enforces across cells (real Spanner); null parts are unbounded. */
  budget?(target: T): JobBudget;
  /** The configuration a cell runs on this kind of target: a stated change, stored with the cell. */
  adjust?<C extends TargetConfiguration>(client: TargetClient, configuration: C): C;
  /** Its part of the launch form; absent: launched from JSON. */
  form?: TargetForm<any>;
}
