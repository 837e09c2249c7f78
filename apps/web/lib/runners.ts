import { listRunners as readRunners, type RunnerRow } from '@scb/db';
import { db } from './db';
import { webEnv } from './env';

/**
 * A runner as GET /api/runners answers and /runners shows it. `emulator` and `spanner` are what the API
 * answered before `targets` (whether the runner offers those kinds), kept for the tools that read them.
 */
export type RunnerView = Omit<RunnerRow, 'startedAt' | 'heartbeatAt' | 'stoppedAt'> & { startedAt: string; heartbeatAt: string; stoppedAt: string | null; emulator: boolean; spanner: boolean };

/** Runners, newest first; alive while their heartbeat is younger than 4 beats (SCB_HEARTBEAT_MS, as the runners use). */
export async function listRunners(): Promise<RunnerView[]> {
  const rows = await readRunners(db(), webEnv().SCB_HEARTBEAT_MS * 4);
  return rows.map((r) => ({
    ...r,
    emulator: r.targets.includes('emulator'),
    spanner: r.targets.includes('spanner'),
    startedAt: r.startedAt.toISOString(),
    heartbeatAt: r.heartbeatAt.toISOString(),
    stoppedAt: r.stoppedAt?.toISOString() ?? null,
  }));
}
