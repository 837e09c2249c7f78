// Placement: what a job needs of the runner that takes it, as queue flags, and why a runner cannot
// take it. Languages and the target kind follow from the spec (a kind the runner starts itself, such
// as a fresh emulator per cell, needs a runner that offers it); cores, memory and labels are the job's
// `requirements`. Cloud Spanner is no flag: a runner not enabled for it fails the job at once.
import { z } from 'zod';
import { startedByRunner, targetTitle, type Target } from '../targets/index';

export const RequirementsSchema = z.strictObject({
  minCores: z.number().int().min(1).max(1024).optional(),
  minMemoryGiB: z.number().int().min(1).max(65_536).optional(),
  /** Labels the runner must have (its SCB_RUNNER_LABELS), e.g. perf-lab. */
  labels: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'labels are lower-case letters, digits and hyphens'))
    .max(10)
    .optional(),
});
export type Requirements = z.output<typeof RequirementsSchema>;

/** What a runner offers (its registration). */
export interface RunnerOffer {
  cores: number;
  memoryGiB: number;
  languages: string[];
  /** The target kinds it can start or reach (its TargetPlugins that are available). */
  targets: string[];
  labels: string[];
}

/** A job's needs as graphile-worker flags: a runner takes a job only when it has every flag's need. */
export function placementFlags(spec: { clients: readonly { language: string }[]; target: Target; requirements?: Requirements }): string[] {
  const r = spec.requirements ?? {};
  return [
    ...new Set(spec.clients.map((c) => `lang:${c.language}`)),
    ...(startedByRunner(spec.target) ? [`target:${spec.target.kind}`] : []),
    ...(r.minCores ? [`cores>=${r.minCores}`] : []),
    ...(r.minMemoryGiB ? [`memory>=${r.minMemoryGiB}`] : []),
    ...(r.labels ?? []).map((l) => `label:${l}`),
  ].sort();
}

/** Why a runner cannot take a job with this flag, in words; null when it can. */
export function missingFor(flag: string, runner: RunnerOffer): string | null {
  // Jobs queued before target kinds had flags of their own said `emulator`: the migration
  // 20261212095000_target_flags made theirs `target:emulator`.
  const [kind, value] = flag.startsWith('cores>=') ? ['cores', flag.slice(7)] : flag.startsWith('memory>=') ? ['memory', flag.slice(8)] : flag.split(':');
  switch (kind) {
    case 'lang':
      return runner.languages.includes(value!) ? null : `the ${value} toolchain`;
    case 'target':
      return runner.targets.includes(value!) ? null : `the ${targetTitle(value!)}`;
    case 'cores':
      return runner.cores >= Number(value) ? null : `at least ${value} cores`;
    case 'memory':
      return runner.memoryGiB >= Number(value) ? null : `at least ${value} GiB of memory`;
    case 'label':
      return runner.labels.includes(value!) ? null : `the label ${value}`;
    default:
      return `an unknown need (${flag})`;
  }
}

/** Why no runner of `runners` can take the job (one sentence), or null when one can. */
export function placementProblem(flags: string[], runners: RunnerOffer[]): string | null {
  if (runners.length === 0) return 'no runner is alive: start one (`npm run runner` with DATABASE_URL)';
  if (runners.some((r) => flags.every((f) => missingFor(f, r) === null))) return null;
  // Name what the closest runner lacks.
  const gaps = runners.map((r) => flags.map((f) => missingFor(f, r)).filter((m): m is string => m !== null)).sort((a, b) => a.length - b.length)[0]!;
  return `no alive runner can take this job: the closest one (of ${runners.length}) lacks ${gaps.join(', ')}`;
}
