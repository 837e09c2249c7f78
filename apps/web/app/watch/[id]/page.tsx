import type { Metadata } from 'next';
import Link from '@/components/PageLink';
import { notFound } from 'next/navigation';
import { formatUtc } from '@scb/shared/table';
import { calibrationText } from '@scb/shared/calibration';
import { AutoRefresh } from '@/components/AutoRefresh';
import { WatchActions } from '@/components/WatchActions';
import { Pager } from '@/components/Pager';
import { QueryIssues } from '@/components/QueryIssues';
import { WatchTimeline } from '@/components/WatchTimeline';
import { parseListQuery } from '@scb/shared/list-query';
import { publicOrigin } from '@/lib/jobs';
import { pageMetadata } from '@/lib/metadata';
import { getWatch, watchDeliveries } from '@/lib/watches';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  // The newest release says what the watch says now, whatever page is shown.
  const w = await getWatch((await params).id, publicOrigin(), { size: 1 });
  if (!w) return { title: 'Watch not found' };
  const newest = w.releases[0];
  return pageMetadata({
    title: `Watch: ${w.spec.name ?? `${w.client} releases`}`,
    description: newest ? `${w.client} ${newest.version}: ${newest.state}` : `${w.client}: no release gated yet`,
    url: w.url,
  });
}

export default async function WatchPage({ params, searchParams }: Params) {
  const { id } = await params;
  const q = parseListQuery('watch', await searchParams);
  if (!q.ok) return <QueryIssues title="Watch" issues={q.issues} plain={`/watch/${id}`} />;
  const { page } = q.value;
  const w = await getWatch(id, publicOrigin(), { page });
  if (!w) notFound();
  // The badge shows the newest release, which a later page does not hold.
  const newest = page === 1 ? w.releases[0] : (await getWatch(id, publicOrigin(), { size: 1 }))?.releases[0];
  const deliveries = await watchDeliveries(w.id);
  const live = w.releases.some((r) => r.gates.some((g) => g.state === 'queued' || g.state === 'running'));
  return (
    <>
      {live && <AutoRefresh ms={5000} />}
      <h1>
        Watch: {w.spec.name ?? `${w.client} releases`}
        {w.stoppedAt ? ' (deleted)' : ''} <img src={`/api/watches/${w.id}/badge.svg?state=${encodeURIComponent(newest?.state ?? 'none')}`} alt={`${w.client}: newest release's verdict`} height={20} />
      </h1>
      <p className="muted">
        {w.client}, each release against the stable release before it on {w.scenarios.join(', ')}
        {w.spec.since ? ` · since ${w.spec.since}` : w.startAfter ? ` · releases after ${w.startAfter}` : ''}
        {w.spec.until ? ` until ${w.spec.until}` : ''}
        {w.spec.prereleases ? ' · pre-releases too' : ''} · created {formatUtc(w.createdAt)}
        {w.createdBy ? ` by ${w.createdBy}` : ''} · <a href={`/watch/${w.id}/feed.xml`}>Atom feed</a>
      </p>
      {w.stoppedAt ? (
        <p className="small" data-testid="watch-stopped" role="status">
          Deleted {formatUtc(w.stoppedAt)}
          {w.stoppedBy ? ` by ${w.stoppedBy}` : ''}: it polls the registry no more and its queued gates were cancelled; the verdicts below stay.
        </p>
      ) : (
        <WatchActions id={w.id} />
      )}
      <p className="small muted" data-testid="watch-poll">
        {w.polledAt ? `Registry polled ${formatUtc(w.polledAt)}` : 'Registry not polled yet (runners poll on SCB_WATCH_POLL)'}
        {w.pollError && !w.stoppedAt && (
          <span className="error" role="alert">
            {' '}
            · the registry could not be read, the watch is as it was: {w.pollError}
          </span>
        )}
      </p>
      <WatchTimeline watch={w} />
      <Pager noun="Releases" page={page} size={w.pageSize} total={w.releaseCount} href={(p) => `/watch/${w.id}?page=${p}`} />
      <h2>How far the verdicts can be trusted</h2>
      <ul className="small" data-testid="watch-calibrations">
        {w.calibrations.map((c, i) => (
          <li key={`${c.scenario}-${i}`} data-scenario={c.scenario}>
            <strong>{c.scenario}</strong>: {calibrationText(c.calibration, c.gate)}
          </li>
        ))}
      </ul>
      <h2>Badge</h2>
      <p className="small">
        For a README: <code>{`![${w.client}](${w.badgeUrl})`}</code>
      </p>
      <h2>Webhook deliveries</h2>
      {w.spec.webhooks.length === 0 ? (
        <p className="muted">This watch names no webhook.</p>
      ) : deliveries.length === 0 ? (
        <p className="muted">None yet: each finished verdict is POSTed to {w.spec.webhooks.join(', ')}.</p>
      ) : (
        <table data-testid="watch-deliveries">
          <thead>
            <tr>
              <th>Webhook</th>
              <th>Release</th>
              <th>Gate</th>
              <th>Status</th>
              <th className="num">Attempts</th>
              <th>Last attempt</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={`${d.gateId}-${d.webhook}`}>
                <td>{d.webhook}</td>
                <td>{d.version}</td>
                <td>
                  <Link href={`/gates/${d.gateId}`}>{d.verdict ?? d.gateId}</Link>
                </td>
                <td className={`status-${d.status === 'delivered' ? 'succeeded' : d.status === 'failed' ? 'failed' : 'queued'}`}>{d.status}</td>
                <td className="num">{d.attempts}</td>
                <td className="num">{d.lastAttemptAt ? formatUtc(d.lastAttemptAt) : ''}</td>
                <td className="small">{d.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
