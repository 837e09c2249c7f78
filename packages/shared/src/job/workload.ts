import type { Load, OperationMixEntry } from '../protocol';
import { driverResultSet, type DriverResultSet } from '../result-set/driver';
import { ArrivalsSchema, opsAt, workloadMix, type JobSpec } from './spec';

/**
 * A job's workload at one load level, as a driver interprets it: the load shape and the operation mix.
 * The level is agents (a closed loop) or operations per second (`open`: the spec has arrivalRates). The
 * time scale stretches the agents' think time as it does the target's latencies; a rate stays as given.
 */
export function driverWorkload(workload: JobSpec['workload'], level: number, timeScale = 1, open = false): { load: Load; operations: OperationMixEntry[]; resultSet?: DriverResultSet } {
  const budget = {
    warmupOps: opsAt(workload.warmupOps, level),
    measuredOps: workload.measuredOps === undefined ? undefined : opsAt(workload.measuredOps, level),
    durationMs: workload.durationSeconds === undefined ? undefined : workload.durationSeconds * 1000,
  };
  const operations = workloadMix(workload).map((m) => ({ kind: m.operation, weight: m.weight }));
  const resultSet = workload.resultSet ? { resultSet: driverResultSet(workload.resultSet) } : {};
  if (open) {
    const arrivals = workload.arrivals ?? ArrivalsSchema.parse({});
    return { load: { shape: 'open', ratePerSecond: level, distribution: arrivals.distribution, maxOutstanding: arrivals.maxOutstanding, ...budget }, operations, ...resultSet };
  }
  const think = workload.thinkTime && workload.thinkTime.ms > 0 ? { thinkTime: { ...workload.thinkTime, ms: workload.thinkTime.ms * timeScale } } : {};
  return { load: { shape: 'closed', concurrency: level, ...think, ...budget }, operations, ...resultSet };
}
