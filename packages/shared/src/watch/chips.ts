// What a watch shows of a gate and of a release: one state per gate (its chip), one per release (its badge).

/** A gate as a watch shows it. */
export interface ChipGate {
  status: string;
  verdict: string | null;
  installFailure: string | null;
}

export type ChipState = 'pass' | 'fail' | 'inconclusive' | 'queued' | 'running' | 'could not install' | 'canceled';

/** A gate's chip: its verdict, or where its job is; an undecided gate whose versions did not install says so. */
export function chipState(g: ChipGate): ChipState {
  if (g.verdict === 'pass' || g.verdict === 'fail') return g.verdict;
  if (g.installFailure && (g.verdict !== null || g.status === 'failed')) return 'could not install';
  if (g.verdict === 'inconclusive') return 'inconclusive';
  if (g.status === 'queued') return 'queued';
  if (g.status === 'running' || g.status === 'succeeded' || g.status === 'failed') return 'running';
  return 'canceled';
}

/** A release's state over its scenarios: any failure fails it; then what is undecided; pass only when every scenario passed. */
export function releaseState(gates: readonly ChipGate[]): ChipState {
  const states = gates.map(chipState);
  for (const s of ['fail', 'could not install', 'running', 'queued', 'inconclusive', 'canceled'] as const) if (states.includes(s)) return s;
  return states.length ? 'pass' : 'queued';
}

/** The verdicts a watch page filters by. */
export const CHIP_STATES: readonly ChipState[] = ['pass', 'fail', 'inconclusive', 'queued', 'running', 'could not install', 'canceled'];
