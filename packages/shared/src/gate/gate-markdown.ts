import { formatMs, formatQps } from '../format';
import { escapeMarkdown } from '../results/markdown-escape';
import type { GateSpec } from './gate';
import { candidateText, gateScenario } from './gate';
import { gateReproduction } from './reproduction-gate';
import { calibrationText, type GateCalibration } from './calibration';
import { METRIC_NAMES, confidenceText, judgesP99, pctText, type GateEvaluation, type LevelCriteria, type MetricJudgement } from './gate-stats';
import type { ModeJudgement } from './gate-modes';

export interface MarkdownGate {
  id: string;
  url: string;
  jobUrl: string;
  spec: GateSpec;
  /** null while the gate's job runs. */
  evaluation: GateEvaluation | null;
  /** The scenario's calibration for the gate's language (null: never calibrated); absent: not looked up, nothing said. */
  calibration?: GateCalibration | null;
}

export const VERDICT_WORDS: Record<string, string> = { pass: 'PASS', fail: 'FAIL', inconclusive: 'INCONCLUSIVE' };

/** "PASS", or "PASS (persisting)" for a pass whose candidate keeps the baseline's bad mode. */
export function verdictText(e: Pick<GateEvaluation, 'verdict' | 'persisting'>): string {
  return `${VERDICT_WORDS[e.verdict] ?? e.verdict}${e.verdict === 'pass' && e.persisting ? ' (persisting)' : ''}`;
}

/** A mode test's p-value: "0.41", "0.0031", "2.1e-5"; "–" when it was not computed. */
export function formatModeP(m: Pick<ModeJudgement, 'pValue'>): string {
  const p = m.pValue;
  return !Number.isFinite(p) ? '–' : p < 0.001 ? p.toExponential(1) : p.toFixed(p < 0.1 ? 4 : 2);
}

/** "pass", "pass, persisting", "fail". */
export function modeVerdictText(m: Pick<ModeJudgement, 'verdict' | 'persisting'>): string {
  return m.persisting ? `${m.verdict}, persisting` : m.verdict;
}

export function formatMetricValue(m: Pick<MetricJudgement, 'metric'>, v: number): string {
  return m.metric === 'qps' ? formatQps(v) : m.metric === 'rowsPerSecond' ? `${formatQps(v)} rows/s` : formatMs(v);
}

/** "qps −10%, p50 +20%, p99 +20%" and a scan's criteria where set: what a gate allows. */
export function allowedText(c: GateSpec['criteria']): string {
  const scan = [
    c.rowsPerSecondDropPct !== undefined ? `rows/s −${c.rowsPerSecondDropPct}%` : null,
    c.cpuPer1kRowsRisePct !== undefined ? `CPU per 1,000 rows +${c.cpuPer1kRowsRisePct}%` : null,
    c.firstRowP50RisePct !== undefined ? `first-row p50 +${c.firstRowP50RisePct}%` : null,
  ].filter((t) => t !== null);
  const levels = Object.entries(c.levels ?? {}).map(([level, l]) => `at C=${level}: ${limitsText(l)}`);
  const p99 = judgesP99(c) ? [] : ['p99 not judged'];
  return [limitsText(c), ...scan, ...p99].join(', ') + (levels.length ? ` (${levels.join('; ')})` : '');
}

/** "qps −10%, p50 +20%, p99 +20%": the qps and latency limits set (a gate's, or one load level's). */
function limitsText(l: LevelCriteria): string {
  return [l.qpsDropPct !== undefined ? `qps −${l.qpsDropPct}%` : null, l.p50RisePct !== undefined ? `p50 +${l.p50RisePct}%` : null, l.p99RisePct !== undefined ? `p99 +${l.p99RisePct}%` : null]
    .filter((t) => t !== null)
    .join(', ');
}

export function formatInterval(m: Pick<MetricJudgement, 'ciPct'>): string {
  return Number.isFinite(m.ciPct[0]) ? `${pctText(m.ciPct[0])}..${pctText(m.ciPct[1])}` : '–';
}

export function formatChange(m: Pick<MetricJudgement, 'changePct'>): string {
  return pctText(m.changePct);
}

/** "3 of 5 beyond 538" for the worst-repeat column, or "off". */
export function formatWorst(m: Pick<MetricJudgement, 'metric' | 'worst' | 'candidate'>): string {
  if (!m.worst) return 'off';
  return `${m.worst.beyond} of ${m.candidate.length} beyond ${formatMetricValue(m, m.worst.bound)}`;
}

/** The scenario fields a gate overrides, in words; `text` renders the spec's JSON (see gateSetupLine). */
export function gateOverrides(g: GateSpec, text: (s: string) => string = (s) => s): string[] {
  const out: string[] = [];
  if (g.concurrency) out.push(`concurrency ${g.concurrency.join(', ')}`);
  if (g.timeScale !== undefined) out.push(`time scale ${g.timeScale}`);
  if (g.workload) out.push(`workload ${text(JSON.stringify(g.workload))}`);
  if (g.target) out.push(`target ${text(JSON.stringify(g.target))}`);
  return out;
}

/**
 * One line: scenario, client, versions, configuration overrides, repeats, criteria. `text` renders
 * the spec's strings: escapeMarkdown for Markdown, as they are for a page.
 */
export function gateSetupLine(g: GateSpec, text: (s: string) => string = (s) => s): string {
  const r = gateReproduction(g.scenario);
  if (r)
    return `${g.language} ${text(candidateText(g))} (candidate, after ${g.baseline}) · scenario reproduction ${r.id}: the candidate in place of ${r.fixedVersion}, judged by the reproduction's expectations · ${g.repeats} ${g.repeats === 1 ? 'run' : 'repeats'}, fresh client each`;
  const s = gateScenario(g.scenario);
  const cfg = (c: object | undefined) => (c && Object.keys(c).length ? text(JSON.stringify(c)) : '');
  const both = cfg(g.configuration);
  const cand = cfg(g.candidateConfiguration);
  const c = g.criteria;
  const overrides = gateOverrides(g, text);
  return (
    `${g.language} ${text(candidateText(g))} (candidate) vs ${g.baseline} (baseline) · scenario ${s?.title ?? text(g.scenario)}` +
    `${overrides.length ? ` (overridden: ${overrides.join(', ')})` : ''}` +
    `${g.operation ? ` · judged on ${g.operation}` : ''}` +
    `${both ? ` · options ${both}` : ''}${cand ? ` · candidate options ${cand}` : ''} · ${g.repeats} interleaved repeats, fresh client each · ` +
    `allowed: ${allowedText(c)}${c.worstRepeat ? `, worst-repeat test${c.worstRepeatCount > 1 ? ` (${c.worstRepeatCount} repeats fail)` : ''}` : ''}` +
    (s?.mode
      ? ` · ${s.mode.bad} ${s.mode.repeatNoun}s counted per arm (${s.mode.rule}) and compared with an exact test, to detect a rate of ${c.badModeRate ?? s.mode.detect.candidateRate} against ${s.mode.detect.baselineRate}`
      : '')
  );
}

/** What to paste into a GitHub issue or a CI log: verdict, reasons, the per-metric table, links. */
export function gateMarkdown(g: MarkdownGate): string {
  const head = `**spanner-client-bench** [gate ${g.id}](${g.url}): ${gateSetupLine(g.spec, escapeMarkdown)}`;
  const e = g.evaluation;
  const calibration = g.calibration === undefined ? [] : ['', calibrationText(g.calibration, g.spec, escapeMarkdown)];
  if (!e) return [head, '', `Verdict: pending (job ${g.jobUrl})`, ...calibration].join('\n');
  const cols = ['metric', 'C', 'baseline (median)', 'candidate (median)', 'change', `${confidenceText(e.metrics[0]?.confidence ?? 0.9)} CI`, 'worst repeat', 'verdict'];
  const rows = e.metrics.map((m) =>
    [
      METRIC_NAMES[m.metric],
      String(m.concurrency),
      formatMetricValue(m, m.baselineMedian),
      formatMetricValue(m, m.candidateMedian),
      formatChange(m),
      formatInterval(m),
      formatWorst(m),
      m.verdict,
    ].join(' | '),
  );
  return [
    head,
    '',
    `**Verdict: ${verdictText(e)}**`,
    '',
    // Stored text: the runner's reasons quote cells' and jobs' error messages.
    ...e.reasons.map((r) => `- ${escapeMarkdown(r)}`),
    ...calibration,
    '',
    // A scenario with a bimodal outcome: how often each arm was in its bad mode.
    ...(e.modes?.length
      ? [
          '| mode | C | baseline | candidate | p (one-sided) | verdict |',
          '|---|---|---|---|---|---|',
          ...e.modes.map((m) => `| ${m.bad} | ${m.concurrency} | ${m.baseline.bad} of ${m.baseline.of} | ${m.candidate.bad} of ${m.candidate.of} | ${formatModeP(m)} | ${modeVerdictText(m)} |`),
          '',
        ]
      : []),
    // A reproduction gate is judged by expectations (its reasons), not per metric.
    ...(rows.length ? [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r} |`), ''] : []),
    ...(e.errors ?? []).map((x) => `${escapeMarkdown(x.reason)}.`),
    '',
    `Method: ${e.method}. Gate: ${g.url} · its job: ${g.jobUrl}`,
  ].join('\n');
}
