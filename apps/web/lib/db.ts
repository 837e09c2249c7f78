import { createDb, type Db } from '@scb/db';
import { webEnv } from './env';

const g = globalThis as unknown as { scbDb?: Db };

export function databaseUrl(): string {
  return webEnv().DATABASE_URL;
}

/** One Prisma client per server process; every query goes through @scb/db's functions. */
export function db(): Db {
  g.scbDb ??= createDb(databaseUrl());
  return g.scbDb;
}
