import Link from '@/components/PageLink';
import { Filters } from '@/components/Filters';
import { languageNames } from '@scb/shared/job';
import { expectationWord } from '@scb/shared/markdown';
import { publicOrigin } from '@/lib/jobs';
import { listReproductions } from '@/lib/reproductions';
import { QueryIssues } from '@/components/QueryIssues';
import { parseListQuery } from '@scb/shared/list-query';
import { REPRODUCTION_STATUSES } from '@scb/shared/reproductions';
import { RunReproduction } from './RunReproduction';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Reproductions' };

export default async function ReproductionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = parseListQuery('reproductions', await searchParams);
  if (!q.ok) return <QueryIssues title="Reproductions" issues={q.issues} plain="/reproductions" />;
  const { language = '', status = '' } = q.value;
  const entries = await listReproductions(publicOrigin(), { language: language || undefined, status: status || undefined });
  return (
    <>
      <h1>Reproductions</h1>
      <p className="muted">
        Known client bugs, each a job that shows it on the affected version and not on the fixed one, with expectations checked after every run. Those with a release that behaves are gate scenarios
        too: a release watch runs each new release in that one's place, so a bug that comes back fails the release's gate by name. Also as JSON: <code>GET /api/reproductions</code>.
      </p>
      <Filters
        label="filter reproductions"
        fields={[
          { name: 'language', label: 'Client', value: language, options: languageNames(), any: 'all' },
          { name: 'status', label: 'Status', value: status, options: REPRODUCTION_STATUSES, any: 'any' },
        ]}
      />
      {entries.length === 0 ? (
        <p className="muted">No reproduction matches.</p>
      ) : (
        <table data-testid="reproductions">
          <thead>
            <tr>
              <th>Bug</th>
              <th>Client</th>
              <th>Affected</th>
              <th>Fixed</th>
              <th>Status here</th>
              <th>Last run</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {entries.map((r) => (
              <tr key={r.id} data-testid="reproduction" data-id={r.id}>
                <td>
                  <strong>{r.title}</strong>
                  <div className="small">
                    {r.links.map((l) => (
                      <a key={l.url} href={l.url} rel="noreferrer">
                        {l.label}{' '}
                      </a>
                    ))}
                  </div>
                  <div className="small muted">{r.trigger}</div>
                </td>
                <td>{r.language}</td>
                <td>{r.affected}</td>
                <td>
                  {r.fixed}
                  {r.versionsNote && <div className="small muted">{r.versionsNote}</div>}
                  {r.gateable && (
                    <div className="small" data-testid="gate-scenario">
                      Gate scenario <code>{r.id}</code>: a release in place of {r.fixedVersion} (<Link href="/watch">watch</Link> or <Link href="/gates">gate</Link>)
                    </div>
                  )}
                </td>
                <td>
                  {r.status}
                  {r.seen && <div className="small muted">{r.seen}</div>}
                </td>
                <td>
                  {r.lastRun ? (
                    <>
                      <Link href={`/jobs/${r.lastRun.jobId}`}>{r.lastRun.status}</Link>{' '}
                      {r.lastRun.expectations && r.lastRun.status !== 'queued' && r.lastRun.status !== 'running' && (
                        <span
                          className={`verdict verdict-${r.lastRun.expectations.met === true ? 'pass' : r.lastRun.expectations.met === false ? 'fail' : 'inconclusive'}`}
                          data-testid="reproduction-verdict"
                        >
                          {expectationWord(r.lastRun.expectations.met)}
                        </span>
                      )}
                    </>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
                <td>
                  <RunReproduction spec={r.spec} title={r.title} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
