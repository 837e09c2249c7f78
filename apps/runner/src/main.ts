// The runner process: `tsx apps/runner/src/main.ts` with DATABASE_URL set.
// --recover (the embedded start, where this is the only runner): runners registered earlier are gone,
// and their jobs are resumed at once from their first unfinished cell.
import { createDb, failOrphanedJobs, markAllRunnersStopped } from '@scb/db';
import { driverRuntimeOptions } from '@scb/languages';
import { loadPlugins } from '@scb/languages/plugins';
import { env, EnvError, policy, required } from './env';
import { logLine } from './log';
import { registerTargetPlugin, type TargetPlugin } from './targets/index';
import { startRunner } from './worker';

let url: string;
try {
  url = required('DATABASE_URL', 'the runner takes its jobs from that PostgreSQL (`npm start` sets it)');
} catch (e) {
  if (!(e instanceof EnvError)) throw e;
  process.stderr.write(`runner: ${e.message}\n`);
  process.exit(2);
}
try {
  // A plug-in registers its languages and target kinds on import; the runner's side of its kinds is `targetPlugins`.
  for (const m of await loadPlugins(env.SCB_PLUGINS)) for (const p of (m.targetPlugins as TargetPlugin[] | undefined) ?? []) registerTargetPlugin(p);
  // Read now, with the plug-ins' target kinds: a malformed policy stops the runner before it takes a job;
  // so does a driver runtime option a language refuses (SCB_JAVA_DRIVER_OPTIONS, …).
  policy();
  driverRuntimeOptions();
} catch (e) {
  process.stderr.write(`runner: ${(e as Error).message}\n`);
  process.exit(2);
}
const db = createDb(url);
if (process.argv.includes('--recover')) {
  await markAllRunnersStopped(db, 'the embedded start started a new runner');
  const n = await failOrphanedJobs(db);
  if (n) logLine(`marked ${n} job(s) interrupted before runners registered as failed`);
}
// Taken for gone by other runners (a stall longer than the lapse): its job is theirs now. Exit without
// writing anything more; `npm start` starts a new runner.
const runner = await startRunner(db, url, logLine, () => process.exit(3));
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
