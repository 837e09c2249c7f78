// A job-wide budget on a target that costs money (Cloud Spanner): what its cells have spent, and the
// cap the next cell gets so that the job as a whole stays inside it.
import { z } from 'zod';
import type { JobBudget } from '../targets/kind';

/**
 * What a job's cells spent on the target so far: operations started, seconds from each cell's start
 * to its end, and sessions their clients created (0 where a job was stored before they were counted).
 */
export const BudgetSpentSchema = z.object({ ops: z.number().int().min(0), seconds: z.number().min(0), sessions: z.number().int().min(0).default(0) });
export type BudgetSpent = z.output<typeof BudgetSpentSchema>;

export const NOTHING_SPENT: BudgetSpent = { ops: 0, seconds: 0, sessions: 0 };

/** A cell's cost cap: operations, ms, and where a budget bounds them, sessions its client may create. */
export interface CellCap {
  ops: number;
  ms: number;
  sessions?: number;
}

/**
 * The next cell's cap: the per-cell cap, lowered to what is left of the budget; or why no cell may
 * start (the budget is spent). Seconds left bound the cell's operations time.
 */
export function capWithinBudget(cap: CellCap, budget: JobBudget, spent: BudgetSpent): CellCap | { spent: string } {
  const left = (limit: number | null, used: number) => (limit === null ? Number.POSITIVE_INFINITY : limit - used);
  const opsLeft = left(budget.ops, spent.ops);
  const secondsLeft = left(budget.seconds, spent.seconds);
  const sessionsLeft = left(budget.sessions, spent.sessions);
  if (opsLeft < 1 || secondsLeft < 1 || sessionsLeft < 1) return { spent: `the job's Cloud Spanner budget is spent (${budgetWords(budget, spent)}): this cell did not run` };
  return { ops: Math.min(cap.ops, opsLeft), ms: Math.min(cap.ms, secondsLeft * 1000), ...(budget.sessions === null ? {} : { sessions: sessionsLeft }) };
}

/** "120 of 150 operations, 14 of 600 s, 3 of 10 sessions": what was spent of each part, bounded or not. */
export function budgetWords(budget: JobBudget, spent: BudgetSpent): string {
  const of = (limit: number | null) => (limit === null ? '' : ` of ${limit}`);
  return [`${spent.ops}${of(budget.ops)} operations`, `${Math.round(spent.seconds)}${of(budget.seconds)} s`, `${spent.sessions}${of(budget.sessions)} sessions created`].join(', ');
}

/**
 * Operations one cell started: its warm-up (all of it unless the cap cut it short), what it measured
 * and what failed; a cell the cap ended spent exactly the cap.
 */
export function opsStarted(r: { count: number; errors: Record<string, number>; capped?: 'ops' | 'time' | 'sessions' }, warmupOps: number, cap: { ops: number }): number {
  if (r.capped === 'ops') return cap.ops;
  const failed = Object.values(r.errors).reduce((a, n) => a + n, 0);
  return Math.min(cap.ops, warmupOps + r.count + failed);
}
