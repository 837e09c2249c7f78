import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'prisma/config';

/** The embedded PostgreSQL of `npm start`: its superuser's password is in its data dir (packages/db/src/postgres.ts). */
function embeddedUrl(): string {
  const dataDir = path.resolve(process.env.SCB_DATA_DIR || '.data', 'postgres');
  let password = '';
  try {
    password = readFileSync(path.join(dataDir, 'scb-password'), 'utf8').trim();
  } catch {
    // Not started yet: prisma generate needs no database.
  }
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${process.env.SCB_PG_PORT || 54329}/bench`;
}

// The URL is only needed by `prisma migrate` on machines that have the schema engine;
// our own migrator (packages/db) applies prisma/migrations at start.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? embeddedUrl() },
});
