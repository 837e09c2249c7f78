import { defineConfig } from 'prisma/config';

// The URL is only needed by `prisma migrate` on machines that have the schema engine;
// our own migrator (packages/db) applies prisma/migrations at start.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres:postgres@127.0.0.1:54329/bench' },
});
