import type { TimelinePoint } from '../protocol';
import { median } from './stats';

/** The measured phase starts warm when its first second's rate is within this share of the rest's median. */
export const WARM_START_TOLERANCE = 0.1;

export interface WarmStart {
  warm: boolean;
  /** Operations per second in the first full second, and the median of the other full seconds. */
  firstRate: number;
  medianRate: number;
}

/**
 * Whether the warm-up was long enough: a client still ramping up (or bursting) in its first
 * measured second is not yet in the state the rest measures. Needs three full seconds, else null.
 */
export function warmStart(timeline: TimelinePoint[]): WarmStart | null {
  // The last bucket may be partial; a bucket of another length than a second is left out.
  const full = timeline.filter((p) => p.ms === undefined || Math.abs(p.ms - 1000) <= 100).map((p) => (p.count * 1000) / (p.ms ?? 1000));
  if (full.length < 3) return null;
  const [firstRate, ...rest] = full;
  const medianRate = median(rest);
  return { warm: medianRate > 0 && Math.abs(firstRate - medianRate) <= WARM_START_TOLERANCE * medianRate, firstRate, medianRate };
}
