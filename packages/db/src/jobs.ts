import { randomBytes } from 'node:crypto';
import { planCells, type JobSpec } from '@scb/shared';
import type { Db } from './client';
import { enqueueJob } from './queue';

/** Short, URL-safe, unguessable enough for a permanent link. */
export function newJobId(): string {
  const alphabet = '0123456789abcdefghijkmnpqrstuvwxyz';
  return [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Stores a validated spec with its planned cells and queues it. */
export async function createJob(db: Db, databaseUrl: string, spec: JobSpec): Promise<string> {
  const id = newJobId();
  const cells = planCells(spec).map((p) => ({
    index: p.index,
    clientLanguage: p.client.language,
    clientVersion: p.client.version,
    configLabel: p.configuration.label,
    config: p.configuration,
    concurrency: p.concurrency,
    repeat: p.repeat,
  }));
  await db.job.create({
    data: { id, name: spec.name ?? null, spec: spec as object, cellsTotal: cells.length, cells: { create: cells } },
  });
  await enqueueJob(databaseUrl, id);
  return id;
}

export type CancelOutcome = 'cancelled' | 'requested' | 'finished' | 'not-found';

/**
 * Cancels a job: a queued one at once (the runner skips it), a running one by request (the runner
 * stops its driver within a second or two and keeps the finished cells).
 */
export async function cancelJob(db: Db, id: string): Promise<CancelOutcome> {
  const queued = await db.job.updateMany({ where: { id, status: 'queued' }, data: { status: 'cancelled', finishedAt: new Date(), error: 'cancelled before it started', cancelRequested: true } });
  if (queued.count) {
    await db.cell.updateMany({ where: { jobId: id }, data: { status: 'cancelled' } });
    return 'cancelled';
  }
  const running = await db.job.updateMany({ where: { id, status: 'running' }, data: { cancelRequested: true } });
  if (running.count) return 'requested';
  return (await db.job.count({ where: { id } })) ? 'finished' : 'not-found';
}
