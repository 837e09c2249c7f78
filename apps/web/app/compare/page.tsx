import type { Metadata } from 'next';
import { pageMetadata } from '@/lib/metadata';
import Link from '@/components/PageLink';
import { compareHref, comparisonDescription, comparisonTitle } from '@scb/shared/compare';
import { scenarioLabel } from '@scb/shared/scenario';
import { compareLoadFor, loadComparePage, selectionOf, type SearchParams } from '@/lib/compare';
import { publicOrigin } from '@/lib/jobs';
import { EmptyState } from './empty-state';
import { Forms } from './forms';
import { Issues } from './issues';
import { Result } from './result';
import './compare.css';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<SearchParams> };

const DEFAULT_DESCRIPTION = 'Compare benchmark jobs or cells side by side: qps, p50 and p99 with candidate / baseline ratios, and overlaid charts.';

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const l = await compareLoadFor(await searchParams);
  const origin = publicOrigin();
  if (l.kind !== 'ok') {
    const title = 'Compare';
    return {
      title,
      description: DEFAULT_DESCRIPTION,
      openGraph: { title, description: DEFAULT_DESCRIPTION, url: new URL('/compare', origin).toString(), type: 'website', siteName: 'spanner-client-bench' },
    };
  }
  const c = l.comparison;
  const baseJob = l.jobs.get(c.series[0]!.jobId)!;
  const title = `Compare ${comparisonTitle(c)}`;
  const description = `${comparisonDescription(c)}. Scenario: ${scenarioLabel(baseJob.spec)}.`;
  const url = new URL(compareHref(l.selection), origin).toString();
  return pageMetadata({ title, description, url, type: 'article' });
}

export default async function ComparePage({ searchParams }: Props) {
  const l = await loadComparePage(await searchParams);
  return (
    <>
      <h1>{l.kind === 'ok' ? <>Compare: {comparisonTitle(l.comparison)}</> : 'Compare'}</h1>
      <Forms selection={selectionOf(l)} />
      {l.kind === 'empty' && <EmptyState />}
      {l.kind === 'invalid' && <Issues title="The selection could not be read:" issues={l.issues} />}
      {l.kind === 'not-found' && (
        <>
          <Issues title="Not found, so nothing is compared:" issues={l.issues} />
          <p>
            See the <Link href="/">jobs list</Link> for the ids of existing jobs.
          </p>
        </>
      )}
      {l.kind === 'unreadable' && <Issues title="Stored, but invalid, so nothing is compared:" issues={l.issues} />}
      {l.kind === 'ok' && <Result l={l} />}
    </>
  );
}
