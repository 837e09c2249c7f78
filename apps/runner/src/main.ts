// The runner process: `tsx apps/runner/src/main.ts` with DATABASE_URL set.
// --recover marks jobs left running by a previous runner as failed (single-runner setups only).
import { createDb, failOrphanedJobs } from '@scb/db';
import { EnvError, required } from './env';
import { logLine } from './log';
import { startRunner } from './worker';

let url: string;
try {
  url = required('DATABASE_URL', 'the runner takes its jobs from that PostgreSQL (`npm start` sets it)');
} catch (e) {
  if (!(e instanceof EnvError)) throw e;
  process.stderr.write(`runner: ${e.message}\n`);
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
