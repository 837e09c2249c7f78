// `npm run db:rebuild-summaries`: rebuilds the across-versions summary (TrendScenario, TrendPoint) of
// DATABASE_URL from the stored cell results, which never change. The migrator does it once when it
// creates the tables; run it after restoring or editing results by hand. Cells stored meanwhile wait
// for it (it locks the summary tables for its one transaction).
import { createDb, rebuildTrendSummaries } from '@scb/db';
import { env } from './env';

const url = env.DATABASE_URL;
if (!url) {
  console.error('db:rebuild-summaries: set DATABASE_URL to the database whose summaries to rebuild');
  process.exit(2);
}
const db = createDb(url);
const started = performance.now();
try {
  const r = await rebuildTrendSummaries(db);
  console.log(`rebuilt from ${r.cells} succeeded cells: ${r.scenarios} scenario rows, ${r.points} points in ${Math.round(performance.now() - started)} ms`);
} catch (e) {
  console.error(`db:rebuild-summaries: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
