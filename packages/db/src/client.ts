import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

/**
 * A Prisma client on any PostgreSQL URL, through the pg driver adapter (no engine binary). A transaction
 * waits up to 10 s for a connection of the pool, not Prisma's 2 s: 50 job POSTs at once on a busy 2-core
 * machine answered 13 of 500 with a 500 (P2028, "Unable to start a transaction in the given time"). It may
 * then run 30 s, not Prisma's 5: a job's creation (the job and its cells) on a starved machine outlasted
 * 5 s, its transaction was rolled back under it and the cells' insert failed on their job's foreign key.
 */
export function createDb(url: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), transactionOptions: { maxWait: 10_000, timeout: 30_000 } });
}

/** Resolves when the database answers a query; rejects with the driver's error otherwise. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}

/** Errors that mean "the database cannot be reached right now" (down, restarting), not "this query is wrong". */
export function isDatabaseUnreachable(e: unknown): boolean {
  const text = `${(e as { code?: string })?.code ?? ''} ${(e as Error)?.message ?? e} ${(e as { cause?: Error })?.cause?.message ?? ''}`;
  return /ECONNREFUSED|ECONNRESET|EPIPE|57P01|57P03|P1001|P1017|Connection terminated|connection (?:is )?closed|server closed the connection|Can't reach database|the database system is (?:starting up|shutting down)|terminating connection/i.test(
    text,
  );
}
