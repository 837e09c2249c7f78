// What "finished" means, once for every layer: the runner, the data access, the pages and the CLI.

/** A cell is finished once it is no longer pending or running: succeeded, failed or cancelled. */
export const UNFINISHED_CELL_STATUSES = ['pending', 'running'] as const;

export function isFinishedCell(status: string): boolean {
  return !(UNFINISHED_CELL_STATUSES as readonly string[]).includes(status);
}

/** A cell that ran to its end, succeeded or failed: a job's progress ("3 / 20") counts these, not cancelled ones. */
export const RAN_CELL_STATUSES = ['succeeded', 'failed'] as const;

/** A job has ended once it is no longer queued or running: succeeded, failed or cancelled. */
export const UNFINISHED_JOB_STATUSES = ['queued', 'running'] as const;
export type UnfinishedJobStatus = (typeof UNFINISHED_JOB_STATUSES)[number];

export function isUnfinishedJob(status: string): status is UnfinishedJobStatus {
  return (UNFINISHED_JOB_STATUSES as readonly string[]).includes(status);
}
