// What a watch shows of a gate and of a release: one state per gate (its chip), one per release (its badge).

/** A gate as a watch shows it. */
export interface ChipGate {
  status: string;
  verdict: string | null;
  installFailure: string | null;
  /** A pass whose candidate keeps its predecessor's bad mode, no more often (GateEvaluation.persisting). */
  persisting?: boolean;
}

/**
 * 'persisting': the gate passed (its stored verdict is pass: CI exits 0), but the release keeps a bad mode
 * its predecessor has, as often: a regression that persists, not a new failure of this release.
 */
export type ChipState = 'pass' | 'persisting' | 'fail' | 'inconclusive' | 'queued' | 'running' | 'could not install' | 'canceled';

/** A gate's chip: its verdict, or where its job is; an undecided gate whose versions did not install says so. */
export function chipState(g: ChipGate): ChipState {
  if (g.verdict === 'pass') return g.persisting ? 'persisting' : 'pass';
  if (g.verdict === 'fail') return g.verdict;
  if (g.installFailure && (g.verdict !== null || g.status === 'failed')) return 'could not install';
  if (g.verdict === 'inconclusive') return 'inconclusive';
  if (g.status === 'queued') return 'queued';
  if (g.status === 'running' || g.status === 'succeeded' || g.status === 'failed') return 'running';
  return 'canceled';
}

/**
 * A release's state over its scenarios: any failure fails it; then what is undecided; then persisting
 * when every scenario passed and one keeps its predecessor's bad mode; pass only when every scenario passed clean.
 */
export function releaseState(gates: readonly ChipGate[]): ChipState {
  const states = gates.map(chipState);
  for (const s of ['fail', 'could not install', 'running', 'queued', 'inconclusive', 'canceled', 'persisting'] as const) if (states.includes(s)) return s;
  return states.length ? 'pass' : 'queued';
}

/** The verdicts a watch page filters by. */
export const CHIP_STATES: readonly ChipState[] = ['pass', 'persisting', 'fail', 'inconclusive', 'queued', 'running', 'could not install', 'canceled'];
