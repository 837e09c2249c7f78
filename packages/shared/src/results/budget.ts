// A job-wide budget on a target that costs money (Cloud Spanner): what its cells have spent, and the
// cap the next cell gets so that the job as a whole stays inside it.
import { z } from 'zod';
import type { JobBudget } from '../targets/kind';

/** What a job's cells spent on the target so far: operations started, and seconds from each cell's start to its end. */
export const BudgetSpentSchema = z.object({ ops: z.number().int().min(0), seconds: z.number().min(0) });
export type BudgetSpent = z.infer<typeof BudgetSpentSchema>;

export const NOTHING_SPENT: BudgetSpent = { ops: 0, seconds: 0 };

/**
 * The next cell's cap: the per-cell cap, lowered to what is left of the budget; or why no cell may
 * start (the budget is spent). Seconds left bound the cell's operations time.
 */
export function capWithinBudget(cap: { ops: number; ms: number }, budget: JobBudget, spent: BudgetSpent): { ops: number; ms: number } | { spent: string } {
  const opsLeft = budget.ops === null ? Number.POSITIVE_INFINITY : budget.ops - spent.ops;
  const secondsLeft = budget.seconds === null ? Number.POSITIVE_INFINITY : budget.seconds - spent.seconds;
  if (opsLeft < 1 || secondsLeft < 1) return { spent: `the job's Cloud Spanner budget is spent (${budgetWords(budget, spent)}): this cell did not run` };
  return { ops: Math.min(cap.ops, opsLeft), ms: Math.min(cap.ms, secondsLeft * 1000) };
}

/** "120 of 150 operations, 14 of 600 s": each bounded part of the budget with what was spent of it. */
export function budgetWords(budget: JobBudget, spent: BudgetSpent): string {
  return [`${spent.ops}${budget.ops === null ? '' : ` of ${budget.ops}`} operations`, `${Math.round(spent.seconds)}${budget.seconds === null ? '' : ` of ${budget.seconds}`} s`].join(', ');
}

/**
 * Operations one cell started: its warm-up (all of it unless the cap cut it short), what it measured
 * and what failed; a cell the cap ended spent exactly the cap.
 */
export function opsStarted(r: { count: number; errors: Record<string, number>; capped?: 'ops' | 'time' }, warmupOps: number, cap: { ops: number }): number {
  if (r.capped === 'ops') return cap.ops;
  const failed = Object.values(r.errors).reduce((a, n) => a + n, 0);
  return Math.min(cap.ops, warmupOps + r.count + failed);
}
