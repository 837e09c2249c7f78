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
