import Link from '@/components/PageLink';
import { formatUtc } from '@scb/shared/table';
import type { WatchView } from '@/lib/watches';

/** How long a release's gates ran, in words. */
function duration(seconds: number): string {
  if (seconds <= 0) return '–';
  if (seconds < 90) return `${seconds} s`;
  return seconds < 5400 ? `${Math.round(seconds / 60)} min` : `${(seconds / 3600).toFixed(1)} h`;
}

/** One row per release, newest first: its publish date, its predecessor, one chip per scenario linking to its gate. */
export function WatchTimeline({ watch, releases = watch.releases }: { watch: WatchView; releases?: WatchView['releases'] }) {
  if (releases.length === 0) return <p className="muted">No release gated yet{watch.spec.since ? '' : ': releases published from now on will be'}.</p>;
  return (
    <table className="timeline" data-testid="watch-timeline">
      <thead>
        <tr>
          <th>Release</th>
          <th>Published</th>
          <th>Against</th>
          {watch.scenarios.map((s, i) => (
            <th key={`${s}-${i}`}>{s}</th>
          ))}
          <th className="num">Gates ran</th>
        </tr>
      </thead>
      <tbody>
        {releases.map((r) => (
          <tr key={r.version} className={`release release-${r.state.replace(/ /g, '-')}`} data-testid="watch-release" data-version={r.version} data-state={r.state}>
            <td>
              <strong>
                {watch.client} {r.version}
              </strong>{' '}
              {r.state === 'fail' && (
                <span className="verdict verdict-fail" title="a scenario's gate failed">
                  REGRESSION
                </span>
              )}
              {r.state === 'persisting' && (
                <span className="verdict verdict-persisting" title="no worse than its predecessor, but a regression of an earlier release persists in it (both show the bad mode as often)">
                  PERSISTING REGRESSION
                </span>
              )}
              {r.unlisted && <div className="small muted">no longer listed by the registry (yanked or withdrawn)</div>}
            </td>
            <td className="num">{r.publishedAt ? formatUtc(r.publishedAt).slice(0, 10) : <span className="muted">unknown</span>}</td>
            <td>{r.predecessor}</td>
            {watch.scenarios.map((s, i) => {
              const g = r.gates.find((x) => x.scenarioIndex === i);
              if (!g)
                return (
                  <td key={`${s}-${i}`} className="muted">
                    –
                  </td>
                );
              return (
                <td key={`${s}-${i}`}>
                  <Link href={`/gates/${g.gateId}`} className={`chip chip-${g.state.replace(/ /g, '-')}`} data-testid="watch-chip" data-state={g.state} title={g.reason ?? g.state}>
                    {g.state}
                  </Link>
                  {(g.state === 'could not install' || g.state === 'fail' || g.state === 'inconclusive' || g.state === 'persisting') && g.reason && (
                    <div className="small muted chip-reason">{g.reason}</div>
                  )}
                </td>
              );
            })}
            <td className="num">{duration(r.runSeconds)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
