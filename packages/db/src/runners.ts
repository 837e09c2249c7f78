// Runners: registration, heartbeat, and taking up the jobs of a runner whose heartbeat lapsed. Every
// time is the database's clock (now()), so runners on machines with skewed clocks still agree.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from './client';
import { Prisma, type Runner } from '../generated/prisma/client';
import { parseJobSpec, placementFlags, type RunnerOffer } from '@scb/shared';
import { enqueueJobIn } from './queue';

const { DbNull } = Prisma;

/** What a runner registers: what it can run (placement's RunnerOffer), where, and at which commit. */
export type RunnerInfo = RunnerOffer & { host: string; commit: string | null };

/** Registers a runner; its id is its host name and a random suffix. */
export async function registerRunner(db: Db, info: RunnerInfo): Promise<string> {
  const id = `${info.host}-${randomBytes(4).toString('hex')}`;
  await db.runner.create({ data: { id, ...info } });
  return id;
}

/** The runner is alive, busy with this job and cell (or idle); false when another runner has already taken it for gone. */
export async function heartbeat(db: Db, id: string, busy: { jobId: string; cellIndex: number | null } | null): Promise<boolean> {
  const n = await db.$executeRaw`UPDATE "Runner" SET "heartbeatAt" = now(), "jobId" = ${busy?.jobId ?? null}, "cellIndex" = ${busy?.cellIndex ?? null} WHERE "id" = ${id} AND "stoppedAt" IS NULL`;
  return n > 0;
}

export async function markRunnerStopped(db: Db, id: string, reason: string): Promise<void> {
  await db.$executeRaw`UPDATE "Runner" SET "stoppedAt" = now(), "stopReason" = ${reason}, "jobId" = NULL, "cellIndex" = NULL WHERE "id" = ${id} AND "stoppedAt" IS NULL`;
}

/** Every runner not stopped is taken for gone (the embedded start: its runner is the only one); their jobs are resumed at the next heartbeat. */
export async function markAllRunnersStopped(db: Db, reason: string): Promise<number> {
  return db.$executeRaw`UPDATE "Runner" SET "stoppedAt" = now(), "stopReason" = ${reason} WHERE "stoppedAt" IS NULL`;
}

export type RunnerRow = Omit<Runner, 'languages' | 'targets' | 'labels'> & { languages: string[]; targets: string[]; labels: string[]; alive: boolean; heartbeatAgeMs: number };

/** Every runner, newest first; alive when it has not stopped and its heartbeat is younger than `lapseMs`. */
export async function listRunners(db: Db, lapseMs: number): Promise<RunnerRow[]> {
  const rows = await db.$queryRaw<(Runner & { ageMs: number })[]>`SELECT *, (EXTRACT(EPOCH FROM now() - "heartbeatAt") * 1000)::float8 AS "ageMs" FROM "Runner" ORDER BY "startedAt" DESC LIMIT 200`;
  return rows.map(({ ageMs, ...r }) => ({
    ...r,
    languages: Array.isArray(r.languages) ? (r.languages as string[]) : [],
    targets: Array.isArray(r.targets) ? (r.targets as string[]) : [],
    labels: Array.isArray(r.labels) ? (r.labels as string[]) : [],
    heartbeatAgeMs: ageMs,
    alive: r.stoppedAt === null && ageMs < lapseMs,
  }));
}

/**
 * Marks runners whose heartbeat lapsed as stopped and queues their running jobs again, each once
 * (whichever runner gets there first): finished cells stay as stored, the cell that was running goes
 * back to pending and runs again from scratch. Returns the jobs taken up.
 */
export async function resumeLapsedJobs(db: Db, lapseMs: number): Promise<{ jobId: string; runnerId: string }[]> {
  await db.$executeRaw`
    UPDATE "Runner" SET "stoppedAt" = now(), "stopReason" = 'its heartbeat lapsed'
    WHERE "stoppedAt" IS NULL AND "heartbeatAt" < now() - make_interval(secs => ${lapseMs / 1000}::float8)`;
  // Jobs of every stopped runner, not only those found just now: a runner that found one and died
  // before queueing it again leaves it to the next.
  const orphans = await db.$queryRaw<{ id: string; runnerId: string }[]>`
    SELECT j."id", j."runnerId" FROM "Job" j JOIN "Runner" r ON r."id" = j."runnerId" WHERE j."status" = 'running' AND r."stoppedAt" IS NOT NULL`;
  const resumed: { jobId: string; runnerId: string }[] = [];
  for (const o of orphans) {
    const taken = await db.$transaction(async (tx: Prisma.TransactionClient) => {
      const job = await tx.job.updateMany({ where: { id: o.id, status: 'running', runnerId: o.runnerId }, data: { status: 'queued', runnerId: null, resumes: { increment: 1 } } });
      if (job.count === 0) return false;
      await tx.cell.updateMany({ where: { jobId: o.id, status: 'running' }, data: { status: 'pending', progress: DbNull, startedAt: null } });
      const { resumes, spec } = await tx.job.findUniqueOrThrow({ where: { id: o.id }, select: { resumes: true, spec: true } });
      const parsed = parseJobSpec(spec);
      await enqueueJobIn(tx, o.id, parsed.ok ? placementFlags(parsed.value) : [], `job:${o.id}:resume:${resumes}`);
      return true;
    });
    if (taken) resumed.push({ jobId: o.id, runnerId: o.runnerId });
  }
  return resumed;
}

/**
 * Runs `fn` holding this host's benchmark lock: two runners on one machine never measure at the same
 * time. A PostgreSQL advisory lock on a connection of its own; it goes with the connection if the
 * runner dies.
 */
export async function withHostLock<T>(databaseUrl: string, host: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A database restart ends this session and with it the lock; the job goes on (its writes retry).
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`scb-host:${host}`]);
    return await fn();
  } finally {
    await client.end().catch(() => {});
  }
}
