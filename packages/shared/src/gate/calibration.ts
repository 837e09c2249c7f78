// A gate scenario's calibration (issue 38): how often its gate fails when both arms run the same
// release (A/A: false alarms), and how often it fails when the candidate is that release with a known
// regression injected (A/B: detections), per size of regression. Measured by `npm run bench:calibrate`
// (bench/calibrate.ts), stored per scenario and language, shown beside every verdict. Only counts and
// their intervals here: no measuring, no formatting beyond the one sentence a verdict carries.
import { z } from 'zod';
import { LanguageSchema, OPERATIONS, SEMVER, parseSpecWith, type ParseResult } from '../job/spec';
import { canonicalJson } from '../canonical-json';
import { STORED_ID } from '../stored';
import { CriteriaSchema, GATE_SCENARIO_IDS, type GateSpec } from './gate';

/** The regressions injected unless the command says otherwise, in percent of the baseline's p50. */
export const DEFAULT_CALIBRATION_SIZES = [1, 2, 5, 10] as const;
/** The two-sided confidence of every interval shown for a calibration's rates. */
export const CALIBRATION_CONFIDENCE = 0.95;

const count = z.number().int().min(0).max(100_000);
const change = z.number().min(-1000).max(100_000);

/**
 * How a candidate build spends its injected delay: `wait` (a timer or sleep, the time alone, as an extra
 * round trip or a lock wait would) or `busy` (the calling thread's CPU kept busy that long, as a slower
 * client's own work would: a decoder's, which a scan scenario's CPU per row is there to catch).
 */
export const INJECTIONS = ['wait', 'busy'] as const;
export type Injection = (typeof INJECTIONS)[number];

/** The A/B gates of one injected regression. */
export const CalibrationSizeSchema = z
  .strictObject({
    /** The regression injected: a delay per operation of this many percent of the baseline's p50. */
    pct: z.number().positive('must be above 0').max(1000),
    /** The delay the candidate build adds to each operation, in ms. */
    delayMs: z.number().min(0).max(60_000),
    runs: count,
    /** Gates whose verdict was FAIL: the regression was detected. */
    detections: count,
    /** Gates whose verdict was INCONCLUSIVE (neither detected nor passed). */
    inconclusive: count,
    /** Each gate's p50 change at its lowest concurrency (where the delay was sized), over every cell with a result, harness-bound ones too: the candidates' median over the baselines', in percent. */
    p50ChangesPct: z.array(change).max(10_000),
  })
  .superRefine((s, ctx) => {
    if (s.detections + s.inconclusive > s.runs) ctx.addIssue({ code: 'custom', path: ['detections'], message: 'detections and inconclusive gates add up to more than the runs' });
  });
export type CalibrationSize = z.output<typeof CalibrationSizeSchema>;

/** What bench:calibrate stores (POST /api/gate-calibrations). */
export const GateCalibrationInputSchema = z
  .strictObject({
    scenario: z.enum(GATE_SCENARIO_IDS, { message: `must be one of ${GATE_SCENARIO_IDS.join(', ')}` }),
    language: LanguageSchema,
    /** The release both arms of the A/A gates ran, and the candidate builds were made from. */
    version: z.string().regex(SEMVER, 'must be a plain semver such as 9.0.0'),
    /** The machine the gates ran on: its hostname and cores. */
    machine: z.string().trim().min(1).max(200),
    cores: z.number().int().min(0).max(100_000),
    /** The bench's commit (git rev-parse --short HEAD, "-dirty" when the tree had changes). */
    commit: z.string().regex(/^[0-9a-f]{4,40}(-dirty)?$|^unknown$/, 'must be a git commit (hex), optionally with -dirty, or "unknown"'),
    /** Repeats per arm of every gate. */
    repeats: z.number().int().min(1).max(50),
    /** Every gate's criteria, as the server parsed them. */
    criteria: CriteriaSchema,
    /** The operation kind judged; absent: the cell total. */
    operation: z.enum(OPERATIONS).optional(),
    /** The median p50 of the first A/A gate's baseline repeats at the lowest concurrency (the judged operation), which sizes the delays. */
    baselineP50Ms: z.number().positive().max(3_600_000),
    aaRuns: count,
    /** A/A gates whose verdict was FAIL. */
    aaFalseAlarms: count,
    aaInconclusive: count,
    aaP50ChangesPct: z.array(change).max(10_000),
    sizes: z.array(CalibrationSizeSchema).max(20),
    /** How the candidate builds spent their delay (INJECTIONS); calibrations stored before it waited. */
    injection: z.enum(INJECTIONS, { message: `must be one of ${INJECTIONS.join(', ')}` }).default('wait'),
    /** The median time one gate took, in minutes. */
    gateMinutes: z.number().min(0).max(100_000),
    /** The command that measured it. */
    command: z.string().max(2000),
    /** Gate fields the calibration's gates set over the scenario's (e.g. a shorter workload in CI): then it calibrates that shape, not the scenario's own. */
    overrides: z.record(z.string(), z.unknown()).optional(),
    /** The stored calibration this one continues (`bench:calibrate --adds-to <id>`): its gates are counted in this one's. */
    addsTo: z
      .string()
      .regex(/^[a-z0-9]{1,40}$/, 'must be a stored calibration id (lower-case letters and digits)')
      .optional(),
  })
  .superRefine((c, ctx) => {
    if (c.aaFalseAlarms + c.aaInconclusive > c.aaRuns) ctx.addIssue({ code: 'custom', path: ['aaFalseAlarms'], message: 'false alarms and inconclusive gates add up to more than the A/A runs' });
    const pcts = c.sizes.map((s) => s.pct);
    if (new Set(pcts).size !== pcts.length) ctx.addIssue({ code: 'custom', path: ['sizes'], message: 'names a size twice' });
  });
export type GateCalibrationInput = z.output<typeof GateCalibrationInputSchema>;

export function parseGateCalibration(input: unknown): ParseResult<GateCalibrationInput> {
  return parseSpecWith(GateCalibrationInputSchema, input);
}

/** A stored calibration. */
export type GateCalibration = GateCalibrationInput & { id: string; createdAt: string };

/** What more gates of a calibration must share with the stored one they are added to, to be counted together: the same gates on the same machine. */
const SAME_GATES = ['scenario', 'language', 'version', 'repeats', 'operation', 'injection', 'machine', 'cores'] as const;

/** What of a calibration decides whether more gates may be added to it: known before any gate runs (bench:calibrate checks it first, and again on what the gates stored). */
export type CalibratedGates = Pick<GateCalibrationInput, (typeof SAME_GATES)[number] | 'criteria' | 'overrides' | 'sizes'>;

/**
 * Why `more` (gates measured later) cannot be added to `earlier`, or null: they must be the same gates
 * (scenario, language, release, repeats, criteria, judged operation, injection, overridden fields) on
 * the same machine, and every size both have the same delay (the later gates reuse the earlier
 * baseline's sizing; a size only `more` has is a new row).
 */
export function additionProblem(earlier: CalibratedGates, more: CalibratedGates): string | null {
  for (const k of SAME_GATES) if (earlier[k] !== more[k]) return `its ${k} is ${JSON.stringify(earlier[k] ?? null)}, these gates' ${JSON.stringify(more[k] ?? null)}`;
  if (!sameCriteria(earlier.criteria, more.criteria)) return `its criteria are ${JSON.stringify(earlier.criteria)}, these gates' ${JSON.stringify(more.criteria)}`;
  // Key order aside: a stored calibration's fields come back from a JSON column in the column's order.
  const [a, b] = [canonicalJson(earlier.overrides ?? {}), canonicalJson(more.overrides ?? {})];
  if (a !== b) return `its gates override ${a}, these ${b}`;
  for (const s of more.sizes) {
    const e = earlier.sizes.find((x) => x.pct === s.pct);
    if (e && e.delayMs !== s.delayMs) return `its +${s.pct}% build added ${e.delayMs} ms, this one ${s.delayMs} ms`;
  }
  return null;
}

/**
 * `earlier` (a stored calibration) with the gates of `more` counted in: runs, failures, inconclusive gates
 * and measured changes added per arm and size; the machine, commit and command of the later gates, and
 * `addsTo` naming the earlier. The caller checks additionProblem first.
 */
export function addCalibration(earlier: GateCalibration, more: GateCalibrationInput): GateCalibrationInput {
  const sizes = [...earlier.sizes.map((s) => s.pct), ...more.sizes.map((s) => s.pct)]
    .filter((pct, i, all) => all.indexOf(pct) === i)
    .map((pct) => {
      const [a, b] = [earlier.sizes.find((s) => s.pct === pct), more.sizes.find((s) => s.pct === pct)];
      return {
        pct,
        delayMs: (a ?? b)!.delayMs,
        runs: (a?.runs ?? 0) + (b?.runs ?? 0),
        detections: (a?.detections ?? 0) + (b?.detections ?? 0),
        inconclusive: (a?.inconclusive ?? 0) + (b?.inconclusive ?? 0),
        p50ChangesPct: [...(a?.p50ChangesPct ?? []), ...(b?.p50ChangesPct ?? [])],
      };
    });
  const gates = (c: GateCalibrationInput) => c.aaRuns + c.sizes.reduce((n, s) => n + s.runs, 0);
  const [n1, n2] = [gates(earlier), gates(more)];
  return {
    ...more,
    baselineP50Ms: earlier.baselineP50Ms,
    aaRuns: earlier.aaRuns + more.aaRuns,
    aaFalseAlarms: earlier.aaFalseAlarms + more.aaFalseAlarms,
    aaInconclusive: earlier.aaInconclusive + more.aaInconclusive,
    aaP50ChangesPct: [...earlier.aaP50ChangesPct, ...more.aaP50ChangesPct],
    sizes,
    // Each part's median minutes, weighted by its gates: the median of the whole is not kept.
    gateMinutes: n1 + n2 > 0 ? (earlier.gateMinutes * n1 + more.gateMinutes * n2) / (n1 + n2) : more.gateMinutes,
    addsTo: earlier.id,
  };
}

// ---- Rates and their exact intervals ---------------------------------------------------------

/** ln of n choose k. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  return Math.min(1, sum);
}

/** The p in [0, 1] where the decreasing function f(p) crosses `target`, by bisection. */
function solveDecreasing(f: (p: number) => number, target: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The exact (Clopper-Pearson) two-sided interval of a binomial proportion: k successes in n trials.
 * The lower end is the p at which P(X >= k) = α/2, the upper the p at which P(X <= k) = α/2; 0 and 1
 * where k is 0 or n. With no trials, [0, 1].
 */
export function clopperPearson(k: number, n: number, confidence = CALIBRATION_CONFIDENCE): [number, number] {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n) throw new RangeError(`clopperPearson: ${k} of ${n} is not a count of trials`);
  if (n === 0) return [0, 1];
  const tail = (1 - confidence) / 2;
  // Both CDFs fall as p rises: P(X >= k) = 1 - P(X <= k-1) = α/2 at the lower end.
  const lower = k === 0 ? 0 : solveDecreasing((p) => binomialCdf(k - 1, n, p), 1 - tail);
  const upper = k === n ? 1 : solveDecreasing((p) => binomialCdf(k, n, p), tail);
  return [lower, upper];
}

export interface Rate {
  k: number;
  n: number;
  /** k / n (NaN with no trials). */
  rate: number;
  interval: [number, number];
}

export function rateOf(k: number, n: number, confidence = CALIBRATION_CONFIDENCE): Rate {
  return { k, n, rate: n > 0 ? k / n : Number.NaN, interval: clopperPearson(k, n, confidence) };
}

/** The false-alarm rate of the A/A gates. */
export const falseAlarmRate = (c: Pick<GateCalibrationInput, 'aaRuns' | 'aaFalseAlarms'>): Rate => rateOf(c.aaFalseAlarms, c.aaRuns);
/** The detection rate of one size's A/B gates. */
export const detectionRate = (s: Pick<CalibrationSize, 'runs' | 'detections'>): Rate => rateOf(s.detections, s.runs);

/**
 * The smallest size detected at least `power` of the time (by its rate, not its interval), or null.
 * Sizes with no runs are skipped.
 */
export function smallestDetected(c: Pick<GateCalibrationInput, 'sizes'>, power = 0.9): CalibrationSize | null {
  return [...c.sizes].sort((a, b) => a.pct - b.pct).find((s) => s.runs > 0 && s.detections / s.runs >= power) ?? null;
}

// ---- Words --------------------------------------------------------------------------------

const pctOf = (p: number) => `${Math.round(p * 100)}%`;
/** "0–17%": an interval in whole percent. */
export const intervalText = (r: Rate): string => `${Math.round(r.interval[0] * 100)}–${pctOf(r.interval[1])}`;
/** "; 3 inconclusive": gates that neither failed nor passed, which a rate of failures leaves unsaid. */
const undecided = (n: number) => (n > 0 ? `; ${n} inconclusive` : '');
const sizeText = (pct: number) => `${Number.isInteger(pct) ? pct : pct.toFixed(1)}%`;

/** What of a gate its calibration's sentence compares with the calibrated gates. */
export type CalibratedGate = Pick<GateSpec, 'scenario' | 'language' | 'baseline' | 'repeats'> & { criteria: object };

/**
 * What a verdict carries about its scenario's calibration, in one sentence: "false alarms 0 of 20 A/A
 * runs (0–17%); detects a 5% p50 regression 19 of 20 times (75–100%), ...; calibrated on <machine>
 * (2 cores) at <commit>, 2026-11-26". `text` renders stored strings (escapeMarkdown for Markdown). With
 * the gate, it says where the gate differs from what was calibrated (another version, other repeats or
 * criteria), since the rates are then the calibrated gate's, not this one's. null: never calibrated.
 */
export function calibrationText(c: GateCalibration | null, gate: CalibratedGate, text: (s: string) => string = (s) => s): string {
  if (!c)
    return `Calibration: scenario ${text(gate.scenario)} was never calibrated for ${gate.language}: how often its gate fails on an unchanged release, and which regression it catches, is unknown (npm run bench:calibrate).`;
  const fa = falseAlarmRate(c);
  const sizes = [...c.sizes].sort((a, b) => a.pct - b.pct).filter((s) => s.runs > 0);
  const detects = sizes.map((s, i) => {
    const r = detectionRate(s);
    const ci = `(${intervalText(r)}${undecided(s.inconclusive)})`;
    const busy = c.injection === 'busy' ? ' spent on the CPU' : '';
    return i === 0 ? `detects a ${sizeText(s.pct)} p50 regression${busy} ${r.k} of ${r.n} times ${ci}` : `a ${sizeText(s.pct)} one ${r.k} of ${r.n} ${ci}`;
  });
  const differs = [
    c.version !== gate.baseline ? `version ${text(c.version)}` : null,
    c.repeats !== gate.repeats ? `${c.repeats} repeats per arm` : null,
    !sameCriteria(c.criteria, gate.criteria) ? `criteria ${text(JSON.stringify(c.criteria))}` : null,
    c.overrides && Object.keys(c.overrides).length ? `the scenario overridden by ${text(JSON.stringify(c.overrides))}` : null,
  ].filter((x) => x !== null);
  return (
    `Calibration: false alarms ${fa.k} of ${fa.n} A/A runs (${intervalText(fa)}${undecided(c.aaInconclusive)})` +
    (detects.length ? `; ${detects.join(', ')}` : '; no injected regression measured') +
    `; calibrated on ${text(c.machine)} (${c.cores} cores) at ${text(c.commit)}, ${c.createdAt.slice(0, 10)}` +
    (differs.length ? ` — with ${differs.join(', ')}, unlike this gate, so the rates are that gate's` : '') +
    '.'
  );
}

/** Whether two criteria judge alike (the keys either sets, compared as JSON values). */
export function sameCriteria(a: object, b: object): boolean {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  return [...keys].every((k) => JSON.stringify(ra[k]) === JSON.stringify(rb[k]));
}

const changesText = (xs: number[]) => {
  if (!xs.length) return '–';
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const f = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)}%`;
  return `${f(mid)} (${f(sorted[0]!)} to ${f(sorted.at(-1)!)})`;
};

/**
 * A calibration as a findings section: what was run, where, and the table of false alarms and
 * detections with their exact 95% intervals and the p50 change the gates measured.
 */
export function calibrationMarkdown(c: GateCalibration, text: (s: string) => string = (s) => s): string {
  const fa = falseAlarmRate(c);
  const head = ['gates', 'runs', 'FAIL', 'INCONCLUSIVE', 'FAIL rate (95% CI)', 'p50 change measured: median (range)'];
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const sized = [...c.sizes].sort((a, b) => a.pct - b.pct);
  const best = smallestDetected(c);
  return [
    `### ${text(c.scenario)}, ${c.language} ${text(c.version)} (${c.createdAt.slice(0, 10)}, calibration ${text(c.id)})`,
    '',
    `Machine ${text(c.machine)} (${c.cores} cores), commit ${text(c.commit)}; ${c.repeats} repeats per arm; criteria ${text(JSON.stringify(c.criteria))}` +
      `${c.operation ? `; judged on ${c.operation}` : ''}${c.overrides ? `; gate fields over the scenario's: ${text(JSON.stringify(c.overrides))}` : ''}. ` +
      `A/A baseline p50 ${c.baselineP50Ms.toFixed(2)} ms sizes the injected delays${c.injection === 'busy' ? ', which keep the CPU busy (`--injection busy`)' : ''}; one gate took ${c.gateMinutes.toFixed(1)} min (${c.addsTo ? "the parts' medians, weighted" : 'median'}). Command: \`${text(c.command)}\`` +
      `${c.addsTo ? `; the counts include calibration ${text(c.addsTo)}'s gates, which this command added to` : ''}.`,
    '',
    row(head),
    row(head.map(() => '---')),
    row([
      `A/A (${text(c.version)} vs itself): false alarms`,
      String(c.aaRuns),
      String(c.aaFalseAlarms),
      String(c.aaInconclusive),
      `${c.aaRuns ? pctOf(fa.rate) : '–'} (${intervalText(fa)})`,
      changesText(c.aaP50ChangesPct),
    ]),
    ...sized.map((s) => {
      const r = detectionRate(s);
      return row([
        `+${sizeText(s.pct)} (${s.delayMs} ms ${c.injection === 'busy' ? 'of CPU ' : ''}per query): detections`,
        String(s.runs),
        String(s.detections),
        String(s.inconclusive),
        `${s.runs ? pctOf(r.rate) : '–'} (${intervalText(r)})`,
        changesText(s.p50ChangesPct),
      ]);
    }),
    '',
    best ? `Smallest regression detected at least 90% of the time: +${sizeText(best.pct)}.` : 'No injected regression was detected at least 90% of the time.',
  ].join('\n');
}
