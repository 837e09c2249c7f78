// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (what `npm start` does itself).
import { migrate } from '@scb/db/setup';
import { env } from './env';

const url = env.DATABASE_URL;
if (!url) {
  console.error('db:migrate: set DATABASE_URL to the database to migrate');
  process.exit(2);
}
try {
  const r = await migrate(url);
  console.log(r.applied.length ? `applied: ${r.applied.join(', ')}` : 'schema is up to date');
} catch (e) {
  console.error(`db:migrate: ${(e as Error).message}`);
  process.exit(1);
}
