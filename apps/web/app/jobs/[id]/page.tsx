import { readingLocked } from '@/lib/auth/guard';
import type { Metadata } from 'next';
import { Fragment } from 'react';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { clientText, describeConfiguration, describeOperations, OPERATIONS } from '@scb/shared/job';
import { languageInfos } from '@scb/shared/registry';
import { targetVersionsOf, toolchainsOf } from '@scb/shared/stored';
import { isUnfinishedJob } from '@scb/shared/status';
import { buildResultTable, formatEntry, formatMs, formatOps, formatPercent, formatQps, formatUtc } from '@scb/shared/table';
import { describeTarget, modeledLatencyMs, streamLimit, targetBudget, targetTitle } from '@scb/shared/targets';
import { budgetWords, NOTHING_SPENT } from '@scb/shared/budget';
import { AutoRefresh } from '@/components/AutoRefresh';
import { CellCharts } from '@/components/CellCharts';
import { ClientServerCharts, LatencyChart, QpsChart } from '@/components/ConcurrencyCharts';
import { latencySplit } from '@scb/shared/split';
import { StatusBadge } from '@/components/StatusBadge';
import { jobMarkdown, setupLine } from '@scb/shared/markdown';
import { JobActions } from '@/components/JobActions';
import { pageMetadata } from '@/lib/metadata';
import { chartData, clientServerData, hasOperationKinds, latencyData } from '@/lib/job-charts';
import { getJob, isInvalidJob, jobUrl, publicOrigin, tableCells, type CellView, type InvalidJob, type JobView } from '@/lib/jobs';
import { TableHead } from '@/components/TableHead';
import { CellVerdictMark } from '@/components/CellVerdictMark';
import { verdictLegend } from '@scb/shared/verdict';
import { CHANNEL_SOURCE_TEXT } from '@scb/shared/channels';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  if (await readingLocked()) return {};
  const job = await getJob((await params).id);
  if (!job) return { title: 'Job not found' };
  const title = `${job.name || `Job ${job.id}`} (${job.status})`;
  const description = isInvalidJob(job) ? job.invalid : setupLine(job);
  const url = jobUrl(job.id, publicOrigin());
  return pageMetadata({ title, description, url });
}

function Progress({ job }: { job: JobView }) {
  const current = job.cells.find((c) => c.status === 'running');
  const pct = job.cellsTotal ? Math.round((100 * job.cellsDone) / job.cellsTotal) : 0;
  return (
    <section aria-label="progress">
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={job.cellsTotal} aria-valuenow={job.cellsDone}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <p className="muted">
        {job.cellsDone} of {job.cellsTotal} cells done
        {current && (
          <>
            {' '}
            · now: {cellLabel(current)}
            {current.progress && (
              <>
                {' '}
                · {current.progress.phase} {current.progress.done}
                {current.progress.total ? ` / ${current.progress.total}` : ''} ops, {Math.round(current.progress.qps)} qps, {(current.progress.elapsedMs / 1000).toFixed(1)} s
              </>
            )}
          </>
        )}
      </p>
    </section>
  );
}

/** The options a configuration sets beyond its label. */
function configurationText(c: CellView): string {
  return describeConfiguration(c.configuration);
}

/** Every cell's result per operation kind of the mix, in mix order. */
function OperationsTable({ job }: { job: JobView }) {
  return (
    <>
      <h2>Per operation kind: client vs server</h2>
      <p className="muted">
        Each kind of the mix measured on its own over the measured phase; a cell&apos;s kinds add up to its total above. Client latency is the whole operation as the client saw it (a transaction:
        every RPC of it, retries included). Server: the fake&apos;s own time for the RPCs of that kind, per RPC and per operation (RPCs per operation × its percentile). Header: the same read by the
        client from each RPC&apos;s server-timing header (Cloud Spanner&apos;s front end sends it, and so does the fake), read by the Node, Java and Go drivers; it leaves out background RPCs such as
        session creation. The gap is the client&apos;s p50 the server does not account for (the fake&apos;s figures, else the header&apos;s): waiting for a session or a stream, backoff, reconnects.
      </p>
      <ClientServerCharts data={clientServerData(job)} />
      <table data-testid="operations-table">
        <TableHead
          columns={[...CELL_COLUMNS, 'Operation', 'count', 'qps', 'p50', 'p90', 'p99', 'max', 'Errors', 'Server RPCs / op', 'Server p50 / p99 per RPC', 'Header RPCs / op · p50 / p99', 'Gap (p50)']}
        />
        <tbody>
          {job.cells.flatMap((c) =>
            OPERATIONS.flatMap((kind) => {
              const o = c.result?.operations?.[kind];
              if (!o) return [];
              const split = latencySplit(o);
              return [
                <tr key={`${c.index}-${kind}`} data-cell={c.index} data-operation={kind}>
                  <td className="num">{c.index + 1}</td>
                  <td>{clientText(c.client)}</td>
                  <td>{c.configuration.label}</td>
                  <td className="num">{c.concurrency}</td>
                  <td className="num">{c.repeat}</td>
                  <td>{kind}</td>
                  <td className="num">{o.count}</td>
                  <td className="num">{formatQps(o.qps)}</td>
                  <td className="num">{formatMs(o.p50Ms)}</td>
                  <td className="num">{formatMs(o.p90Ms)}</td>
                  <td className="num">{formatMs(o.p99Ms)}</td>
                  <td className="num">{formatMs(o.maxMs)}</td>
                  <td className="num">
                    {o.errorCount
                      ? `${o.errorCount} (${Object.entries(o.errors)
                          .map(([code, n]) => `${code} ${n}`)
                          .join(', ')})`
                      : 0}
                  </td>
                  <td className="num">{o.server ? o.server.rpcsPerOp.toFixed(2) : '–'}</td>
                  <td className="num">{o.server ? `${formatMs(o.server.p50Ms)} / ${formatMs(o.server.p99Ms)}` : '–'}</td>
                  <td className="num" data-testid="server-timing">
                    {o.serverTiming ? `${o.serverTiming.rpcsPerOp.toFixed(2)} · ${formatMs(o.serverTiming.p50Ms)} / ${formatMs(o.serverTiming.p99Ms)}` : '–'}
                  </td>
                  <td className="num" data-testid="gap">
                    {split ? `${formatMs(split.gapP50Ms)} ms (${formatPercent(split.gapShare)})` : '–'}
                  </td>
                </tr>,
              ];
            }),
          )}
        </tbody>
      </table>
    </>
  );
}

/** The columns that name a cell, first in every per-cell table. */
const CELL_COLUMNS = ['#', 'Client', 'Configuration', 'C', 'Repeat'];

function cellLabel(c: CellView): string {
  return `${c.arm ? `${c.arm} · ` : ''}${clientText(c.client)} · ${c.configuration.label} · C=${c.concurrency} · repeat ${c.repeat}`;
}

/** A stored job that does not parse: named, with what is wrong, instead of a broken page. */
function InvalidJobPage({ job }: { job: InvalidJob }) {
  return (
    <>
      <h1>
        {job.name || `Job ${job.id}`} <StatusBadge status={job.status} />
      </h1>
      <p className="muted">created {formatUtc(job.createdAt)}</p>
      <p className="error" role="alert">
        {job.invalid}
      </p>
    </>
  );
}

export default async function JobPage({ params }: Params) {
  const job = await getJob((await params).id);
  if (!job) notFound();
  if (isInvalidJob(job)) return <InvalidJobPage job={job} />;
  const live = isUnfinishedJob(job.status);
  const table = buildResultTable(tableCells(job));
  const latency = modeledLatencyMs(job.spec);
  const hasResults = job.cells.some((c) => c.result);
  const env = job.environment;
  const budget = targetBudget(job.spec.target);

  return (
    <>
      {live && <AutoRefresh />}
      <h1>
        {job.name || `Job ${job.id}`} <StatusBadge status={job.status} />
      </h1>
      <p className="muted">
        {describeTarget(job.spec)}
        {latency !== null && ` = ${formatMs(latency)} ms per query`} · {describeOperations(job.spec.workload)} · warm-up {formatOps(job.spec.workload.warmupOps)} ops at the target concurrency ·{' '}
        {job.spec.workload.durationSeconds !== undefined ? `${job.spec.workload.durationSeconds} s measured` : `${formatOps(job.spec.workload.measuredOps!)} ops measured`} · {job.spec.repeats}{' '}
        repeat(s) · created {formatUtc(job.createdAt)}
        {job.createdBy && (
          <span data-testid="created-by">
            {' '}
            by <Link href={`/?${new URLSearchParams({ by: job.createdBy })}`}>{job.createdBy}</Link>
          </span>
        )}
        {job.cancelledBy && <span data-testid="cancelled-by"> · cancel asked by {job.cancelledBy}</span>}
      </p>
      {budget && (
        <p data-testid="budget">
          Cloud Spanner budget: spent {budgetWords(budget, job.spent ?? NOTHING_SPENT)} (operations started, warm-up included; seconds from each cell's start to its end; sessions the clients created).
        </p>
      )}
      {job.gateId && (
        <p>
          This job runs the cells of release gate <Link href={`/gates/${job.gateId}`}>{job.gateId}</Link>: its verdict and reasons are there.
        </p>
      )}
      <JobActions id={job.id} live={live} gate={job.gateId !== null} />
      {job.rerunOf && (
        <p data-testid="rerun-of">
          Re-run of job <Link href={`/jobs/${job.rerunOf}`}>{job.rerunOf}</Link>, with the same spec.
        </p>
      )}
      {job.reruns.length > 0 && (
        <p data-testid="reruns">
          Re-run as{' '}
          {job.reruns.map((r, i) => (
            <span key={r.id}>
              {i > 0 && ', '}
              <Link href={`/jobs/${r.id}`}>{r.id}</Link> ({r.status})
            </span>
          ))}
          ; this job stays as it was stored.
        </p>
      )}
      {job.placement && (
        <p className="error" role="alert" data-testid="placement">
          {job.placement}
        </p>
      )}
      {job.resumes > 0 && <p className="muted">Resumed {job.resumes} time(s) after its runner stopped heartbeating; cells that ran more than once say so.</p>}
      {job.error && (
        <p className="error" role="alert">
          {job.error}
        </p>
      )}
      {live && <Progress job={job} />}

      <h2>Results (qps / p50 ms / p99 ms)</h2>
      {job.spec.repeats > 1 && <p className="muted">Medians over {job.spec.repeats} repeats, qps range in parentheses; every repeat is listed under Cells.</p>}
      {verdictLegend(job.cells.flatMap((c) => (c.result ? [c.result.verdict.kind] : []))) && (
        <p className="warn" data-testid="verdict-legend">
          {verdictLegend(job.cells.flatMap((c) => (c.result ? [c.result.verdict.kind] : [])))}
        </p>
      )}
      {!hasResults ? (
        <p className="muted">{live ? 'No cell has finished yet.' : 'No cell produced a result.'}</p>
      ) : (
        <table data-testid="results-table">
          <thead>
            <tr>
              <th>concurrency</th>
              {table.columns.map((c) => (
                <th key={c}>
                  {c}
                  <br />
                  <span className="muted">qps / p50 / p99</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r) => (
              <tr key={r.concurrency}>
                <td className="num">{r.concurrency}</td>
                {r.entries.map((e, i) => (
                  <td key={i} className="num">
                    {formatEntry(e)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {hasResults && (
        <>
          <h2>Throughput vs concurrency</h2>
          <QpsChart data={chartData(job, table.columns, table.rows)} series={table.columns} />
          <h2>Latency vs concurrency</h2>
          <LatencyChart data={latencyData(table.columns, table.rows)} series={table.columns} serverMs={latency} />
          <h2>Channel distribution and time series of one cell</h2>
          <CellCharts
            streamLimit={streamLimit(job.spec.target)}
            cells={job.cells.filter((c) => c.result).map((c) => ({ index: c.index, label: cellLabel(c), channels: c.channels, timeline: c.result!.timeline, events: c.result!.events ?? [] }))}
          />
        </>
      )}

      {hasOperationKinds(job) && <OperationsTable job={job} />}

      <h2>Cells</h2>
      <p className="muted">
        Every repeat on its own row. Connections: opened / used by the client; hottest: the busiest connection&apos;s share of RPCs and its peak streams in flight (the server allows 100 per
        connection). Verdict: which process limited the cell while it measured (client-bound: the driver; harness-bound: the fake or the machine, and that cell must not be compared); hover it for the
        figures. CPU: the driver&apos;s share of the machine&apos;s cores (Node: also its event loop). Fake: its added time per RPC and its thread&apos;s event loop. Machine: all processes&apos; CPU,
        the part of it that was neither the driver nor the runner, and the load average.
      </p>
      <table data-testid="cells-table">
        <TableHead
          columns={[
            ...CELL_COLUMNS,
            'Status',
            'qps',
            'Verdict',
            'p50',
            'p90',
            'p99',
            'max',
            'Errors',
            'CPU',
            'Target: fake added p50 / p99 · loop, or CPU',
            'Machine',
            'Connections',
            'Hottest',
            'RPCs / peak in-flight per connection',
          ]}
        />
        <tbody>
          {job.cells.map((c) => (
            <tr key={c.index} data-cell={c.index}>
              <td className="num">{c.index + 1}</td>
              <td>
                {c.arm && <span className="muted">{c.arm} </span>}
                {clientText(c.client)}
              </td>
              <td>{configurationText(c)}</td>
              <td className="num">{c.concurrency}</td>
              <td className="num">{c.repeat}</td>
              <td>
                <StatusBadge status={c.status} />
                {c.error && <div className="error">{c.error}</div>}
                {c.attempts > 1 && <div className="hint">ran {c.attempts} times: its runner died during an earlier run</div>}
              </td>
              <td className="num">
                {c.result ? formatQps(c.result.qps) : ''}
                {c.result?.capped && (
                  <div className="hint">
                    ended by the cost cap on {({ ops: 'operations', time: 'seconds', sessions: 'sessions created' } as Record<string, string>)[c.result.capped] ?? c.result.capped}
                  </div>
                )}
                {c.result?.warmStart && !c.result.warmStart.warm && (
                  <div className="warn" title="the warm-up was too short: the first measured window ran at another rate than the rest">
                    not warm: {formatQps(c.result.warmStart.firstRate)}/s first, {formatQps(c.result.warmStart.medianRate)}/s after
                  </div>
                )}
              </td>
              <td>{c.result && <CellVerdictMark verdict={c.result.verdict} />}</td>
              <td className="num">{c.result ? formatMs(c.result.p50Ms) : ''}</td>
              <td className="num">{c.result ? formatMs(c.result.p90Ms) : ''}</td>
              <td className="num">{c.result ? formatMs(c.result.p99Ms) : ''}</td>
              <td className="num">{c.result ? formatMs(c.result.maxMs) : ''}</td>
              <td>
                {c.result
                  ? c.result.errorCount
                    ? Object.entries(c.result.errors)
                        .map(([k, v]) => `${k} ${v}`)
                        .join(', ')
                    : '0'
                  : ''}
              </td>
              <td className="num">
                {c.result ? (
                  <>
                    {formatPercent(c.result.cpuShare)}
                    {c.result.driverLoopUtilization != null && (
                      <div className="small muted" title="the Node driver's one event loop while measuring: busy share, and p99 of its delay">
                        loop {formatPercent(c.result.driverLoopUtilization)} · {formatMs(c.result.driverLoopDelayP99Ms ?? Number.NaN)} ms
                      </div>
                    )}
                  </>
                ) : (
                  ''
                )}
              </td>
              <td className="num" title="the fake's own time per RPC beyond the latency it applied, over the whole cell">
                {c.result?.targetAddedP50Ms != null ? `${formatMs(c.result.targetAddedP50Ms)} / ${formatMs(c.result.targetAddedP99Ms ?? Number.NaN)}` : ''}
                {c.result?.targetLoopUtilization != null && (
                  <div className="small muted" title="the fake's thread while measuring: event loop busy share, and p99 of its delay">
                    loop {formatPercent(c.result.targetLoopUtilization)} · {formatMs(c.result.targetLoopDelayP99Ms ?? Number.NaN)} ms
                  </div>
                )}
                {c.result?.targetCpuShare != null && <div title="the target's own process (the emulator) while measuring, as a share of all cores">CPU {formatPercent(c.result.targetCpuShare)}</div>}
              </td>
              <td className="num" title="while measuring: all processes' CPU as a share of all cores; others: neither the driver nor the runner (which hosts the fake); one-minute load">
                {c.result?.machineBusyShare != null && (
                  <>
                    {formatPercent(c.result.machineBusyShare)}
                    <div className="small muted">
                      others {formatPercent(Math.max(0, c.result.machineBusyShare - (c.result.machineRunnerShare ?? 0) - c.result.cpuShare - (c.result.targetCpuShare ?? 0)))} · load{' '}
                      {c.result.machineLoad1?.toFixed(1)}
                    </div>
                  </>
                )}
              </td>
              <td className="num">
                {c.result && c.channelSource && (
                  <span title={CHANNEL_SOURCE_TEXT[c.channelSource]}>
                    {c.channelSummary.opened} / {c.channelSummary.used} <span className="hint">{c.channelSource}</span>
                  </span>
                )}
                {c.result &&
                  c.otherChannelCounts.map((o) => (
                    <div key={o.source} className="hint" title={CHANNEL_SOURCE_TEXT[o.source]}>
                      {o.source}: {o.summary.opened} / {o.summary.used} · {formatPercent(o.summary.hottestShare)} · {o.summary.hottestPeakInFlight}
                    </div>
                  ))}
              </td>
              <td className="num">{c.result ? `${formatPercent(c.channelSummary.hottestShare)} · ${c.channelSummary.hottestPeakInFlight}` : ''}</td>
              <td className="small">
                {c.channels.some((ch) => ch.rpcs > 0) && (
                  <details>
                    <summary>{c.channelSummary.used} connection(s)</summary>
                    {c.channels
                      .filter((ch) => ch.rpcs > 0)
                      .map((ch) => `${ch.rpcs} / ${ch.peakInFlight}`)
                      .join(' · ')}
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Where it ran</h2>
      {env ? (
        <dl className="env">
          <dt>host</dt>
          <dd>{env.host}</dd>
          <dt>cores</dt>
          <dd>
            {env.cores} ({env.cpuModel})
          </dd>
          <dt>memory</dt>
          <dd>{env.memoryGiB} GiB</dd>
          <dt>platform</dt>
          <dd>{env.platform}</dd>
          {languageInfos().map((l) => (
            <Fragment key={l.name}>
              <dt>{l.title}</dt>
              <dd>{toolchainsOf(env)[l.name] ?? 'not found'}</dd>
            </Fragment>
          ))}
          {Object.entries(targetVersionsOf(env)).map(([kind, version]) => (
            <Fragment key={kind}>
              <dt>{targetTitle(kind)}</dt>
              <dd>{version ?? 'not found'}</dd>
            </Fragment>
          ))}
          <dt>commit</dt>
          <dd>{env.commit ?? 'unknown'}</dd>
        </dl>
      ) : (
        <p className="muted">Recorded when a runner picks the job up.</p>
      )}

      <details>
        <summary>Markdown (for a GitHub issue)</summary>
        <pre className="markdown" data-testid="markdown">
          {jobMarkdown({ id: job.id, url: jobUrl(job.id, publicOrigin()), spec: job.spec, environment: job.environment, cells: tableCells(job) })}
        </pre>
      </details>
      <details>
        <summary>Job spec (JSON)</summary>
        <pre>{JSON.stringify(job.spec, null, 2)}</pre>
      </details>
    </>
  );
}
