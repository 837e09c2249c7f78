// A job's run time, estimated before it runs: for the launch form and the operator's limit. Each cell
// costs its language's start, its target's set-up, its warm-up and what it measures; an operation takes
// the target's modelled latency (or a nominal one) plus the think time. Installs are not counted.
import { modeledLatencyMs, targetEstimate } from '../targets/index';
import { infoOf } from './languages';
import { cellCount } from './plan';
import { isOpenLoop, loadLevels, opsAt, type JobSpec } from './spec';

type EstimatedSpec = Pick<JobSpec, 'clients' | 'configurations' | 'concurrency' | 'arrivalRates' | 'repeats' | 'pairing' | 'target' | 'timeScale' | 'workload'>;

/** Seconds the job is expected to take on an idle runner, rounded up. */
export function estimateJobSeconds(spec: EstimatedSpec): number {
  const { setupSeconds, operationMs } = targetEstimate(spec.target);
  const perOpMs = (modeledLatencyMs(spec) ?? operationMs) + (spec.workload.thinkTime?.ms ?? 0) * spec.timeScale;
  // An open loop's operations arrive at the level's rate; a closed loop's agents run them `c` at a time.
  const opsSeconds = (ops: number, c: number) => (isOpenLoop(spec) ? ops / c + perOpMs / 1000 : (Math.ceil(ops / c) * perOpMs) / 1000);
  // Per client, every cell of it: cells differ by language and load level only.
  const levels = loadLevels(spec);
  const perClientCells = cellCount({ ...spec, clients: [null] }) / levels.length;
  let seconds = 0;
  for (const client of spec.clients)
    for (const c of levels) {
      const warm = opsSeconds(opsAt(spec.workload.warmupOps, c), c);
      const measure = spec.workload.durationSeconds ?? opsSeconds(opsAt(spec.workload.measuredOps ?? 0, c), c);
      seconds += perClientCells * (infoOf(client.language).cellSeconds + setupSeconds + warm + measure);
    }
  return Math.ceil(seconds);
}
