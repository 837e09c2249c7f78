export { createDb, type Db } from './client';
export { enqueueJob, releaseQueue, RUN_JOB_TASK } from './queue';
export { createJob, newJobId } from './jobs';
export * from '../generated/prisma/client';
