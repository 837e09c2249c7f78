import { Logger, run, type Runner } from 'graphile-worker';
import os from 'node:os';
import { DELIVER_WEBHOOK_TASK, handBackJob, pollWatches, queuedFlags, queuedJobFlags, RUN_JOB_TASK, withHostLock, type Db } from '@scb/db';
import { installedDrivers, publishDates, publishedVersions, trimClientCache } from '@scb/languages';
import { missingFor } from '@scb/shared';
import { env } from './env';
import { evaluateGateOfJob, evaluatePendingGates } from './gate';
import { runJob } from './job';
import { startPresence } from './presence';
import { CACHE_DIR } from './paths';
import { deliverWebhook } from './webhook';

/** graphile-worker's task that polls every release watch (packages/db pollWatches). */
export const POLL_WATCHES_TASK = 'poll_watches';

export interface RunnerHandle {
  runnerId: string;
  stop(): Promise<void>;
}

/**
 * Takes queued jobs from PostgreSQL (graphile-worker) one at a time: benchmarks on one machine
 * must never overlap.
 */
/** `onLost`: called when other runners took this one for gone; the process must stop writing (main.ts exits). */
export async function startRunner(db: Db, databaseUrl: string, log: (line: string) => void, onLost: () => void = () => {}): Promise<RunnerHandle> {
  const abort = new AbortController();
  const presence = await startPresence(db, log, onLost);
  const machine = env.SCB_MACHINE ?? os.hostname();
  await evaluatePendingGates(db, log);
  const runner: Runner = await run({
    connectionString: databaseUrl,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: 1000,
    // Jobs needing what this runner lacks (a toolchain, the emulator, cores, a label) are left to others.
    forbiddenFlags: async () => (await queuedFlags(db).catch(() => [])).filter((f) => missingFor(f, presence.offer) !== null),
    logger: queueLogger(log),
    taskList: {
      [RUN_JOB_TASK]: async (payload) => {
        const { jobId } = payload as { jobId: string };
        const flags = await queuedJobFlags(db, jobId);
        const lacking = (flags ?? []).map((f) => missingFor(f, presence.offer)).filter((m) => m !== null);
        if (flags && lacking.length) {
          await handBackJob(db, jobId, flags);
          return log(`job ${jobId}: this runner lacks ${lacking.join(', ')}; handed back to the queue`);
        }
        try {
          // Two runners on one machine never measure at once; the cache is trimmed while none installs,
          // after a job that installed a client version (walking a few GB of cache takes about a second of
          // CPU: a job whose versions were all installed leaves the cache as it was).
          await withHostLock(databaseUrl, machine, async () => {
            const before = installedDrivers();
            try {
              await runJob(db, jobId, { log, signal: abort.signal, presence });
            } finally {
              if (installedDrivers() !== before) trimCache(log);
            }
          });
        } finally {
          presence.busy(null);
          await evaluateGateOfJob(db, jobId, log).catch((e) => log(`gate of job ${jobId}: evaluation failed: ${(e as Error).message}`));
        }
      },
    },
  });
  const side = await startSideWorker(db, databaseUrl, log);
  return {
    runnerId: presence.runnerId,
    async stop() {
      abort.abort();
      await Promise.all([runner.stop(), side.stop()]);
      await presence.stop('stopped');
    },
  };
}

/**
 * Release watches' small tasks, beside the benchmark jobs so an hour-long job never holds them up:
 * polling the registries on the operator's schedule (each time once, whichever runner takes it) and
 * delivering verdicts to webhooks. graphile-worker hands a worker only the tasks it lists.
 */
export function startSideWorker(db: Db, databaseUrl: string, log: (line: string) => void): Promise<Runner> {
  return run({
    connectionString: databaseUrl,
    concurrency: 1,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: queueLogger(log),
    ...(env.SCB_WATCH_POLL !== 'off' && { crontab: `${env.SCB_WATCH_POLL} ${POLL_WATCHES_TASK}` }),
    taskList: {
      [POLL_WATCHES_TASK]: async () => {
        const registry = { list: (language: string) => publishedVersions(language, { fresh: true }), dates: publishDates };
        for (const p of await pollWatches(db, databaseUrl, registry)) {
          if (p.error) log(`watch ${p.watchId}: the registry could not be read: ${p.error}`);
          for (const q of p.queued) log(`watch ${p.watchId}: ${q.version} vs ${q.predecessor} on ${q.scenario}: gate ${q.gateId} queued`);
          if (p.deferred) log(`watch ${p.watchId}: ${p.deferred} gates wait for a later poll: its creator has as many jobs queued or running as the watch may (SCB_MAX_QUEUED_JOBS)`);
        }
      },
      [DELIVER_WEBHOOK_TASK]: async (payload) => deliverWebhook(db, (payload as { deliveryId: string }).deliveryId, log),
    },
  });
}

/** Only graphile-worker's warnings and errors: our own lines tell job and cell events. */
function queueLogger(log: (line: string) => void): Logger {
  return new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') log(`queue ${level}: ${message}`);
  });
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;

/** Keeps the install cache under SCB_CACHE_MAX_GB, saying what it removed. */
function trimCache(log: (line: string) => void): void {
  try {
    const t = trimClientCache(CACHE_DIR, env.SCB_CACHE_MAX_GB * 1e9);
    if (t.removed.length) log(`install cache was ${gb(t.bytesBefore)}, over SCB_CACHE_MAX_GB=${env.SCB_CACHE_MAX_GB}: removed ${t.removed.map((e) => e.name).join(', ')}; now ${gb(t.bytesAfter)}`);
  } catch (e) {
    log(`install cache: could not trim it: ${(e as Error).message}`);
  }
}
