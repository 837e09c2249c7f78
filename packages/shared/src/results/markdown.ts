import type { ExpectationOutcome } from '../expect/expectation';
import { formatMs, formatOps } from '../format';
import { describeResultSet } from '../result-set/shape';
import { rowTimeFigures, scanFigures, type RowTimeFigures, type ScanFigures } from '../result-set/figures';
import { median } from './stats';
import { clientText, describeOperations, levelName, levelText, workloadMix, type JobSpec } from '../job/spec';
import { describeTarget } from '../targets/index';
import { runnerTargetVersion } from '../stored';
import { escapeMarkdown } from './markdown-escape';
import { buildResultTable, formatEntry, type TableCell } from './table';
import { VERDICT_MARK, verdictLegend } from './verdict';

/** A GitHub-flavoured table: rows by load level (concurrency, or an open loop's rate), one "qps / p50 / p99" column per configuration. */
export function resultTableMarkdown(cells: TableCell[], level = 'concurrency'): string {
  const t = buildResultTable(cells);
  const head = [level, ...t.columns.map((c) => `${escapeMarkdown(c)} qps / p50 / p99`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of t.rows) lines.push(`| ${[String(r.concurrency), ...r.entries.map(formatEntry)].join(' | ')} |`);
  return lines.join('\n');
}

export interface MarkdownJob {
  id: string;
  url: string;
  spec: JobSpec;
  environment: { cores?: number; host?: string; emulator?: string | null; targets?: Record<string, string | null>; commit?: string | null } | null;
  cells: TableCell[];
  /** Its spec's expectations as evaluated on its cells (expect/expectation.ts), where it states any. */
  expectations?: { met: boolean | null; outcomes: Pick<ExpectationOutcome, 'met' | 'text' | 'expectation'>[] } | null;
}

/** "met", "not met", or why it is undecided. */
export function expectationWord(met: boolean | null): string {
  return met === true ? 'met' : met === false ? 'NOT MET' : 'undecided';
}

/** The expectations in Markdown: each with its verdict, its own words and the figures. */
export function expectationLines(e: MarkdownJob['expectations']): string[] {
  if (!e?.outcomes.length) return [];
  return [
    '',
    `**Expectations: ${expectationWord(e.met)}**`,
    '',
    ...e.outcomes.map((o) => `- ${expectationWord(o.met)}: ${o.expectation.says ? `${escapeMarkdown(o.expectation.says)}. ` : ''}${escapeMarkdown(o.text)}`),
  ];
}

/**
 * One-line setup: client, versions, configurations, target, latency, time scale, machine. `text`
 * renders the user's and the runner's strings: escapeMarkdown for Markdown, as they are for a page.
 */
export function setupLine(job: Pick<MarkdownJob, 'spec' | 'environment'>, text: (s: string) => string = (s) => s): string {
  const s = job.spec;
  const w = s.workload;
  // Client texts are a language name and validated semver: nothing to escape.
  // A build's label is user text.
  const clients = s.clients.map((c) => escapeMarkdown(clientText(c))).join(', ');
  const configs = s.configurations.map((c) => text(c.label)).join(', ');
  const measured = w.durationSeconds !== undefined ? `${w.durationSeconds} s` : `${formatOps(w.measuredOps!)} ops`;
  const env = job.environment;
  const machine = env?.cores ? `${env.cores} cores${env.host ? ` (${text(env.host)})` : ''}` : 'machine not recorded';
  // A target the runner starts itself (a fresh emulator per cell) is the runner's own: its version is part of the setup.
  const version = runnerTargetVersion(s.target, env);
  const software = version ? `, ${s.target.kind} ${text(version)}` : '';
  return (
    `${clients} · ${configs} · ${describeTarget(s)} · ` +
    `${describeOperations(w)}, warm-up ${formatOps(w.warmupOps)} ops at the target concurrency, ${measured} measured · ` +
    `${s.repeats} repeat(s), fresh client per cell · ${machine}${software}`
  );
}

/** What to paste into a GitHub issue: setup, table, and the permanent link. */
export function jobMarkdown(job: MarkdownJob): string {
  const multi = job.spec.repeats > 1 ? ' Medians over repeats, qps range in parentheses.' : '';
  const legend = verdictLegend(job.cells.flatMap((c) => (c.result && c.verdict ? [c.verdict] : [])));
  const cpu = legend ? ` ${legend}` : '';
  return [
    `**spanner-client-bench** [job ${job.id}](${job.url}): ${setupLine(job, escapeMarkdown)}`,
    '',
    resultTableMarkdown(job.cells, levelName(job.spec)),
    '',
    `qps / p50 ms / p99 ms.${multi}${cpu} Full results: ${job.url}`,
    ...expectationLines(job.expectations),
    ...operationTables(job),
    ...scanTable(job),
    ...boundCellLines(job.cells, job.spec),
  ].join('\n');
}

/**
 * A scan job: per client, configuration and level, the medians over repeats of rows per second, CPU per
 * 1,000 rows, the times to the first row and the last (p50 / p99) and the wire's bytes per second.
 */
function scanTable(job: MarkdownJob): string[] {
  const shape = job.spec.workload.resultSet;
  if (!shape) return [];
  const groups = new Map<string, { label: string; level: number; figures: ScanCellFigures[] }>();
  const multiClient = new Set(job.cells.map((c) => clientText(c.client))).size > 1;
  for (const c of job.cells) {
    const r = c.result;
    const scans = c.operations?.scan?.count;
    const f =
      r && r.cpuMs !== undefined && r.elapsedMs !== undefined && scans !== undefined
        ? scanFigures(shape.rows, { cpuMs: r.cpuMs, elapsedMs: r.elapsedMs, count: r.count ?? scans, operations: { scan: { count: scans } }, wireBytes: r.wireBytes })
        : null;
    if (!f) continue;
    const label = `${c.arm ? `${c.arm}: ` : ''}${multiClient ? `${clientText(c.client)} · ` : ''}${escapeMarkdown(c.configuration.label)}`;
    const key = `${label}\n${c.concurrency}`;
    const g = groups.get(key) ?? { label, level: c.concurrency, figures: [] };
    g.figures.push({ ...f, times: rowTimeFigures(r!) });
    groups.set(key, g);
  }
  if (!groups.size) return [];
  const m = (values: (number | null)[], format: (v: number) => string) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length ? format(median(known)) : '–';
  };
  const ms = (v: number) => formatMs(v);
  const head = [multiClient ? 'client · configuration' : 'configuration', levelName(job.spec), 'rows/s', 'CPU ms / 1,000 rows', 'first row p50 / p99 ms', 'last row p50 / p99 ms', 'wire MB/s'];
  const rows = [...groups.values()].map(({ label, level, figures: fs }) => {
    const t = (k: keyof RowTimeFigures) => fs.map((f) => f.times?.[k] ?? null);
    return [
      label,
      String(level),
      m(
        fs.map((f) => f.rowsPerSecond),
        (v) => Math.round(v).toLocaleString('en-US'),
      ),
      m(
        fs.map((f) => f.cpuMsPer1kRows),
        (v) => v.toFixed(2),
      ),
      `${m(t('firstRowP50Ms'), ms)} / ${m(t('firstRowP99Ms'), ms)}`,
      `${m(t('lastRowP50Ms'), ms)} / ${m(t('lastRowP99Ms'), ms)}`,
      m(
        fs.map((f) => f.wireBytesPerSecond),
        (v) => (v / 1e6).toFixed(2),
      ),
    ];
  });
  return [
    '',
    `**Result set**: ${escapeMarkdown(describeResultSet(shape))}.${job.spec.repeats > 1 ? ' Medians over repeats.' : ''}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

type ScanCellFigures = ScanFigures & { times: RowTimeFigures | null };

/** A mix of operations: the same table for each kind on its own. */
function operationTables(job: MarkdownJob): string[] {
  const kinds = workloadMix(job.spec.workload).map((m) => m.operation);
  if (kinds.length < 2) return [];
  return kinds.flatMap((kind) => [
    '',
    `**${kind}**`,
    '',
    resultTableMarkdown(
      job.cells.map((c) => ({ ...c, result: c.operations?.[kind] ?? null })),
      levelName(job.spec),
    ),
  ]);
}

/** One line per cell that was not clean, with the figures that made it so (at most 10). */
function boundCellLines(cells: TableCell[], spec: Pick<JobSpec, 'arrivalRates'>): string[] {
  const bound = cells.filter((c) => c.result && c.verdict && c.verdict !== 'clean');
  if (!bound.length) return [];
  const lines = bound
    .slice(0, 10)
    .map(
      (c) =>
        `- \`${VERDICT_MARK[c.verdict!]}\` ${escapeMarkdown(clientText(c.client))} · ${escapeMarkdown(c.configuration.label)}, ${levelText(spec, c.concurrency)}, repeat ${c.repeat}: ${c.verdictReasons ?? c.verdict}`,
    );
  return ['', ...lines, ...(bound.length > 10 ? [`- and ${bound.length - 10} more cells`] : [])];
}
