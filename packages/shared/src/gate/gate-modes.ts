/**
 * Bimodal outcomes: a scenario whose repeats either collapse or do not (the affinity burst) is judged by
 * how often the bad mode occurs in each arm, with an exact test on the two counts, not by a threshold on
 * the worst repeat. Also: the power of that test, and the fewest repeats that reach a stated power.
 *
 * The test is Boschloo's exact unconditional test, one-sided (H0: the candidate's rate of the bad mode is
 * at most the baseline's; H1: it is higher). Its statistic is Fisher's one-sided p-value; its p-value is
 * the largest probability, over every common rate π of both arms, of a table at least as extreme. It
 * keeps the false-alarm rate at or below α for every π (it is exact) and is uniformly more powerful than
 * Fisher's test, which conditions on the total number of bad repeats and so wastes power on small counts
 * (1 of 27 against 6 of 27: Fisher p = 0.050, Boschloo p = 0.031; both match scipy.stats).
 */
import type { Verdict } from './gate-verdict';

/** A cell as a mode's classifier reads it: its connections, as counted (results/channels.ts). */
export interface ModeCell {
  channels: { source: string; rpcs: number; peakInFlight: number }[];
}

/**
 * A bimodal outcome per repeat: each repeat is in the bad mode or not, and the gate compares how often
 * (this file) instead of judging the worst repeat. A scenario declares it (gate.ts, GateScenario.mode).
 */
export interface GateMode {
  /** The bad mode as a verb in the past: "collapsed". */
  bad: string;
  /** One repeat in words: "cold start". */
  repeatNoun: string;
  /** The classifier in words, for the gate page and docs/gates.md. */
  rule: string;
  /** Whether a repeat was in the bad mode; null when its cell cannot tell (no connection counts). */
  classify: (cell: ModeCell) => boolean | null;
  /** The change the scenario's default repeats are chosen to detect (and the assumed rates' source). */
  detect: ModeDetection & { source: string };
  /** The reproduction that shows the bad mode, named in the verdict's reason. */
  reproduction?: string;
}

/** ln(n!) for the small counts of a gate (repeats ≤ 50 a side, so n ≤ 100), exact by summation. */
const LOG_FACTORIAL: number[] = [0];
function logFactorial(n: number): number {
  for (let i = LOG_FACTORIAL.length; i <= n; i++) LOG_FACTORIAL[i] = LOG_FACTORIAL[i - 1] + Math.log(i);
  return LOG_FACTORIAL[n];
}
const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);

/** A count of the bad mode in one arm: `bad` of `of` repeats. */
export interface ModeCount {
  bad: number;
  of: number;
}

function checkCounts(b: ModeCount, c: ModeCount): void {
  for (const [name, x] of [
    ['baseline', b],
    ['candidate', c],
  ] as const)
    if (!Number.isInteger(x.bad) || !Number.isInteger(x.of) || x.bad < 0 || x.of < 0 || x.bad > x.of) throw new RangeError(`${name}: ${x.bad} of ${x.of} is not a count (whole numbers, 0 ≤ bad ≤ of)`);
}

/**
 * Fisher's exact test, one-sided: P(candidate's count ≥ observed | both arms' total), the hypergeometric
 * upper tail. 1 when either arm has no repeats.
 */
export function fisherOneSided(baseline: ModeCount, candidate: ModeCount): number {
  checkCounts(baseline, candidate);
  const total = baseline.bad + candidate.bad;
  const n = baseline.of + candidate.of;
  if (!baseline.of || !candidate.of) return 1;
  const lo = Math.max(0, total - baseline.of);
  const hi = Math.min(total, candidate.of);
  let p = 0;
  for (let k = Math.max(candidate.bad, lo); k <= hi; k++) p += Math.exp(logChoose(candidate.of, k) + logChoose(baseline.of, total - k) - logChoose(n, total));
  return Math.min(1, p);
}

/** Every table of a design (nb, nc): its Fisher statistic, and the binomial log-coefficients. */
interface Design {
  nb: number;
  nc: number;
  /** stat[xb * (nc + 1) + xc]: Fisher's one-sided p of xb of nb against xc of nc. */
  stat: Float64Array;
}
const designs = new Map<string, Design>();
function design(nb: number, nc: number): Design {
  const key = `${nb}/${nc}`;
  let d = designs.get(key);
  if (!d) {
    const stat = new Float64Array((nb + 1) * (nc + 1));
    for (let xb = 0; xb <= nb; xb++) for (let xc = 0; xc <= nc; xc++) stat[xb * (nc + 1) + xc] = fisherOneSided({ bad: xb, of: nb }, { bad: xc, of: nc });
    d = { nb, nc, stat };
    designs.set(key, d);
  }
  return d;
}

/** Relative tolerance for "as extreme": Fisher statistics that are equal in exact arithmetic may differ in the last bits. */
const TIE = 1 + 1e-9;

function binomialPmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  if (p <= 0) out[0] = 1;
  else if (p >= 1) out[n] = 1;
  else for (let k = 0; k <= n; k++) out[k] = Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
  return out;
}

/** P_π(the table's statistic ≤ t) with both arms at rate π: the probability of a table at least as extreme. */
function tailAt(d: Design, threshold: number, pi: number): number {
  const pb = binomialPmf(d.nb, pi);
  const pc = binomialPmf(d.nc, pi);
  let s = 0;
  for (let xb = 0; xb <= d.nb; xb++) for (let xc = 0; xc <= d.nc; xc++) if (d.stat[xb * (d.nc + 1) + xc] <= threshold) s += pb[xb] * pc[xc];
  return s;
}

/** The largest of f on [0, 1]: a grid of 200 steps, then golden-section search around the grid's best point. */
function supremum(f: (pi: number) => number): number {
  const steps = 200;
  let best = 0;
  let at = 0;
  for (let i = 0; i <= steps; i++) {
    const v = f(i / steps);
    if (v > best) [best, at] = [v, i];
  }
  let lo = Math.max(0, (at - 1) / steps);
  let hi = Math.min(1, (at + 1) / steps);
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const a = hi - g * (hi - lo);
    const b = lo + g * (hi - lo);
    if (f(a) > f(b)) hi = b;
    else lo = a;
  }
  return Math.max(best, f((lo + hi) / 2));
}

/**
 * Boschloo's exact test, one-sided (the candidate's bad mode more frequent than the baseline's): the
 * largest, over the common rate π, of the probability of a table whose Fisher statistic is at most the
 * observed one.
 */
export function boschlooOneSided(baseline: ModeCount, candidate: ModeCount): number {
  checkCounts(baseline, candidate);
  if (!baseline.of || !candidate.of) return 1;
  const d = design(baseline.of, candidate.of);
  const t = d.stat[baseline.bad * (d.nc + 1) + candidate.bad] * TIE;
  return Math.min(
    1,
    supremum((pi) => tailAt(d, t, pi)),
  );
}

/**
 * The tables (xb, xc) that Boschloo's one-sided test rejects at level α in a design: those whose Fisher
 * statistic is at most the largest threshold t with sup over π of P_π(statistic ≤ t) ≤ α (that tail grows
 * with t, so a binary search over the design's statistics finds it).
 */
export function rejectionRegion(nb: number, nc: number, alpha: number): { xb: number; xc: number }[] {
  const d = design(nb, nc);
  const sorted = [...new Set(d.stat)].sort((a, b) => a - b);
  let lo = -1; // the index of the largest statistic known to reject (-1: none)
  let hi = sorted.length; // the smallest known not to
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const t = sorted[mid] * TIE;
    if (supremum((pi) => tailAt(d, t, pi)) <= alpha) lo = mid;
    else hi = mid;
  }
  const out: { xb: number; xc: number }[] = [];
  if (lo < 0) return out;
  const t = sorted[lo] * TIE;
  for (let xb = 0; xb <= nb; xb++) for (let xc = 0; xc <= nc; xc++) if (d.stat[xb * (nc + 1) + xc] <= t) out.push({ xb, xc });
  return out;
}

const regions = new Map<string, { xb: number; xc: number }[]>();
function region(nb: number, nc: number, alpha: number) {
  const key = `${nb}/${nc}/${alpha}`;
  let r = regions.get(key);
  if (!r) {
    r = rejectionRegion(nb, nc, alpha);
    regions.set(key, r);
  }
  return r;
}

/** The probability that the test rejects when the arms' true rates are `baselineRate` and `candidateRate`. */
export function rejectionRate(o: { baselineRepeats: number; candidateRepeats: number; baselineRate: number; candidateRate: number; alpha: number }): number {
  const pb = binomialPmf(o.baselineRepeats, o.baselineRate);
  const pc = binomialPmf(o.candidateRepeats, o.candidateRate);
  return region(o.baselineRepeats, o.candidateRepeats, o.alpha).reduce((s, { xb, xc }) => s + pb[xb] * pc[xc], 0);
}

/** The test's false-alarm rate at its worst common rate: at most α by construction (the test is exact). */
export function worstFalseAlarmRate(o: { baselineRepeats: number; candidateRepeats: number; alpha: number }): number {
  return supremum((pi) => rejectionRate({ ...o, baselineRate: pi, candidateRate: pi }));
}

/** What a mode test should detect, and how surely: the bad mode's rate in each arm, the power at false-alarm rate α. */
export interface ModeDetection {
  baselineRate: number;
  candidateRate: number;
  alpha: number;
  power: number;
}

/**
 * The fewest repeats per arm (equal arms, from `from` up to `max`) at which the test detects the stated
 * change with at least the stated power; null when even `max` is too few.
 */
export function repeatsForModePower(d: ModeDetection, { from = 3, max = 50 }: { from?: number; max?: number } = {}): number | null {
  for (let n = from; n <= max; n++) if (rejectionRate({ baselineRepeats: n, candidateRepeats: n, baselineRate: d.baselineRate, candidateRate: d.candidateRate, alpha: d.alpha }) >= d.power) return n;
  return null;
}

/** The standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), not ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628274631];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const dd = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lowTail = 0.02425;
  if (p < lowTail) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((dd[0] * q + dd[1]) * q + dd[2]) * q + dd[3]) * q + 1);
  }
  if (p > 1 - lowTail) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * The fewest repeats per arm for the median test of a metric whose per-repeat values vary with a
 * coefficient of variation `cvPct` (from a calibration's A/A runs) to detect a change of `changePct` with
 * the stated power at a one-sided false-alarm rate α: the normal approximation of the log-ratio of two
 * medians, whose variance is π/2 times that of the means (the median's efficiency on normal data),
 * n = 2 · (π/2) · ((z(1−α) + z(power)) · cv / change)², and never fewer than 3.
 */
export function repeatsForMedianPower(o: { cvPct: number; changePct: number; alpha: number; power: number }): number {
  if (!(o.cvPct >= 0) || !(o.changePct > 0)) throw new RangeError('repeatsForMedianPower: cvPct must be ≥ 0 and changePct > 0');
  const z = normalQuantile(1 - o.alpha) + normalQuantile(o.power);
  const sigma = Math.log1p(o.cvPct / 100);
  const delta = Math.log1p(o.changePct / 100);
  return Math.max(3, Math.ceil(2 * (Math.PI / 2) * ((z * sigma) / delta) ** 2));
}

/** The mode judgement of one load level, as the gate stores it (GateEvaluation.modes). */
export interface ModeJudgement {
  concurrency: number;
  /** The bad mode ("collapsed") and a repeat ("cold start"). */
  bad: string;
  repeatNoun: string;
  baseline: ModeCount;
  candidate: ModeCount;
  /** Repeats whose cell could not be classified (no connection counts): left out of the counts. */
  unclassified: number;
  test: 'boschloo-one-sided';
  /** The test's p-value, and the level it was held to after the correction for the gate's tests (gate-stats.ts). */
  pValue: number;
  level: number;
  verdict: Verdict;
  /** Both arms show the bad mode and the candidate no more often: a regression that persists, not a new one. */
  persisting: boolean;
  /** The test's power at these counts and level for the asked change, and the repeats per arm it needs. */
  power: { baselineRate: number; candidateRate: number; target: number; power: number; needed: number | null };
  reason: string;
  /** Set when the repeats are too few to detect the asked change with the target power. */
  powerNote: string | null;
}

export interface JudgeModeOptions {
  concurrency: number;
  bad: string;
  repeatNoun: string;
  baseline: ModeCount;
  candidate: ModeCount;
  unclassified: number;
  /** The mode test's share of the gate's false-alarm rate (the power is computed at it), the level of its decision after the correction (gate-stats.ts), its p-value, and the arms' names. */
  alpha: number;
  level: number;
  pValue: number;
  /** The correction's decision; default: pValue ≤ level. */
  rejected?: boolean;
  names: { baseline: string; candidate: string };
  /** The change to detect, with the target power. */
  detect: { baselineRate: number; candidateRate: number; power: number };
  reproduction?: string;
  /** The minimum repeats of an arm to judge at all. */
  minRepeats: number;
  levelText?: string;
}

const pText = (p: number) => (p < 0.001 ? p.toExponential(1) : p < 0.1 ? p.toFixed(3) : p.toFixed(2));
const rateText = (r: number) => String(Math.round(r * 100) / 100);

/** The mode test of one level: how often each arm was in the bad mode, compared (see the top of this file). */
export function judgeMode(o: JudgeModeOptions): ModeJudgement {
  const { baseline: b, candidate: c } = o;
  const at = o.levelText ? ` at ${o.levelText}` : '';
  const counts = `${o.names.candidate} ${o.bad} in ${c.bad} of ${c.of} ${o.repeatNoun}s${at}, ${o.names.baseline} in ${b.bad} of ${b.of}`;
  const needed = repeatsForModePower({ baselineRate: o.detect.baselineRate, candidateRate: o.detect.candidateRate, alpha: o.alpha, power: o.detect.power });
  const power = b.of && c.of ? rejectionRate({ baselineRepeats: b.of, candidateRepeats: c.of, baselineRate: o.detect.baselineRate, candidateRate: o.detect.candidateRate, alpha: o.alpha }) : 0;
  const powerInfo = { baselineRate: o.detect.baselineRate, candidateRate: o.detect.candidateRate, target: o.detect.power, power, needed };
  const alarm = `${Math.round(o.alpha * 1000) / 10}%`;
  const powerNote =
    power < o.detect.power
      ? `with ${Math.min(b.of, c.of)} ${o.repeatNoun}s per arm the ${o.bad} count cannot detect a rate of ${rateText(o.detect.candidateRate)} against ${rateText(o.detect.baselineRate)} at ${alarm} false alarms (power ${Math.round(power * 100)}%, target ${Math.round(o.detect.power * 100)}%): it needs ${needed ?? 'more than 50'} per arm`
      : null;
  const base = { concurrency: o.concurrency, bad: o.bad, repeatNoun: o.repeatNoun, baseline: b, candidate: c, unclassified: o.unclassified, test: 'boschloo-one-sided' as const };
  if (b.of < o.minRepeats || c.of < o.minRepeats) {
    const reason = `${counts}: too few classified ${o.repeatNoun}s to compare (at least ${o.minRepeats} each needed)`;
    return { ...base, pValue: Number.NaN, level: o.level, verdict: 'inconclusive', persisting: false, power: powerInfo, reason, powerNote };
  }
  const test = `Boschloo's exact test, one-sided p = ${pText(o.pValue)}`;
  const see = o.reproduction ? ` (see the reproduction ${o.reproduction})` : '';
  if (o.rejected ?? o.pValue <= o.level) {
    const reason = `${counts}: more often (${test} ≤ ${pText(o.level)})${see}`;
    return { ...base, pValue: o.pValue, level: o.level, verdict: 'fail', persisting: false, power: powerInfo, reason, powerNote };
  }
  const persisting = b.bad > 0 && c.bad > 0;
  const what = persisting ? `; both ${o.bad}${see}` : b.bad > 0 ? `; the candidate ${o.bad} no more often` : c.bad > 0 ? '' : `; neither ${o.bad}`;
  const reason = `${counts}: no difference (${test} > ${pText(o.level)})${what}`;
  return { ...base, pValue: o.pValue, level: o.level, verdict: 'pass', persisting, power: powerInfo, reason, powerNote };
}

/**
 * A gate's cells that did not finish (a crash, or a hang until the deadline), compared between its arms:
 * the candidate's failing significantly more often (Boschloo's exact one-sided test at `alpha`) is a
 * regression; one unlucky cell more is not, where the release itself hangs now and then (Python 3.71.0's
 * driver reached its deadline in 2 of about 280 C=50 cells of its calibrations here: findings/gate-calibration.md).
 */
export function judgeUnfinished(baseline: ModeCount, candidate: ModeCount, alpha: number): { fail: boolean; pValue: number; reason: string } {
  const pValue = boschlooOneSided(baseline, candidate);
  const fail = candidate.bad > baseline.bad && pValue <= alpha;
  const counts = `${candidate.bad} of ${candidate.of} candidate cells did not finish, ${baseline.bad} of ${baseline.of} baseline cells`;
  const test = `Boschloo's exact test, one-sided p = ${pText(pValue)} ${fail ? '≤' : '>'} ${pText(alpha)}`;
  return { fail, pValue, reason: `${counts}: ${fail ? 'more often' : 'no more often than chance'} (${test})` };
}
