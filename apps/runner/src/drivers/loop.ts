import type { Histogram } from 'hdr-histogram-js';
import { encodeHistogram, grpcCodeName, newLatencyHistogram, type DriverCell, type ProgressMessage, type ResultMessage, type TimelinePoint } from '@scb/shared';

export type Operation = () => Promise<unknown>;
type Emit = (m: ProgressMessage | ResultMessage) => void;

/**
 * Closed-loop load: `concurrency` workers each run `op` back to back until the phase's budget
 * (an operation count or a duration) is used up. Language-neutral parts of a driver live here.
 */
export async function runPhases(cell: DriverCell, op: Operation, emit: Emit): Promise<ResultMessage> {
  if (cell.warmupOps > 0) await runPhase('warmup', cell.concurrency, { ops: cell.warmupOps }, op, emit);
  const budget = cell.measuredOps !== undefined ? { ops: cell.measuredOps } : { ms: cell.durationMs! };
  return runPhase('measure', cell.concurrency, budget, op, emit);
}

async function runPhase(
  phase: 'warmup' | 'measure',
  concurrency: number,
  budget: { ops: number } | { ms: number },
  op: Operation,
  emit: Emit,
): Promise<ResultMessage> {
  const all = newLatencyHistogram();
  let second: Histogram = newLatencyHistogram();
  const timeline: TimelinePoint[] = [];
  const errors: Record<string, number> = {};
  let started = 0;
  let done = 0;
  let secondErrors = 0;
  let secondCount = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const total = 'ops' in budget ? budget.ops : undefined;
  const deadline = 'ms' in budget ? t0 + budget.ms : Number.POSITIVE_INFINITY;

  let secondStart = t0;
  const closeSecond = () => {
    const now = performance.now();
    timeline.push({ second: timeline.length + 1, count: secondCount, errors: secondErrors, p99Ms: secondCount ? second.getValueAtPercentile(99) / 1000 : 0, ms: now - secondStart });
    secondStart = now;
    second = newLatencyHistogram();
    secondCount = 0;
    secondErrors = 0;
  };
  const progress = () =>
    emit({ type: 'progress', phase, done, total, elapsedMs: performance.now() - t0, qps: (done * 1000) / Math.max(1, performance.now() - t0) });
  const ticker = setInterval(() => {
    if (phase === 'measure') closeSecond();
    progress();
  }, 1000);

  const worker = async () => {
    for (;;) {
      if (total !== undefined ? started >= total : performance.now() >= deadline) return;
      started++;
      const s = performance.now();
      try {
        await op();
        const us = Math.max(1, Math.round((performance.now() - s) * 1000));
        all.recordValue(us);
        second.recordValue(us);
        secondCount++;
      } catch (e) {
        const name = grpcCodeName((e as { code?: unknown }).code);
        errors[name] = (errors[name] ?? 0) + 1;
        secondErrors++;
      }
      done++;
    }
  };
  progress();
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearInterval(ticker);
  const elapsedMs = performance.now() - t0;
  if (phase === 'measure' && (secondCount > 0 || secondErrors > 0)) closeSecond();
  const cpu = process.cpuUsage(cpu0);
  progress();
  return {
    type: 'result',
    count: all.totalCount,
    errors,
    elapsedMs,
    histogram: encodeHistogram(all),
    timeline,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}
