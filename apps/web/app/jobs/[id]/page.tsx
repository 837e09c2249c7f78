import type { Metadata } from 'next';
import Link from '@/components/PageLink';
import { notFound } from 'next/navigation';
import { budgetWords, NOTHING_SPENT } from '@scb/shared/budget';
import { describeOperations, levelName } from '@scb/shared/job';
import { setupLine } from '@scb/shared/markdown';
import { isUnfinishedJob } from '@scb/shared/status';
import { buildResultTable, formatMs, formatOps, formatUtc } from '@scb/shared/table';
import { describeTarget, modeledLatencyMs, targetBudget } from '@scb/shared/targets';
import { AutoRefresh } from '@/components/AutoRefresh';
import { JobActions } from '@/components/JobActions';
import { StatusBadge } from '@/components/StatusBadge';
import { hasOperationKinds } from '@/lib/job-charts';
import { getJob, hasResults, isInvalidJob, jobUrl, jobVerdictLegend, publicOrigin, tableCells } from '@/lib/jobs';
import { pageMetadata } from '@/lib/metadata';
import { CellsTable } from './cells-table';
import { Charts } from './charts';
import { JobDetails } from './details';
import { Environment } from './environment';
import { InvalidJobPage } from './invalid-job';
import { OperationsTable } from './operations-table';
import { ScanTable } from './scan-table';
import { Progress } from './progress';
import { ResultsTable } from './results-table';
import { Expectations } from './expectations';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const job = await getJob((await params).id);
  if (!job) return { title: 'Job not found' };
  const title = `${job.name || `Job ${job.id}`} (${job.status})`;
  const description = isInvalidJob(job) ? job.invalid : setupLine(job);
  const url = jobUrl(job.id, publicOrigin());
  return pageMetadata({ title, description, url });
}

export default async function JobPage({ params }: Params) {
  const job = await getJob((await params).id);
  if (!job) notFound();
  if (isInvalidJob(job)) return <InvalidJobPage job={job} />;
  const live = isUnfinishedJob(job.status);
  const cells = tableCells(job);
  const table = buildResultTable(cells);
  const latency = modeledLatencyMs(job.spec);
  const withResults = hasResults(job);
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

      <ResultsTable table={table} level={levelName(job.spec)} repeats={job.spec.repeats} legend={jobVerdictLegend(job)} hasResults={withResults} live={live} />
      {job.expectations && <Expectations expectations={job.expectations} live={live} />}
      {withResults && <Charts job={job} table={table} latency={latency} />}
      {hasOperationKinds(job) && <OperationsTable job={job} />}
      <ScanTable job={job} />
      <CellsTable cells={job.cells} />
      <Environment env={job.environment} />
      <JobDetails job={job} cells={cells} />
    </>
  );
}
