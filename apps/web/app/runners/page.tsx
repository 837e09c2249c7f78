import Link from '@/components/PageLink';
import { formatUtc } from '@scb/shared/table';
import { targetTitle } from '@scb/shared/targets';
import { AutoRefresh } from '@/components/AutoRefresh';
import { TableHead } from '@/components/TableHead';
import { listRunners } from '@/lib/runners';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Runners' };

export default async function RunnersPage() {
  const runners = await listRunners();
  const alive = runners.filter((r) => r.alive);
  return (
    <>
      <h1>Runners</h1>
      <AutoRefresh ms={5000} />
      <p className="muted">
        {alive.length} alive. Another runner: <code>DATABASE_URL=postgres://… npm run runner</code> on any machine that reaches the database. A runner silent for four heartbeats is taken for gone; its
        job is resumed by another from its first unfinished cell.
      </p>
      {runners.length === 0 ? (
        <p className="muted">No runner has registered yet.</p>
      ) : (
        <table data-testid="runners-table">
          <TableHead columns={['Runner', 'State', 'Busy with', 'Host', 'Cores', 'Memory', 'Runs', 'Labels', 'Commit', 'Started', 'Last heartbeat']} />
          <tbody>
            {runners.map((r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td>{r.alive ? 'alive' : r.stoppedAt ? `stopped: ${r.stopReason ?? ''}` : 'silent'}</td>
                <td>
                  {r.alive && r.jobId ? (
                    <>
                      <Link href={`/jobs/${r.jobId}`}>{r.jobId}</Link>
                      {r.cellIndex !== null && ` cell ${r.cellIndex + 1}`}
                    </>
                  ) : (
                    ''
                  )}
                </td>
                <td>{r.host}</td>
                <td className="num">{r.cores}</td>
                <td className="num">{r.memoryGiB} GiB</td>
                <td>{[...r.languages, ...r.targets.map(targetTitle)].join(', ')}</td>
                <td>{r.labels.join(', ')}</td>
                <td className="small">{r.commit?.slice(0, 12) ?? ''}</td>
                <td className="num">{formatUtc(r.startedAt)}</td>
                <td className="num">{(r.heartbeatAgeMs / 1000).toFixed(0)} s ago</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
