import { compareRowLabel, compareVerdictText, formatCompareChange, formatCompareRatio, type CompareRatio, type Comparison } from '@scb/shared/compare';

/** At a glance: each candidate against the baseline, qps, p50 and p99 over all rows. */
export function AtAGlance({ c }: { c: Comparison }) {
  const base = c.series[0]!;
  return (
    <ul className="cmp-glance" data-testid="compare-summary">
      {c.summaries.map((s) => {
        const label = c.series.find((x) => x.key === s.series)?.label ?? s.series;
        if (!s.qps)
          return (
            <li key={s.series}>
              <strong>{label}</strong>: no result to compare with {base.label} yet.
            </li>
          );
        const part = (name: string, r: CompareRatio | null) =>
          r && (
            <span className={`cmp-${r.verdict}`}>
              {name} {formatCompareRatio(r.ratio)} ({formatCompareChange(r.ratio)}, {compareVerdictText(r.verdict)})
            </span>
          );
        return (
          <li key={s.series}>
            <strong>{label}</strong> vs {base.label}: {part('qps', s.qps)}, {part('p50', s.p50Ms)}, {part('p99', s.p99Ms)}{' '}
            <span className="muted">
              {s.rows === 1 && s.worstQps ? `at ${compareRowLabel(s.worstQps, c.openLoop)}` : `geometric mean over ${s.rows} rows`}
              {s.rows > 1 && s.worstQps && `; lowest qps ratio ${formatCompareRatio(s.worstQps.ratio)} at ${compareRowLabel(s.worstQps, c.openLoop)}`}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
