import { createHash } from 'node:crypto';
import type { JobSpec } from './spec';
import { describeTarget, normalizeTarget } from './targets/index';
import { formatOps } from './table';

/**
 * What makes two cells comparable apart from client, version and configuration: the target and its
 * behaviour, the workload, the time scale. Concurrency and repeats are per cell, so not part of it.
 */
export function scenarioOf(spec: JobSpec): { target: JobSpec['target']; workload: JobSpec['workload']; timeScale: number } {
  return { target: normalizeTarget(spec.target), workload: spec.workload, timeScale: spec.timeScale };
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** A short stable id of the scenario, for URLs (/versions?scenario=...). */
export function scenarioKey(spec: JobSpec): string {
  return createHash('sha256').update(canonical(scenarioOf(spec))).digest('hex').slice(0, 12);
}

/** The scenario in words. */
export function scenarioLabel(spec: JobSpec): string {
  const w = spec.workload;
  const measured = w.durationSeconds !== undefined ? `${w.durationSeconds} s` : `${formatOps(w.measuredOps!)} ops`;
  return `${w.operation}, ${describeTarget(spec)}, warm-up ${formatOps(w.warmupOps)}, ${measured}`;
}

/** The fields in which two scenarios differ (dotted paths), empty when they are the same. */
export function scenarioDifferences(a: JobSpec, b: JobSpec): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string) => {
    if (canonical(x) === canonical(y)) return;
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) walk((x as never)[k], (y as never)[k], path ? `${path}.${k}` : k);
    } else out.push(path);
  };
  walk(scenarioOf(a), scenarioOf(b), '');
  return out;
}
