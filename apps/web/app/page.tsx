import Link from 'next/link';
import { Pager } from '@/components/Pager';
import { StatusBadge } from '@/components/StatusBadge';
import { jobCount, listJobs } from '@/lib/jobs';

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
          <thead>
            <tr>
              <th>Job</th>
              <th>Status</th>
              <th>Created</th>
              <th>Clients</th>
              <th>Configurations</th>
              <th>Concurrency</th>
              <th>Cells</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>
                  <Link href={`/jobs/${j.id}`}>{j.name || j.id}</Link>
                </td>
                <td>
                  <StatusBadge status={j.status} />
                </td>
                <td className="num">{j.createdAt.replace('T', ' ').slice(0, 19)} UTC</td>
                {j.invalid ? (
                  <td colSpan={3} className="error">
                    {j.invalid}
                  </td>
                ) : (
                  <>
                    <td>{j.clients}</td>
                    <td>{j.configurations}</td>
                    <td>{j.concurrency}</td>
                  </>
                )}
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
