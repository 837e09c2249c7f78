// Stopping a running job: on a cancel request (polled in the database) or when the runner shuts down.
import { isCancelRequested, type Db } from '@scb/db';

export type StopReason = 'cancel' | 'shutdown';

export interface StopWatch {
  /** Aborts (killing the running cell's driver) on a cancel request or a shutdown. */
  signal: AbortSignal;
  /** Why it stopped, or null while it has not. */
  reason(): StopReason | null;
  /** Stops polling and listening; call once the job's cells are done. */
  dispose(): void;
}

/** Watches one job: polls its cancel request every `pollMs`, and follows the runner's shutdown signal. */
export function watchForStop(db: Db, jobId: string, shutdown?: AbortSignal, pollMs = 1000): StopWatch {
  const stop = new AbortController();
  const onShutdown = () => stop.abort('shutdown' satisfies StopReason);
  shutdown?.addEventListener('abort', onShutdown, { once: true });
  if (shutdown?.aborted) onShutdown();
  const poll = setInterval(async () => {
    if (await isCancelRequested(db, jobId).catch(() => false)) stop.abort('cancel' satisfies StopReason);
  }, pollMs);
  return {
    signal: stop.signal,
    reason: () => (stop.signal.aborted ? (stop.signal.reason as StopReason) : null),
    dispose() {
      clearInterval(poll);
      shutdown?.removeEventListener('abort', onShutdown);
    },
  };
}
