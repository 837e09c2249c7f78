import type { TimelinePoint } from '../protocol';
import { median } from './stats';

/** The measured phase starts warm when its first window's rate is within this share of the rest's median. */
export const WARM_START_TOLERANCE = 0.1;

export interface WarmStart {
  warm: boolean;
  /** Operations per second in the first full window, and the median of the other full windows. */
  firstRate: number;
  medianRate: number;
  /** Seconds per window: one, or more where an operation takes so long that a second holds one or two waves of a closed loop. */
  windowSeconds: number;
}

/**
 * Whether the warm-up was long enough: a client still ramping up (or bursting) in its first measured
 * window is not yet in the state the rest measures. Windows are whole seconds, at least twice the p50
 * (loops of 650 ms operations complete in waves: 1 and 2 waves fall in alternate seconds). Needs three
 * full windows, else null. A first window slower than the rest may also lack the share of it that
 * one p50 takes (measured: Go 1.96.1 at 65 ms, 140 vs 150 per second in every quiet cell).
 */
export function warmStart(timeline: TimelinePoint[], p50Ms = 0): WarmStart | null {
  // The last bucket may be partial; a bucket of another length than a second is left out.
  const full = timeline.filter((p) => p.ms === undefined || Math.abs(p.ms - 1000) <= 100).map((p) => (p.count * 1000) / (p.ms ?? 1000));
  const windowSeconds = Math.max(1, Math.ceil((2 * p50Ms) / 1000));
  const windows: number[] = [];
  for (let i = 0; i + windowSeconds <= full.length; i += windowSeconds) windows.push(full.slice(i, i + windowSeconds).reduce((a, b) => a + b, 0) / windowSeconds);
  if (windows.length < 3) return null;
  const [firstRate, ...rest] = windows as [number, ...number[]];
  const medianRate = median(rest);
  // Loops that all start at once complete nothing for one latency: the first window may lack that share.
  const fill = p50Ms / (windowSeconds * 1000);
  const warm = medianRate > 0 && firstRate >= (1 - WARM_START_TOLERANCE - fill) * medianRate && firstRate <= (1 + WARM_START_TOLERANCE) * medianRate;
  return { warm, firstRate, medianRate, windowSeconds };
}
