import type { Load, OperationMixEntry } from '../protocol';
import { opsAt, workloadMix, type JobSpec } from './spec';

/**
 * A job's workload at one concurrency, as a driver interprets it: the load shape and the operation mix.
 * The time scale stretches the agents' think time as it does the target's latencies.
 */
export function driverWorkload(workload: JobSpec['workload'], concurrency: number, timeScale = 1): { load: Load; operations: OperationMixEntry[] } {
  const think = workload.thinkTime && workload.thinkTime.ms > 0 ? { thinkTime: { ...workload.thinkTime, ms: workload.thinkTime.ms * timeScale } } : {};
  return {
    load: {
      shape: 'closed',
      concurrency,
      ...think,
      warmupOps: opsAt(workload.warmupOps, concurrency),
      measuredOps: workload.measuredOps === undefined ? undefined : opsAt(workload.measuredOps, concurrency),
      durationMs: workload.durationSeconds === undefined ? undefined : workload.durationSeconds * 1000,
    },
    operations: workloadMix(workload).map((m) => ({ kind: m.operation, weight: m.weight })),
  };
}
