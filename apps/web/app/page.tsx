import Link from 'next/link';
import { Pager } from '@/components/Pager';
import { SpecColumns } from '@/components/SpecColumns';
import { StatusBadge } from '@/components/StatusBadge';
import { jobCount, listJobs } from '@/lib/jobs';
import { TableHead } from '@/components/TableHead';
import { formatUtc } from '@scb/shared/table';

export const dynamic = 'force-dynamic';

const PAGE = 100;

export default async function JobsPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const page = Math.max(1, Math.floor(Number((await searchParams).page ?? 1)) || 1);
  const [jobs, total] = await Promise.all([listJobs(PAGE, (page - 1) * PAGE), jobCount()]);
  return (
    <>
      <h1>Jobs</h1>
      {jobs.length === 0 ? (
        <p className="muted">
          No jobs yet. <Link href="/jobs/new">Launch the first benchmark</Link>.
        </p>
      ) : (
        <table>
          <TableHead columns={['Job', 'Status', 'Created', 'Clients', 'Configurations', 'Concurrency', 'Cells']} />
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>
                  <Link href={`/jobs/${j.id}`}>{j.name || j.id}</Link>
                </td>
                <td>
                  <StatusBadge status={j.status} />
                </td>
                <td className="num">{formatUtc(j.createdAt)}</td>
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
      <Pager noun="Jobs" page={page} size={PAGE} total={total} href={(p) => `/?page=${p}`} />
    </>
  );
}
