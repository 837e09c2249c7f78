// A job's status transitions as the runner makes them: queued → running → succeeded | failed | cancelled.
import { finishJob, markJobRunning, type Db, type JobOutcome } from '@scb/db';
import { invalidText, type FieldIssue } from '@scb/shared';
import type { StopReason } from './cancel';
import { describeEnvironment } from './environment';

/** Marks the job running with where it runs; false when it is no longer queued (cancelled meanwhile). */
export async function startJob(db: Db, jobId: string, runnerId: string | null, runsBuilds = false): Promise<boolean> {
  return markJobRunning(db, jobId, await describeEnvironment(runsBuilds), runnerId);
}

/** A job whose stored spec does not parse fails without running anything. */
export async function failInvalidJob(db: Db, jobId: string, issues: FieldIssue[]): Promise<void> {
  await finishJob(db, jobId, { status: 'failed', error: invalidText('stored spec', issues) });
}

/** A job this runner must not run (its target is not enabled here) fails without running anything, saying why. */
export async function failRefusedJob(db: Db, jobId: string, why: string): Promise<void> {
  await finishJob(db, jobId, { status: 'failed', error: why });
}

/**
 * How a job ended: cancelled on request; failed when the runner stopped or no cell succeeded;
 * otherwise succeeded (some cells may have failed: their errors are on the cells).
 */
export function jobOutcome(stopped: StopReason | null, succeeded: number): JobOutcome {
  if (stopped === 'cancel') return { status: 'cancelled', error: 'cancelled by request; finished cells are kept' };
  if (stopped === 'shutdown') return { status: 'failed', error: 'the runner was stopped while this job ran' };
  if (succeeded === 0) return { status: 'failed', error: 'every cell failed: see the cells for their errors' };
  return { status: 'succeeded', error: null };
}

/** Ends the job (its cells that did not run are cancelled with it) and says how. */
export async function endJob(db: Db, jobId: string, stopped: StopReason | null, succeeded: number): Promise<JobOutcome> {
  const outcome = jobOutcome(stopped, succeeded);
  await finishJob(db, jobId, outcome);
  return outcome;
}
