import type { Metadata } from 'next';
import { pageMetadata } from '@/lib/metadata';
import Link from '@/components/PageLink';
import { METRICS, changeFromPrevious, chartData, formatValue, scenarioOptionText, versionsHref, type MetricUnit, type TrendPoint } from '@scb/shared/trend';
import { VersionsChart } from '@/components/VersionsChart';
import { VERDICT_MARK, VERDICT_MEANING } from '@scb/shared/verdict';
import { formatLevel } from '@scb/shared/job';
import { publicOrigin } from '@/lib/jobs';
import { searchString, versionsViewFor, type VersionsView } from '@/lib/versions';
import './versions.css';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function heading(v: VersionsView): string {
  const { language, metric, concurrency, operation } = v.selection;
  const at = concurrency ? ` at ${formatLevel(concurrency, v.openLoop)}` : '';
  return `${operation ? `${operation} ` : ''}${METRICS[metric].label} of ${language} client versions${at}`;
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const view = await versionsViewFor(searchString(await searchParams));
  const title = `Across versions: ${heading(view)}`;
  const { versions, series, cells } = view.chart;
  const description = view.scenario
    ? `${METRICS[view.selection.metric].label} (${view.chart.unit}) of ${view.selection.language} client versions ${versions.join(', ')}` +
      `${view.selection.concurrency ? ` at ${formatLevel(view.selection.concurrency, view.openLoop)}` : ''}, one line per configuration` +
      ` (${series.map((s) => s.configuration).join(', ')}), from ${cells} stored cells; scenario: ${view.scenario.label}.`
    : `No succeeded ${view.selection.language} cells stored yet.`;
  const url = new URL(view.url, publicOrigin()).toString();
  return pageMetadata({ title, description, url, type: 'website' });
}

function percent(change: number): string {
  const p = Math.round(change * 100);
  return `${p > 0 ? '+' : p < 0 ? '−' : '±'}${Math.abs(p)}%`;
}

function Entry({ p, unit, change, higherIsBetter }: { p: TrendPoint; unit: MetricUnit; change: number | null; higherIsBetter: boolean }) {
  const f = (v: number) => formatValue(v, unit);
  const shown = p.values.slice(0, 12);
  return (
    <>
      <span className="versions-median">{f(p.median)}</span>
      {p.n > 1 ? (
        <>
          {' '}
          ({f(p.min)}–{f(p.max)}, n={p.n})
        </>
      ) : (
        <> (n=1)</>
      )}
      {change !== null && Math.abs(change) >= 0.005 && (
        <span
          className={`versions-change${Math.abs(change) >= 0.1 ? (change > 0 === higherIsBetter ? ' better' : ' worse') : ''}`}
          title="change of the median from the previous version in this column"
        >
          {' '}
          {percent(change)}
        </span>
      )}
      {p.harnessBound > 0 && (
        <span className="warn" title={VERDICT_MEANING['harness-bound']}>
          {' '}
          !{p.harnessBound} harness-bound
        </span>
      )}
      {p.clientBound > 0 && (
        <span className="warn" title={VERDICT_MEANING['client-bound']}>
          {' '}
          *{p.clientBound} client-bound
        </span>
      )}
      <div className="versions-repeats muted">
        repeats: {shown.map((r) => `${f(r.value)}${VERDICT_MARK[r.verdict]}`).join(', ')}
        {p.n > shown.length && `, … ${p.n - shown.length} more`}
      </div>
      <div className="versions-jobs">
        {p.jobs.slice(0, 6).map((id, i) => (
          <span key={id}>
            {i > 0 && ', '}
            <Link href={`/jobs/${id}`}>{id}</Link>
          </span>
        ))}
        {p.jobCount > Math.min(p.jobs.length, 6) && <span className="muted">, and {p.jobCount - Math.min(p.jobs.length, 6)} more jobs</span>}
      </div>
    </>
  );
}

export default async function VersionsPage({ searchParams }: Props) {
  const view = await versionsViewFor(searchString(await searchParams));
  const { selection, options, chart } = view;
  const anyCells = options.languages.some((l) => l.cells > 0);
  const apiUrl = versionsHref(selection, '/api/versions-chart');

  return (
    <>
      <h1>Across versions</h1>
      <p className="muted versions-intro">
        One scenario (target, workload and time scale), one metric at one concurrency: every stored succeeded cell, client versions left to right in semver order, one line per configuration through
        the medians of all repeats of all jobs, with each repeat shown. A default that changed between two versions shows as a step.
      </p>

      <form method="get" action="/versions" className="versions-form" aria-label="selection">
        <label>
          <span>Client</span>
          <select name="language" defaultValue={selection.language}>
            <CountedOptions items={options.languages} />
          </select>
        </label>
        <label className="versions-scenario">
          <span>Scenario</span>
          <select name="scenario" defaultValue={selection.scenario ?? ''}>
            {options.scenarios.length === 0 && <option value="">no {selection.language} scenario has succeeded cells</option>}
            {options.scenarios.map((s) => (
              <option key={s.key} value={s.key}>
                {scenarioOptionText(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Metric</span>
          <select name="metric" defaultValue={selection.metric}>
            {options.metrics.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label} ({m.unit})
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{view.openLoop ? 'Arrival rate (ops/s)' : 'Concurrency'}</span>
          <select name="concurrency" defaultValue={selection.concurrency ?? ''}>
            {options.concurrencies.length === 0 && <option value="">–</option>}
            <CountedOptions items={options.concurrencies} />
          </select>
        </label>
        {options.operations.length > 0 && (
          <label>
            <span>Operation</span>
            <select name="operation" defaultValue={selection.operation ?? ''}>
              <option value="">all operations</option>
              {options.operations.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit">Show</button>
      </form>
      <p className="muted versions-hint">Scenario and concurrency lists are those of the chosen client; after changing the client, press Show and pick again.</p>

      {view.fallbacks.length > 0 && (
        <ul className="versions-notices" role="status" data-testid="versions-notices">
          {view.fallbacks.map((f) => (
            <li key={f.path}>
              {f.path}: {f.message}; showing the default instead.
            </li>
          ))}
        </ul>
      )}
      {view.invalidJobs && (
        <p className="muted small" role="status" data-testid="versions-invalid">
          Left out: {view.invalidJobs.length} stored job(s) that do not parse ({view.invalidJobs.slice(0, 3).join(' · ')}
          {view.invalidJobs.length > 3 ? ' · …' : ''}).
        </p>
      )}

      {!anyCells ? (
        <p className="versions-empty" data-testid="versions-empty">
          No succeeded cells are stored yet, so there is nothing to compare across versions. <Link href="/jobs/new">Launch a job</Link> with two or more client versions and come back when it has
          finished.
        </p>
      ) : !view.scenario || chart.versions.length === 0 ? (
        <p className="versions-empty" data-testid="versions-empty">
          No succeeded {selection.language} cells are stored yet. Choose another client above, or <Link href="/jobs/new">launch a {selection.language} job</Link>.
        </p>
      ) : (
        <>
          <h2>{heading(view)}</h2>
          <p className="muted">
            Scenario: {view.scenario.label}
            {view.scenario.differsIn?.length ? ` (differs from another scenario of the same description in ${view.scenario.differsIn.join(', ')})` : ''} · key <code>{view.scenario.key}</code> ·{' '}
            {chart.cells} cells · {chart.versions.length} version{chart.versions.length === 1 ? '' : 's'} · <a href={apiUrl}>JSON</a>
          </p>
          {chart.versions.length === 1 && <p className="muted">Only one client version has cells in this selection: run another version of the same scenario to see a trend.</p>}
          <VersionsChart model={chartData(chart)} />

          <h2>
            {METRICS[selection.metric].label} by version ({chart.unit})
          </h2>
          <p className="muted">
            Median over every repeat of every job, (min–max, n), the change of the median from the previous version in the same column, each repeat&apos;s value, and the jobs that produced them. *
            marks repeats whose driver was client CPU-bound.
          </p>
          <div className="versions-table-wrap">
            <table className="versions-table" data-testid="versions-table">
              <thead>
                <tr>
                  <th scope="col">version</th>
                  {chart.series.map((s) => (
                    <th key={s.configuration} scope="col">
                      {s.configuration}
                      {s.optionSets.length === 1 && s.optionSets[0] && <div className="muted small">{s.optionSets[0]}</div>}
                      {s.optionSets.length > 1 && (
                        <div className="warn versions-optionsets" title={s.optionSets.map((o) => o || '(client defaults)').join('\n')}>
                          label used for {s.optionSets.length} option sets
                        </div>
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {chart.versions.map((version, v) => (
                  <tr key={version}>
                    <th scope="row" className="num">
                      {version}
                    </th>
                    {chart.series.map((s) => {
                      const p = s.points[v];
                      return (
                        <td key={s.configuration} className="versions-entry">
                          {p ? <Entry p={p} unit={chart.unit} change={changeFromPrevious(s)[v]} higherIsBetter={METRICS[selection.metric].higherIsBetter} /> : <span className="muted">no cells</span>}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

/** Choices with how many cells each has, e.g. "node (12 cells)". */
function CountedOptions({ items }: { items: { value: string | number; cells: number }[] }) {
  return items.map((i) => (
    <option key={i.value} value={i.value}>
      {i.value} ({i.cells} cells)
    </option>
  ));
}
