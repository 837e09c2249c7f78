import { randomBytes } from 'node:crypto';
import { gateJobSpec, parseJobSpec, planCells, type GateSpec, type JobSpec } from '@scb/shared';
import type { Db } from './client';
import { enqueueJob } from './queue';

/** Short, URL-safe, unguessable enough for a permanent link. */
export function newJobId(): string {
  const alphabet = '0123456789abcdefghijkmnpqrstuvwxyz';
  return [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
}

function jobData(id: string, spec: JobSpec) {
  const cells = planCells(spec).map((p) => ({
    index: p.index,
    clientLanguage: p.client.language,
    clientVersion: p.client.version,
    configLabel: p.configuration.label,
    config: p.configuration,
    concurrency: p.concurrency,
    repeat: p.repeat,
  }));
  return { id, name: spec.name ?? null, spec: spec as object, cellsTotal: cells.length, cells: { create: cells } };
}

/** Stores a validated spec with its planned cells and queues it. */
export async function createJob(db: Db, databaseUrl: string, spec: JobSpec): Promise<string> {
  const id = newJobId();
  await db.job.create({ data: jobData(id, spec) });
  await enqueueJob(databaseUrl, id);
  return id;
}

/** Stores a validated gate with the job that runs it (both or neither) and queues the job. */
export async function createGate(db: Db, databaseUrl: string, gate: GateSpec): Promise<{ id: string; jobId: string }> {
  const spec = parseJobSpec(gateJobSpec(gate));
  if (!spec.ok) throw new Error(`the gate makes an invalid job: ${spec.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const id = newJobId();
  const jobId = newJobId();
  await db.$transaction([db.job.create({ data: jobData(jobId, spec.value) }), db.gate.create({ data: { id, jobId, spec: gate as object } })]);
  await enqueueJob(databaseUrl, jobId);
  return { id, jobId };
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
