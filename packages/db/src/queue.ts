import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import type { Prisma } from '../generated/prisma/client';

/** The graphile-worker task that runs one benchmark job. */
export const RUN_JOB_TASK = 'run_job';

const utilsByUrl = new Map<string, Promise<WorkerUtils>>();

function utils(url: string): Promise<WorkerUtils> {
  let u = utilsByUrl.get(url);
  if (!u) {
    // makeWorkerUtils also installs graphile-worker's schema when it is missing.
    u = makeWorkerUtils({ connectionString: url });
    utilsByUrl.set(url, u);
    u.catch(() => utilsByUrl.delete(url));
  }
  return u;
}

/** Installs graphile-worker's schema where it is missing, so that jobs can be queued with SQL. */
export async function ensureQueue(url: string): Promise<void> {
  await utils(url);
}

/** A release watch's gates wait behind people's jobs: graphile-worker runs lower numbers first (people's are 0). */
export const WATCH_PRIORITY = 10;

/**
 * Queues a job inside the caller's transaction, the one that stores it: a stored queued job is always
 * queued. One attempt only, since a benchmark is not idempotent; the key makes a second add a no-op.
 */
export async function enqueueJobIn(tx: Prisma.TransactionClient, jobId: string, flags: string[], key = `job:${jobId}`, priority = 0): Promise<void> {
  await tx.$queryRaw`SELECT graphile_worker.add_job(${RUN_JOB_TASK}, json_build_object('jobId', ${jobId}::text), max_attempts => 1, job_key => ${key}, flags => ${flags}::text[], job_key_mode => 'preserve_run_at', priority => ${priority}::int)::text`;
}

/** The placement flags of every job waiting in the queue (a runner forbids those it cannot meet). */
export async function queuedFlags(db: { $queryRaw: Prisma.TransactionClient['$queryRaw'] }): Promise<string[]> {
  const rows = await db.$queryRaw<{ flag: string }[]>`SELECT DISTINCT jsonb_object_keys(flags) AS flag FROM graphile_worker.jobs WHERE flags IS NOT NULL AND locked_at IS NULL`;
  return rows.map((r) => r.flag);
}

export async function releaseQueue(): Promise<void> {
  const all = [...utilsByUrl.values()];
  utilsByUrl.clear();
  await Promise.all(all.map(async (u) => (await u.catch(() => undefined))?.release()));
}
