// Expectations: comparisons a spec states about its own results ("the affected version's readWriteTxn
// p99 is at least 5× the fixed one's"), evaluated on the stored cells after the job. Pure: pages,
// Markdown, the API and gates call the same evaluation.
import { z } from 'zod';
import { formatMs } from '../format';
import { OPERATIONS, SEMVER } from '../job/names';
import { median } from '../results/stats';

/** Which cells a side of an expectation reads: every field given must match; the figure is the median over them (their repeats) unless `aggregate` says otherwise. */
export const CellSelectorSchema = z.strictObject({
  language: z.string().optional(),
  version: z.string().regex(SEMVER, 'must be a plain semver such as 1.96.1').optional(),
  /** The gRPC library version a client was pinned to (grpc-go, grpc-js); "" for the client's own. */
  grpcVersion: z.union([z.literal(''), z.string().regex(SEMVER, 'must be a plain semver such as 1.18.0')]).optional(),
  /** A configuration's label. */
  configuration: z.string().optional(),
  /** A concurrency, or an open loop's rate. */
  level: z.number().positive().optional(),
  /** An operation kind of the mix: its own figures instead of the cell's total. */
  operation: z.enum(OPERATIONS).optional(),
  /** Over the cells (repeats): the median, or the largest or smallest, for a bug that hits some cold starts only. */
  aggregate: z.enum(['median', 'max', 'min']).default('median'),
});
export type CellSelector = z.output<typeof CellSelectorSchema>;

export const EXPECTATION_METRICS = ['qps', 'p50Ms', 'p99Ms', 'maxMs', 'errorPct', 'count', 'failedCells', 'mismatchedCells', 'topConnectionPct'] as const;
export type ExpectationMetric = (typeof EXPECTATION_METRICS)[number];

const METRIC_WORDS: Record<ExpectationMetric, string> = {
  qps: 'throughput',
  p50Ms: 'p50',
  p99Ms: 'p99',
  maxMs: 'slowest operation',
  errorPct: 'share of failed calls',
  count: 'operations completed',
  failedCells: 'cells that failed',
  mismatchedCells: 'cells that decoded a value or the row count wrong',
  topConnectionPct: "busiest connection's share of RPCs",
};

const bounds = {
  atLeast: z.number().min(0).optional(),
  atMost: z.number().min(0).optional(),
};

export const ExpectationSchema = z
  .discriminatedUnion('kind', [
    /** `of`'s figure divided by `to`'s is within the bounds: "at least 5× the fixed one's". */
    z.strictObject({ kind: z.literal('ratio'), metric: z.enum(EXPECTATION_METRICS), of: CellSelectorSchema, to: CellSelectorSchema, ...bounds, says: z.string().max(300).optional() }),
    /** The cells' figure is within the bounds: "one connection carries more than 60% of RPCs". */
    z.strictObject({ kind: z.literal('bound'), metric: z.enum(EXPECTATION_METRICS), cells: CellSelectorSchema, ...bounds, says: z.string().max(300).optional() }),
  ])
  .superRefine((e, ctx) => {
    if (e.atLeast === undefined && e.atMost === undefined) ctx.addIssue({ code: 'custom', path: ['atLeast'], message: 'give atLeast, atMost or both' });
    if (e.atLeast !== undefined && e.atMost !== undefined && e.atLeast > e.atMost) ctx.addIssue({ code: 'custom', path: ['atMost'], message: `must not be below atLeast (${e.atLeast})` });
  });
export type Expectation = z.output<typeof ExpectationSchema>;

/** What evaluating an expectation reads of one stored cell. */
export interface ExpectationCell {
  client: { language: string; version: string; grpcVersion?: string | null };
  configuration: { label: string };
  concurrency: number;
  status: string;
  result?: { qps: number; p50Ms: number; p99Ms: number; maxMs?: number; count?: number; errorCount?: number } | null;
  operations?: Partial<Record<string, { qps: number; p50Ms: number; p99Ms: number; maxMs?: number; count?: number; errorCount?: number }>> | null;
  /** RPCs per connection as one source counted them (the fake's or the tap's). */
  channels?: { source: string; rpcs: number }[] | null;
  /** Why the cell failed, as the runner stored it. */
  error?: string | null;
}

/**
 * A failed cell whose driver ended on a scan's value or row count decoded wrong: its exit 5
 * (docs/architecture.md), as the runner words a driver's exit without a result (apps/runner/src/cell.ts).
 */
export const MISMATCH_ERROR = /\bdriver exited \(code 5\)/;

export interface ExpectationOutcome {
  expectation: Expectation;
  /** null: no cell it reads produced the figure (not run, or every one failed before measuring). */
  met: boolean | null;
  /** The compared figure (a ratio for `ratio`), and each side's. */
  value: number | null;
  sides: { selector: CellSelector; value: number | null; cells: number }[];
  /** One sentence with the figures. */
  text: string;
}

const matches = (c: ExpectationCell, s: CellSelector) =>
  (s.language === undefined || c.client.language === s.language) &&
  (s.version === undefined || c.client.version === s.version) &&
  (s.grpcVersion === undefined || (c.client.grpcVersion ?? '') === s.grpcVersion) &&
  (s.configuration === undefined || c.configuration.label === s.configuration) &&
  (s.level === undefined || c.concurrency === s.level);

/** One cell's figure, or null where it has none. */
function figure(c: ExpectationCell, metric: ExpectationMetric, operation: string | undefined): number | null {
  if (metric === 'failedCells') return c.status === 'failed' ? 1 : 0;
  if (metric === 'mismatchedCells') return c.status === 'failed' && MISMATCH_ERROR.test(c.error ?? '') ? 1 : 0;
  if (metric === 'topConnectionPct') {
    // The fake's own count where it has one; else any source's.
    const sources = [...new Set((c.channels ?? []).map((ch) => ch.source))];
    const source = sources.includes('fake') ? 'fake' : sources[0];
    const rpcs = (c.channels ?? []).filter((ch) => ch.source === source).map((ch) => ch.rpcs);
    const total = rpcs.reduce((a, b) => a + b, 0);
    return total > 0 ? (100 * Math.max(...rpcs)) / total : null;
  }
  // A workload of one kind keeps its figures as the cell's total only (the spec checks the kind is in the mix).
  const f = operation && c.operations && Object.keys(c.operations).length ? c.operations[operation] : c.result;
  if (!f) return null;
  if (metric === 'errorPct') {
    const calls = (f.count ?? 0) + (f.errorCount ?? 0);
    return calls > 0 ? (100 * (f.errorCount ?? 0)) / calls : null;
  }
  const v = f[metric];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A side's figure: the median over its cells (repeats), or the count of failed cells; null where none has one. */
function sideValue(cells: ExpectationCell[], metric: ExpectationMetric, s: CellSelector): { value: number | null; cells: number } {
  const chosen = cells.filter((c) => matches(c, s) && c.status !== 'queued' && c.status !== 'running');
  const values = chosen.map((c) => figure(c, metric, s.operation)).filter((v): v is number => v !== null);
  if (metric === 'failedCells' || metric === 'mismatchedCells') return { value: chosen.length ? values.reduce((a, b) => a + b, 0) : null, cells: chosen.length };
  const pick = { median, max: (v: number[]) => Math.max(...v), min: (v: number[]) => Math.min(...v) }[s.aggregate];
  return { value: values.length ? pick(values) : null, cells: values.length };
}

/** The cells a selector names, in words: "go 0.35.0 readWriteTxn at C=10". */
export function selectorText(s: CellSelector): string {
  const parts = [
    s.aggregate !== 'median' && `the ${s.aggregate === 'max' ? 'largest' : 'smallest'} of`,
    s.language && s.version ? `${s.language} ${s.version}` : (s.version ?? s.language),
    s.grpcVersion && `(grpc ${s.grpcVersion})`,
    s.configuration && `"${s.configuration}"`,
    s.operation,
    s.level !== undefined && `at ${s.level}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : 'every cell';
}

const valueText = (metric: ExpectationMetric, v: number) => {
  if (metric.endsWith('Ms')) return `${formatMs(v)} ms`;
  if (metric === 'errorPct' || metric === 'topConnectionPct') return `${v.toFixed(1)}%`;
  if (metric === 'qps') return `${Math.round(v)} ops/s`;
  return String(Math.round(v));
};

const boundText = (e: Expectation, unit: (v: number) => string) =>
  [e.atLeast !== undefined && `at least ${unit(e.atLeast)}`, e.atMost !== undefined && `at most ${unit(e.atMost)}`].filter(Boolean).join(' and ');

const within = (e: Expectation, v: number) => (e.atLeast === undefined || v >= e.atLeast) && (e.atMost === undefined || v <= e.atMost);

export function evaluateExpectation(e: Expectation, cells: ExpectationCell[]): ExpectationOutcome {
  const words = METRIC_WORDS[e.metric];
  if (e.kind === 'bound') {
    const side = sideValue(cells, e.metric, e.cells);
    const met = side.value === null ? null : within(e, side.value);
    const expected = boundText(e, (v) => valueText(e.metric, v));
    const text =
      side.value === null
        ? `${words} of ${selectorText(e.cells)}: no figure (no cell ran to a result); expected ${expected}`
        : `${words} of ${selectorText(e.cells)} is ${valueText(e.metric, side.value)}${side.cells > 1 && e.cells.aggregate === 'median' ? (e.metric === 'failedCells' || e.metric === 'mismatchedCells' ? ` (of ${side.cells})` : ` (median of ${side.cells})`) : ''}: expected ${expected} — ${met ? 'met' : 'not met'}`;
    return { expectation: e, met, value: side.value, sides: [{ selector: e.cells, ...side }], text };
  }
  const of = sideValue(cells, e.metric, e.of);
  const to = sideValue(cells, e.metric, e.to);
  const ratio = of.value !== null && to.value !== null && to.value > 0 ? of.value / to.value : null;
  const met = ratio === null ? null : within(e, ratio);
  const expected = boundText(e, (v) => `${v}×`);
  const fig = (s: { value: number | null }) => (s.value === null ? 'no figure' : valueText(e.metric, s.value));
  const text =
    ratio === null
      ? `${words}: ${selectorText(e.of)} ${fig(of)}, ${selectorText(e.to)} ${fig(to)}: no ratio; expected ${expected}`
      : `${words} of ${selectorText(e.of)} (${fig(of)}) is ${ratio.toFixed(ratio < 10 ? 2 : 1)}× that of ${selectorText(e.to)} (${fig(to)}): expected ${expected} — ${met ? 'met' : 'not met'}`;
  return {
    expectation: e,
    met,
    value: ratio,
    sides: [
      { selector: e.of, ...of },
      { selector: e.to, ...to },
    ],
    text,
  };
}

/** Every expectation of a spec, evaluated; all met is `met`, any not met is `not met`, else undecided. */
export function evaluateExpectations(expectations: readonly Expectation[], cells: ExpectationCell[]): { outcomes: ExpectationOutcome[]; met: boolean | null } {
  const outcomes = expectations.map((e) => evaluateExpectation(e, cells));
  const met = outcomes.some((o) => o.met === false) ? false : outcomes.length && outcomes.every((o) => o.met === true) ? true : null;
  return { outcomes, met };
}
