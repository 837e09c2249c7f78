export { createDb, type Db } from './client';
export { enqueueJob, releaseQueue, RUN_JOB_TASK } from './queue';
export { cancelJob, createGate, createJob, newJobId, type CancelOutcome } from './jobs';
export * from '../generated/prisma/client';
