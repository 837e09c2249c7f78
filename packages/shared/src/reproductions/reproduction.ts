// A reproduction: a public client bug as a job that shows it on the affected version and not on the
// fixed one, with the expectations that say so (expect/expectation.ts), evaluated after every run.
import type { JobSpecInput } from '../job/spec';

/** Whether a reproduction was seen here. */
export const REPRODUCTION_STATUSES = ['reproduced', 'not reproduced', 'not run yet'] as const;

export interface Reproduction {
  id: string;
  title: string;
  language: string;
  /** The public issues and pull requests, first the one that describes the bug. */
  links: { label: string; url: string }[];
  /** As the issue or the changelog says; `versionsNote` says where that is unsure. */
  affected: string;
  fixed: string;
  versionsNote?: string;
  /** The release of the entry's clients that behaves: a release gate on this entry runs its candidate in this one's place (gate/reproduction-gate.ts). */
  fixedVersion?: string;
  /** What makes it happen, in words. */
  trigger: string;
  /** Whether it was seen here: reproduced, not reproduced (and what was seen instead), or not run yet. */
  status: (typeof REPRODUCTION_STATUSES)[number];
  /** What a run here showed, with its figures, date and commit. */
  seen?: string;
  /** The job: its expectations state the bug's shape; `reproduction` is set from the id. */
  spec: Omit<JobSpecInput, 'reproduction'> & { expectations: NonNullable<JobSpecInput['expectations']> };
}

/** The job spec a reproduction runs: its own, marked with its id for its last-run status. */
export function reproductionJobSpec(r: Reproduction): JobSpecInput {
  return { ...r.spec, name: r.spec.name ?? r.title, reproduction: r.id };
}
