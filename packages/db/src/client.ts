import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

/** A Prisma client on any PostgreSQL URL, through the pg driver adapter (no engine binary). */
export function createDb(url: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
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
