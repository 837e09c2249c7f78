import { Logger, run, type Runner } from 'graphile-worker';
import { RUN_JOB_TASK, type Db } from '@scb/db';
import { evaluateGateOfJob, evaluatePendingGates } from './gate';
import { runJob } from './job';

export interface RunnerHandle {
  stop(): Promise<void>;
}

/**
 * Takes queued jobs from PostgreSQL (graphile-worker) one at a time: benchmarks on one machine
 * must never overlap.
 */
export async function startRunner(db: Db, databaseUrl: string, log: (line: string) => void): Promise<RunnerHandle> {
  const abort = new AbortController();
  await evaluatePendingGates(db, log);
  const runner: Runner = await run({
    connectionString: databaseUrl,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: 1000,
    // Only graphile-worker's warnings and errors: our own lines tell job and cell events.
    logger: new Logger(() => (level, message) => {
      if (level === 'error' || level === 'warning') log(`queue ${level}: ${message}`);
    }),
    taskList: {
      [RUN_JOB_TASK]: async (payload) => {
        const { jobId } = payload as { jobId: string };
        try {
          await runJob(db, jobId, { log, signal: abort.signal });
        } finally {
          await evaluateGateOfJob(db, jobId, log).catch((e) => log(`gate of job ${jobId}: evaluation failed: ${(e as Error).message}`));
        }
      },
    },
  });
  return {
    async stop() {
      abort.abort();
      await runner.stop();
    },
  };
}
