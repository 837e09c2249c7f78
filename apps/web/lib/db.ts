import { createDb, type Db } from '@scb/db';

const g = globalThis as unknown as { scbDb?: Db };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start`, which sets it');
  return url;
}

/** One Prisma client per server process. */
export function db(): Db {
  g.scbDb ??= createDb(databaseUrl());
  return g.scbDb;
}
