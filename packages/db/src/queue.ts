import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';

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

/** Queues a stored job for the runners; one attempt only, since a benchmark is not idempotent. */
export async function enqueueJob(url: string, jobId: string): Promise<void> {
  await (await utils(url)).addJob(RUN_JOB_TASK, { jobId }, { maxAttempts: 1, jobKey: `job:${jobId}` });
}

export async function releaseQueue(): Promise<void> {
  const all = [...utilsByUrl.values()];
  utilsByUrl.clear();
  await Promise.all(all.map(async (u) => (await u.catch(() => undefined))?.release()));
}
