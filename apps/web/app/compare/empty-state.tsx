import Link from '@/components/PageLink';
import { compareHref } from '@scb/shared/compare';
import { StatusBadge } from '@/components/StatusBadge';
import { TableHead } from '@/components/TableHead';
import { compareSuggestions } from '@/lib/compare';

/** The page without a selection: how to compare, and recent jobs to start from. */
export async function EmptyState() {
  const { jobs, pair } = await compareSuggestions();
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
