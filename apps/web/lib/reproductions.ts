// Reproductions as the API and /reproductions show them: each entry with its newest run and that run's expectations.
import { lastReproductionRuns } from '@scb/db';
import { REPRODUCTIONS, reproductionJobSpec } from '@scb/shared/reproductions';
import { gateReproduction } from '@scb/shared/reproduction-gate';
import { db } from './db';
import { getJob, isInvalidJob, jobUrl } from './jobs';

export async function listReproductions(origin: string, filter: { language?: string; status?: string } = {}) {
  const entries = REPRODUCTIONS.filter((r) => (!filter.language || r.language === filter.language) && (!filter.status || r.status === filter.status));
  const last = await lastReproductionRuns(
    db(),
    entries.map((r) => r.id),
  );
  return Promise.all(
    entries.map(async (r) => {
      const jobId = last.get(r.id);
      const job = jobId ? await getJob(jobId) : null;
      const lastRun =
        job && !isInvalidJob(job)
          ? {
              jobId: job.id,
              url: jobUrl(job.id, origin),
              status: job.status,
              createdAt: job.createdAt,
              expectations: job.expectations && { met: job.expectations.met, outcomes: job.expectations.outcomes.map((o) => ({ met: o.met, says: o.expectation.says ?? null, text: o.text })) },
            }
          : null;
      return { ...r, spec: reproductionJobSpec(r), gateable: gateReproduction(r.id) !== undefined, lastRun };
    }),
  );
}

export type ReproductionView = Awaited<ReturnType<typeof listReproductions>>[number];
