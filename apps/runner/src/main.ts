// The runner process: `tsx apps/runner/src/main.ts` with DATABASE_URL set.
// --recover marks jobs left running by a previous runner as failed (single-runner setups only).
import { createDb } from '@scb/db';
import { logLine } from './log';
import { failOrphanedJobs, startRunner } from './worker';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('runner: DATABASE_URL is not set\n');
  process.exit(2);
}
const db = createDb(url);
if (process.argv.includes('--recover')) {
  const n = await failOrphanedJobs(db);
  if (n) logLine(`marked ${n} job(s) interrupted by an earlier stop as failed`);
}
const runner = await startRunner(db, url, logLine);
logLine('waiting for jobs');

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    await runner.stop().catch(() => {});
    await db.$disconnect().catch(() => {});
    process.exit(0);
  });
}
