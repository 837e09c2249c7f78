import { readingLocked } from '@/lib/auth/guard';
import type { Metadata } from 'next';
import { pageMetadata } from '@/lib/metadata';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import {
  COMPARE_SAME_WITHIN,
  compareHref,
  compareNoteText,
  compareQuery,
  compareRefusalText,
  compareRowLabel,
  compareVerdictText,
  comparisonCharts,
  comparisonDescription,
  comparisonTitle,
  formatCompareChange,
  formatCompareHottest,
  formatCompareMs,
  formatCompareQps,
  formatCompareRatio,
  formatCompareValue,
  type CompareEntry,
  type CompareRatio,
  type CompareSelection,
  type CompareSeries,
  type Comparison,
} from '@scb/shared/compare';
import { clientText, describeConfiguration, type FieldIssue } from '@scb/shared/job';
import { scenarioLabel } from '@scb/shared/scenario';
import { CompareCharts } from '@/components/CompareCharts';
import { StatusBadge } from '@/components/StatusBadge';
import { loadComparison, recentComparablePair, type CompareLoad } from '@/lib/compare';
import { listJobs, publicOrigin, type JobView } from '@/lib/jobs';
import './compare.css';
import { TableHead } from '@/components/TableHead';

export const dynamic = 'force-dynamic';

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { searchParams: Promise<SearchParams> };

const PARAMS = ['jobs', 'cells', 'mismatch'] as const;

/** The parameters this page reads, as a stable key (so metadata and page share one load per request). */
function paramsKey(sp: SearchParams): string {
  return JSON.stringify(PARAMS.map((k) => [k, sp[k] ?? null]));
}

const load = cache(async (key: string): Promise<CompareLoad> => {
  const q: SearchParams = {};
  for (const [k, v] of JSON.parse(key) as [string, string | string[] | null][]) if (v !== null) q[k] = v;
  return loadComparison(q);
});

/** Is the query already the canonical, shareable one (jobs=a,b; no spaces, links or repeats)? */
function isCanonical(sp: SearchParams, selection: CompareSelection): boolean {
  const want = new URLSearchParams(compareQuery(selection));
  return PARAMS.every((k) => (sp[k] ?? null) === want.get(k) || (sp[k] === undefined && !want.has(k)));
}

const DEFAULT_DESCRIPTION = 'Compare benchmark jobs or cells side by side: qps, p50 and p99 with candidate / baseline ratios, and overlaid charts.';

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  if (await readingLocked()) return {};
  const l = await load(paramsKey(await searchParams));
  const origin = publicOrigin();
  if (l.kind !== 'ok') {
    const title = 'Compare';
    return {
      title,
      description: DEFAULT_DESCRIPTION,
      openGraph: { title, description: DEFAULT_DESCRIPTION, url: new URL('/compare', origin).toString(), type: 'website', siteName: 'spanner-client-bench' },
    };
  }
  const c = l.comparison;
  const baseJob = l.jobs.get(c.series[0]!.jobId)!;
  const title = `Compare ${comparisonTitle(c)}`;
  const description = `${comparisonDescription(c)}. Scenario: ${scenarioLabel(baseJob.spec)}.`;
  const url = new URL(compareHref(l.selection), origin).toString();
  return pageMetadata({ title, description, url, type: 'article' });
}

function Forms({ selection }: { selection: CompareSelection | null }) {
  const jobs = selection?.kind === 'jobs' ? selection.jobs.join(', ') : '';
  const cells = selection?.kind === 'cells' ? selection.cells.map((c) => `${c.job}:${c.index}`).join(', ') : '';
  return (
    <div className="cmp-forms">
      <form method="get" action="/compare" className="cmp-form" aria-label="compare jobs">
        <label htmlFor="cmp-jobs">Jobs</label>
        <input id="cmp-jobs" type="text" name="jobs" defaultValue={jobs} placeholder="baseline id, candidate id, …" size={50} spellCheck={false} autoComplete="off" />
        <button type="submit">Compare jobs</button>
        <span className="cmp-hint">Job ids or job links, separated by commas or spaces; the first is the baseline. One job that ran several client versions compares them.</span>
      </form>
      <details open={selection?.kind === 'cells'}>
        <summary>Compare individual cells</summary>
        <form method="get" action="/compare" className="cmp-form" aria-label="compare cells">
          <label htmlFor="cmp-cells">Cells</label>
          <input id="cmp-cells" type="text" name="cells" defaultValue={cells} placeholder="jobId:0, jobId:3" size={50} spellCheck={false} autoComplete="off" />
          <button type="submit">Compare cells</button>
          <span className="cmp-hint">
            <code>jobId:cellIndex</code>, the index 0-based as in <code>GET /api/jobs/&lt;id&gt;</code> (the job page&apos;s # column minus one); the first is the baseline.
          </span>
        </form>
      </details>
    </div>
  );
}

function Issues({ title, issues }: { title: string; issues: FieldIssue[] }) {
  return (
    <div className="cmp-box cmp-error-box" role="alert" data-testid="compare-error">
      <p>
        <strong>{title}</strong>
      </p>
      <ul>
        {issues.map((i) => (
          <li key={i.path + i.message}>
            {i.message}{' '}
            <span className="muted">
              (<code>{i.path}</code>)
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

async function EmptyState() {
  const [jobs, pair] = await Promise.all([listJobs(12).then((js) => js.filter((j) => j.cellsDone > 0 && !j.invalid)), recentComparablePair()]);
  return (
    <section className="cmp-empty" data-testid="compare-empty">
      <h2>How to compare</h2>
      <ol>
        <li>
          Find the jobs in the <Link href="/">jobs list</Link>; a job&apos;s id is the last part of its link (<code>/jobs/&lt;id&gt;</code>).
        </li>
        <li>Enter the baseline first, then one or more candidates, e.g. the same scenario run with client 6.104.0 and with 6.105.0.</li>
        <li>
          Each job gives one series per client version it ran; rows are configuration × concurrency. Numbers are medians over repeats; ratios are candidate / baseline. Jobs whose scenarios differ
          (latency, time scale, workload, fake server settings) are not compared unless you ask for it, and then with a warning.
        </li>
        <li>
          The address of the result is a permanent link to share; <code>/api/compare</code> answers the same as JSON.
        </li>
      </ol>
      {jobs.length > 0 && (
        <>
          <h2>Recent jobs</h2>
          {pair && (
            <p>
              Try: <Link href={compareHref({ kind: 'jobs', jobs: pair, allowMismatch: false })}>the two newest finished jobs that ran the same scenario</Link> (<code>{pair[0]}</code>, the older one,
              as the baseline; <code>{pair[1]}</code>).
            </p>
          )}
          <table>
            <TableHead columns={['Job', 'Status', 'Clients', 'Configurations', 'Concurrency', '']} />
            <tbody>
              {jobs.map((j) => (
                <tr key={j.id}>
                  <td>
                    <Link href={`/jobs/${j.id}`}>{j.name || j.id}</Link>
                    <div className="muted small-id">
                      <code>{j.id}</code>
                    </div>
                  </td>
                  <td>
                    <StatusBadge status={j.status} />
                  </td>
                  <td>{j.clients}</td>
                  <td>{j.configurations}</td>
                  <td>{j.concurrency}</td>
                  <td>
                    {j.clients.includes(',') || j.configurations.includes(',') ? (
                      <Link href={compareHref({ kind: 'jobs', jobs: [j.id], allowMismatch: false })}>compare its {j.clients.includes(',') ? 'clients' : 'configurations'}</Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function ratioTitle(r: CompareRatio, metric: string): string {
  return `${metric}: candidate / baseline = ${r.ratio.toFixed(3)}`;
}

function Ratio({ r, metric }: { r: CompareRatio | null | undefined; metric: string }) {
  if (!r) return <td className="num muted">–</td>;
  return (
    <td className={`num cmp-ratio cmp-${r.verdict}`} title={ratioTitle(r, metric)} data-verdict={r.verdict}>
      {formatCompareRatio(r.ratio)} <span className="cmp-change">{formatCompareChange(r.ratio)}</span> <span className="cmp-verdict">{compareVerdictText(r.verdict)}</span>
    </td>
  );
}

function entryTitle(e: CompareEntry | null): string | undefined {
  if (!e) return undefined;
  const parts = [`${e.repeats} repeat${e.repeats === 1 ? '' : 's'} with a result`, `cells ${e.cells.join(', ')}`];
  if (e.failed) parts.push(`${e.failed} failed${e.error ? `: ${e.error}` : ''}`);
  if (e.pending) parts.push(`${e.pending} not finished`);
  return parts.join('; ');
}

function Value({ e, metric }: { e: CompareEntry | null; metric: 'qps' | 'p50Ms' | 'p99Ms' }) {
  const text = !e || e.qps === null ? formatCompareQps(e) : metric === 'qps' ? formatCompareQps(e) : formatCompareMs(e[metric]);
  return (
    <td className={`num${!e || e.qps === null ? ' muted' : ''}`} title={entryTitle(e)}>
      {text}
      {metric === 'qps' && e && e.failed > 0 && e.qps !== null && <div className="cmp-small error">{e.failed} failed</div>}
    </td>
  );
}

function configurationText(s: CompareSeries, job: JobView | undefined): string {
  if (!s.configuration) {
    const labels = [...new Set(job?.cells.filter((x) => s.cells.includes(x.index)).map((x) => x.configuration.label) ?? [])];
    return `per row: ${labels.join(', ')}`;
  }
  return describeConfiguration(s.configuration);
}

function cellText(job: JobView | undefined, index: number): string {
  const cell = job?.cells.find((x) => x.index === index);
  return cell ? `cell ${index} (C=${cell.concurrency}, repeat ${cell.repeat})` : `cell ${index}`;
}

function SeriesTable({ c, jobs }: { c: Comparison; jobs: Map<string, JobView> }) {
  return (
    <table data-testid="compare-series">
      <TableHead columns={['Series', 'Role', 'Job', 'Client', 'Configuration', 'Scenario', 'Cells']} />
      <tbody>
        {c.series.map((s) => {
          const job = jobs.get(s.jobId);
          return (
            <tr key={s.key}>
              <td>
                <strong>{s.label}</strong>
              </td>
              <td>{s.baseline ? 'baseline' : 'candidate'}</td>
              <td>
                <Link href={`/jobs/${s.jobId}`}>{s.jobName || s.jobId}</Link> <StatusBadge status={s.jobStatus} />
              </td>
              <td>{clientText(s.client)}</td>
              <td>{configurationText(s, job)}</td>
              <td>
                {job ? scenarioLabel(job.spec) : ''}
                {s.differences.length > 0 && <div className="cmp-small cmp-worse">differs from the baseline: {s.differences.map((d) => d.path).join(', ')}</div>}
              </td>
              <td className="num" title={`cell indexes ${s.cells.join(', ')}`}>
                {c.mode === 'cells' ? cellText(job, s.cells[0]!) : `${s.cells.length} (${s.repeats} repeat${s.repeats === 1 ? '' : 's'})`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const METRICS = [
  { key: 'qps', name: 'qps', hint: 'higher is better' },
  { key: 'p50Ms', name: 'p50 ms', hint: 'lower is better' },
  { key: 'p99Ms', name: 'p99 ms', hint: 'lower is better' },
] as const;

function ComparisonTable({ c }: { c: Comparison }) {
  const [base, ...candidates] = c.series;
  const rowConfig = c.configurationIs === 'row';
  return (
    <div className="cmp-scroll">
      <table className="cmp-table" data-testid="compare-table">
        <thead>
          <tr>
            {rowConfig && <th>configuration</th>}
            <th>concurrency</th>
            <th>metric</th>
            <th>
              {base!.label}
              <br />
              <span className="muted">baseline</span>
            </th>
            {candidates.map((s) => (
              <th key={s.key} colSpan={2}>
                {s.label}
                <br />
                <span className="muted">value · vs baseline</span>
              </th>
            ))}
          </tr>
        </thead>
        {c.rows.map((r) => (
          <tbody key={`${r.configuration ?? ''}@${r.concurrency}`} className="cmp-rowgroup" data-row={compareRowLabel(r)}>
            {METRICS.map((m, mi) => (
              <tr key={m.key}>
                {mi === 0 && rowConfig && (
                  <th rowSpan={METRICS.length + 1} scope="rowgroup" className="cmp-rowhead">
                    {r.configuration}
                  </th>
                )}
                {mi === 0 && (
                  <th rowSpan={METRICS.length + 1} scope="rowgroup" className="cmp-rowhead num">
                    {r.concurrency}
                  </th>
                )}
                <td className="cmp-metric" title={m.hint}>
                  {m.name}
                </td>
                <Value e={r.entries[0] ?? null} metric={m.key} />
                {candidates.map((s, j) => (
                  <CandidateCells key={s.key} e={r.entries[j + 1] ?? null} r={r.ratios[j + 1]?.[m.key]} metric={m.key} name={m.name} />
                ))}
              </tr>
            ))}
            <tr>
              <td className="cmp-metric" title="the busiest connection's share of RPCs (median over repeats) and its highest peak of streams in flight; the server allows 100">
                hottest connection
              </td>
              <td className="num">{formatCompareHottest(r.entries[0] ?? null)}</td>
              {candidates.map((s, j) => (
                <td key={s.key} className="num" colSpan={2}>
                  {formatCompareHottest(r.entries[j + 1] ?? null)}
                </td>
              ))}
            </tr>
          </tbody>
        ))}
      </table>
    </div>
  );
}

function CandidateCells({ e, r, metric, name }: { e: CompareEntry | null; r: CompareRatio | null | undefined; metric: 'qps' | 'p50Ms' | 'p99Ms'; name: string }) {
  return (
    <>
      <Value e={e} metric={metric} />
      <Ratio r={r} metric={name} />
    </>
  );
}

function AtAGlance({ c }: { c: Comparison }) {
  const base = c.series[0]!;
  return (
    <ul className="cmp-glance" data-testid="compare-summary">
      {c.summaries.map((s) => {
        const label = c.series.find((x) => x.key === s.series)?.label ?? s.series;
        if (!s.qps)
          return (
            <li key={s.series}>
              <strong>{label}</strong>: no result to compare with {base.label} yet.
            </li>
          );
        const part = (name: string, r: CompareRatio | null) =>
          r && (
            <span className={`cmp-${r.verdict}`}>
              {name} {formatCompareRatio(r.ratio)} ({formatCompareChange(r.ratio)}, {compareVerdictText(r.verdict)})
            </span>
          );
        return (
          <li key={s.series}>
            <strong>{label}</strong> vs {base.label}: {part('qps', s.qps)}, {part('p50', s.p50Ms)}, {part('p99', s.p99Ms)}{' '}
            <span className="muted">
              {s.rows === 1 && s.worstQps ? `at ${compareRowLabel(s.worstQps)}` : `geometric mean over ${s.rows} rows`}
              {s.rows > 1 && s.worstQps && `; lowest qps ratio ${formatCompareRatio(s.worstQps.ratio)} at ${compareRowLabel(s.worstQps)}`}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function Refusal({ c, selection }: { c: Comparison; selection: CompareSelection }) {
  const r = c.refusal!;
  return (
    <div className="cmp-box cmp-refusal" role="alert" data-testid="compare-refusal">
      <p>
        <strong>Not compared:</strong> {r.kind === 'scenario' ? "the scenarios differ, so a ratio would mix the client's effect with the scenario's:" : `${compareRefusalText(r, c)}.`}
      </p>
      {r.kind === 'scenario' && (
        <>
          <table>
            <thead>
              <tr>
                <th>Series</th>
                <th>Field</th>
                <th>{c.series[0]!.label} (baseline)</th>
                <th>This series</th>
              </tr>
            </thead>
            <tbody>
              {r.mismatches.flatMap((m) =>
                m.differences.map((d) => (
                  <tr key={m.series + d.path}>
                    <td>{c.series.find((s) => s.key === m.series)?.label}</td>
                    <td>
                      <code>{d.path}</code>
                    </td>
                    <td>{formatCompareValue(d.baseline)}</td>
                    <td>{formatCompareValue(d.candidate)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
          <p>
            Client version and configuration are what a comparison compares; concurrency is a row. Everything else of the scenario should be the same.{' '}
            <Link href={compareHref(selection, { allowMismatch: true })}>Compare anyway, with a warning</Link>.
          </p>
        </>
      )}
    </div>
  );
}

export default async function ComparePage({ searchParams }: Props) {
  const sp = await searchParams;
  const l = await load(paramsKey(sp));
  if ((l.kind === 'ok' || l.kind === 'not-found' || l.kind === 'unreadable') && !isCanonical(sp, l.selection)) redirect(compareHref(l.selection));
  const selection = l.kind === 'ok' || l.kind === 'not-found' || l.kind === 'unreadable' ? l.selection : null;

  return (
    <>
      <h1>{l.kind === 'ok' ? <>Compare: {comparisonTitle(l.comparison)}</> : 'Compare'}</h1>
      <Forms selection={selection} />
      {l.kind === 'empty' && <EmptyState />}
      {l.kind === 'invalid' && <Issues title="The selection could not be read:" issues={l.issues} />}
      {l.kind === 'not-found' && (
        <>
          <Issues title="Not found, so nothing is compared:" issues={l.issues} />
          <p>
            See the <Link href="/">jobs list</Link> for the ids of existing jobs.
          </p>
        </>
      )}
      {l.kind === 'unreadable' && <Issues title="Stored, but invalid, so nothing is compared:" issues={l.issues} />}
      {l.kind === 'ok' && <Result l={l} />}
    </>
  );
}

function Result({ l }: { l: Extract<CompareLoad, { kind: 'ok' }> }) {
  const c = l.comparison;
  const warnings = c.notes.filter((n) => n.severity === 'warning');
  const infos = c.notes.filter((n) => n.severity === 'info');
  const scenarioJob = l.jobs.get(c.series[0]!.jobId)!;
  return (
    <>
      <p className="muted">
        {c.series.some((s) => s.differences.length > 0) ? 'Baseline scenario' : 'Scenario'}: {scenarioLabel(scenarioJob.spec)}. Medians over repeats; ratios are candidate / baseline. qps: higher is
        better; p50 and p99: lower is better; within ±{Math.round(COMPARE_SAME_WITHIN * 100)}% counts as about the same. <a href={`/api/compare?${compareQuery(l.selection)}`}>JSON</a>
      </p>
      {c.refusal && <Refusal c={c} selection={l.selection} />}
      {!c.refusal && <AtAGlance c={c} />}
      {warnings.length > 0 && (
        <div className="cmp-box cmp-warnings" role="status" data-testid="compare-warnings">
          <p>
            <strong>Warning{warnings.length > 1 ? 's' : ''}:</strong>
          </p>
          <ul>
            {warnings.map((n, i) => (
              <li key={i}>{compareNoteText(n, c)}</li>
            ))}
          </ul>
        </div>
      )}
      {infos.length > 0 && (
        <ul className="cmp-notes muted">
          {infos.map((n, i) => (
            <li key={i}>{compareNoteText(n, c)}</li>
          ))}
        </ul>
      )}

      <h2>Series</h2>
      <SeriesTable c={c} jobs={l.jobs} />

      {!c.refusal && (
        <>
          <h2>Side by side</h2>
          <ComparisonTable c={c} />
          <h2>Charts</h2>
          <CompareCharts groups={comparisonCharts(c)} series={c.series.map((s) => ({ key: s.key, label: s.baseline ? `${s.label} (baseline)` : s.label }))} idealLatencyMs={c.idealLatencyMs} />
        </>
      )}
    </>
  );
}
