import type { Load, OperationMixEntry } from '../protocol';
import { opsAt, type JobSpec } from './spec';

/** A job's workload at one concurrency, as a driver interprets it: the load shape and the operation mix. */
export function driverWorkload(workload: JobSpec['workload'], concurrency: number): { load: Load; operations: OperationMixEntry[] } {
  return {
    load: {
      shape: 'closed',
      concurrency,
      warmupOps: opsAt(workload.warmupOps, concurrency),
      measuredOps: workload.measuredOps === undefined ? undefined : opsAt(workload.measuredOps, concurrency),
      durationMs: workload.durationSeconds === undefined ? undefined : workload.durationSeconds * 1000,
    },
    operations: [{ kind: workload.operation, weight: 1 }],
  };
}
