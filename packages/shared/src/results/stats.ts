import * as hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';

/** Latencies are recorded in microseconds, 1 us .. 1 h, 3 significant digits (Java side: same). */
export function newLatencyHistogram(): Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
}

export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decodeHistogram(base64: string): Histogram {
  return hdr.decodeFromCompressedBase64(base64);
}

export interface LatencySummary {
  count: number;
  qps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** Percentiles of a microsecond histogram in ms, and throughput over the measured wall time. */
export function summarize(h: Histogram, elapsedMs: number): LatencySummary {
  const ms = (p: number) => (h.totalCount === 0 ? 0 : h.getValueAtPercentile(p) / 1000);
  return {
    count: h.totalCount,
    qps: throughput(h.totalCount, elapsedMs),
    p50Ms: ms(50),
    p90Ms: ms(90),
    p99Ms: ms(99),
    p999Ms: ms(99.9),
    maxMs: h.totalCount === 0 ? 0 : h.maxValue / 1000,
  };
}

export function throughput(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (count * 1000) / elapsedMs : 0;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The numbers of one repeat of a cell that tables and comparisons summarize. */
export interface RepeatResult {
  qps: number;
  p50Ms: number;
  p99Ms: number;
}

/** Medians over repeats, with the qps range. */
export interface RepeatsSummary extends RepeatResult {
  /** Repeats summarized (those with a result). */
  repeats: number;
  qpsMin: number;
  qpsMax: number;
}

/**
 * Medians of qps, p50 and p99 over the repeats that produced a result, and the range of qps. With
 * none, the medians are NaN and the range is [Infinity, -Infinity]: check `repeats` first.
 */
export function medianOverRepeats(results: RepeatResult[]): RepeatsSummary {
  const qps = results.map((r) => r.qps);
  return {
    qps: median(qps),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    repeats: results.length,
    qpsMin: Math.min(...qps),
    qpsMax: Math.max(...qps),
  };
}
