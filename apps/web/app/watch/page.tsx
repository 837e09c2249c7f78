import Link from '@/components/PageLink';
import { Filters } from '@/components/Filters';
import { GATE_SCENARIOS } from '@scb/shared/gate';
import { GATE_REPRODUCTIONS } from '@scb/shared/reproduction-gate';
import { languageNames } from '@scb/shared/job';
import { CHIP_STATES } from '@scb/shared/watch';
import { formatUtc } from '@scb/shared/table';
import { WatchTimeline } from '@/components/WatchTimeline';
import { webPolicy } from '@/lib/env';
import { publicOrigin } from '@/lib/jobs';
import { listWatchViews } from '@/lib/watches';
import { QueryIssues } from '@/components/QueryIssues';
import { parseListQuery } from '@scb/shared/list-query';
import { WatchForm } from './WatchForm';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Release watches' };

export default async function WatchesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = parseListQuery('watches', await searchParams);
  if (!q.ok) return <QueryIssues title="Release watches" issues={q.issues} plain="/watch" />;
  const { language = '', verdict = '' } = q.value;
  const watches = (await listWatchViews(publicOrigin())).filter((w) => !language || w.spec.language === language);
  // Each watch with its newest releases (LIST_RELEASES); a verdict filter keeps those with a chip in that state, and the watches that have one.
  const shown = watches
    .map((w) => ({ watch: w, releases: verdict ? w.releases.filter((r) => r.gates.some((g) => g.state === verdict)) : w.releases }))
    .filter((s) => !verdict || s.releases.length > 0);
  return (
    <>
      <h1>Release watches</h1>
      <p className="muted">
        Every new release of a client, gated against the release before it on the scenarios you pick, as soon as the registry lists it. Verdicts also as an <a href="/watch/feed.xml">Atom feed</a>, a
        badge per watch, and webhooks.
      </p>
      <WatchForm
        scenarios={[...GATE_SCENARIOS.map((s) => ({ id: s.id, title: s.title })), ...GATE_REPRODUCTIONS.map((r) => ({ id: r.id, title: `Reproduction: ${r.id}`, language: r.language }))]}
        webhooks={Object.keys(webPolicy().webhooks)}
      />
      <Filters
        label="filter watches"
        fields={[
          { name: 'language', label: 'Client', value: language, options: languageNames(), any: 'all' },
          { name: 'verdict', label: 'Verdict', value: verdict, options: CHIP_STATES, any: 'any' },
        ]}
      />
      {shown.length === 0 ? (
        <p className="muted">{watches.length === 0 && !language ? 'No watches yet.' : 'No watch matches.'}</p>
      ) : (
        shown.map(({ watch, releases }) => (
          <section key={watch.id} className="watch" data-testid="watch">
            <h2>
              <Link href={`/watch/${watch.id}`}>{watch.spec.name ?? `${watch.client} releases`}</Link>
              {watch.stoppedAt ? ' (deleted)' : ''}{' '}
              <img src={`/api/watches/${watch.id}/badge.svg?state=${encodeURIComponent(watch.releases[0]?.state ?? 'none')}`} alt={`${watch.client}: newest release's verdict`} height={20} />
            </h2>
            <p className="small muted">
              {watch.scenarios.join(', ')}
              {watch.spec.since ? ` · since ${watch.spec.since}` : ''}
              {watch.spec.until ? ` until ${watch.spec.until}` : ''}
              {watch.stoppedAt ? ` · deleted ${formatUtc(watch.stoppedAt)}: polls no more` : watch.pollError ? ` · the registry could not be read at the last poll: ${watch.pollError}` : ''}
            </p>
            <WatchTimeline watch={watch} releases={releases} />
            {watch.releaseCount > watch.releases.length && (
              <p className="small muted">
                The {watch.releases.length} newest of its {watch.releaseCount} releases: <Link href={`/watch/${watch.id}`}>all of them</Link>
              </p>
            )}
          </section>
        ))
      )}
    </>
  );
}
