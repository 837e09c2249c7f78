// A runner's presence in the database: registered with what it can run, a heartbeat every few seconds
// naming the job and cell it is busy with, and, on each beat, taking up the jobs of runners whose
// heartbeat lapsed (they died, or lost their machine or network).
import os from 'node:os';
import { heartbeat, markRunnerStopped, registerRunner, resumeLapsedJobs, type Db } from '@scb/db';
import type { RunnerOffer } from '@scb/shared';
import { env } from './env';
import { describeEnvironment } from './environment';
import { availableTargets } from './targets/index';

/** A heartbeat older than this many beats means the runner is gone. */
export const LAPSE_BEATS = 4;

export interface Presence {
  runnerId: string;
  /** What it registered as able to run: jobs whose needs it lacks are left to other runners. */
  offer: RunnerOffer;
  /** What the runner is busy with, for its next heartbeat; null when idle. */
  busy(jobId: string | null, cellIndex?: number | null): void;
  stop(reason: string): Promise<void>;
}

/**
 * `onLost`: this runner's heartbeat lapsed and another runner has taken up its job (a stall longer than
 * the lapse); it must not write to that job again.
 */
export async function startPresence(db: Db, log: (line: string) => void, onLost: () => void, heartbeatMs = env.SCB_HEARTBEAT_MS): Promise<Presence> {
  const e = await describeEnvironment();
  const offer: RunnerOffer = {
    cores: e.cores,
    memoryGiB: e.memoryGiB,
    languages: Object.keys(e.toolchains).filter((l) => e.toolchains[l] !== null),
    targets: availableTargets(),
    labels: env.SCB_RUNNER_LABELS,
  };
  const runnerId = await registerRunner(db, { host: os.hostname(), ...offer, commit: e.commit });
  let current: { jobId: string; cellIndex: number | null } | null = null;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let beating = false;
  const beat = async () => {
    // A slow database must not pile up beats, each holding a connection of the pool the jobs need.
    if (beating) return;
    beating = true;
    try {
      if (!(await heartbeat(db, runnerId, current))) {
        log(`runner ${runnerId}: another runner took this one for gone (its heartbeat lapsed); stopping`);
        clearInterval(timer);
        onLost();
        return;
      }
      for (const r of await resumeLapsedJobs(db, heartbeatMs * LAPSE_BEATS)) log(`job ${r.jobId}: runner ${r.runnerId} stopped heartbeating; queued again from its first unfinished cell`);
      if (failing) log('heartbeat: the database answers again');
      failing = false;
    } catch (err) {
      if (!failing) log(`heartbeat failed (retrying): ${(err as Error).message}`);
      failing = true;
    } finally {
      beating = false;
    }
  };
  await beat();
  timer = setInterval(() => void beat(), heartbeatMs);
  timer.unref();
  log(`registered as runner ${runnerId}`);
  return {
    runnerId,
    offer,
    busy(jobId, cellIndex = null) {
      current = jobId ? { jobId, cellIndex } : null;
    },
    async stop(reason) {
      clearInterval(timer);
      await markRunnerStopped(db, runnerId, reason).catch(() => {});
    },
  };
}
