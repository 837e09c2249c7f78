import Link from '@/components/PageLink';
import { Pager } from '@/components/Pager';
import { SpecColumns } from '@/components/SpecColumns';
import { StatusBadge } from '@/components/StatusBadge';
import { jobCount, listJobs } from '@/lib/jobs';
import { TableHead } from '@/components/TableHead';
import { QueryIssues } from '@/components/QueryIssues';
import { parseListQuery } from '@scb/shared/list-query';
import { formatUtc } from '@scb/shared/table';

export const dynamic = 'force-dynamic';

const PAGE = 100;

export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = parseListQuery('jobs', await searchParams);
  if (!q.ok) return <QueryIssues title="Jobs" issues={q.issues} plain="/" />;
  const { page, by } = q.value;
  const [jobs, total] = await Promise.all([listJobs(PAGE, (page - 1) * PAGE, by), jobCount(by)]);
  const pageHref = (p: number) => `/?${new URLSearchParams({ page: String(p), ...(by ? { by } : {}) })}`;
  return (
    <>
      <h1>Jobs{by ? ` submitted by ${by}` : ''}</h1>
      {by && (
        <p className="muted" data-testid="jobs-filter">
          Only the jobs {by} submitted. <Link href="/">All jobs</Link>
        </p>
      )}
      {jobs.length === 0 ? (
        <p className="muted">
          No jobs yet. <Link href="/jobs/new">Launch the first benchmark</Link>.
        </p>
      ) : (
        <table>
          <TableHead columns={['Job', 'Status', 'Created', 'By', 'Clients', 'Configurations', 'Concurrency', 'Cells']} />
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>
                  <Link href={`/jobs/${j.id}`}>{j.name || j.id}</Link>
                </td>
                <td title={j.error ?? undefined}>
                  <StatusBadge status={j.status} />
                </td>
                <td className="num">{formatUtc(j.createdAt)}</td>
                <td>{j.createdBy ? <Link href={`/?${new URLSearchParams({ by: j.createdBy })}`}>{j.createdBy}</Link> : ''}</td>
                <SpecColumns invalid={j.invalid} span={3}>
                  <td>{j.clients}</td>
                  <td>{j.configurations}</td>
                  <td>{j.concurrency}</td>
                </SpecColumns>
                <td className="num">
                  {j.cellsDone} / {j.cellsTotal}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager noun="Jobs" page={page} size={PAGE} total={total} href={pageHref} />
    </>
  );
}
