import { canonicalJson } from '../canonical-json';
import { formatOps } from '../format';
import { describeTarget, normalizeTarget } from '../targets/index';
import { describeOperations, type JobSpec } from './spec';

/**
 * What makes two cells comparable apart from client, version and configuration: the target and its
 * behaviour, the workload, the time scale. Concurrency and repeats are per cell, so not part of it.
 * Its short stable id, for URLs, is scenarioKey (scenario-key.ts: it needs Node's crypto).
 */
export function scenarioOf(spec: JobSpec): { target: JobSpec['target']; workload: JobSpec['workload']; timeScale: number } {
  return { target: normalizeTarget(spec.target), workload: spec.workload, timeScale: spec.timeScale };
}

/** The scenario in words. */
export function scenarioLabel(spec: JobSpec): string {
  const w = spec.workload;
  const measured = w.durationSeconds !== undefined ? `${w.durationSeconds} s` : `${formatOps(w.measuredOps!)} ops`;
  return `${describeOperations(w)}, ${describeTarget(spec)}, warm-up ${formatOps(w.warmupOps)}, ${measured}`;
}

/** The fields in which two scenarios differ (dotted paths), empty when they are the same. */
export function scenarioDifferences(a: JobSpec, b: JobSpec): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string) => {
    if (canonicalJson(x) === canonicalJson(y)) return;
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk((x as never)[k], (y as never)[k], path ? `${path}.${k}` : k);
    } else out.push(path);
  };
  walk(scenarioOf(a), scenarioOf(b), '');
  return out;
}
