export { createDb, type Db } from './client';
export { migrate, MIGRATIONS_DIR, type MigrationReport } from './migrate';
export { startEmbeddedPostgres, type EmbeddedDb, type EmbeddedOptions } from './postgres';
export { enqueueJob, releaseQueue, RUN_JOB_TASK } from './queue';
export { createJob, newJobId } from './jobs';
export * from '../generated/prisma/client';
