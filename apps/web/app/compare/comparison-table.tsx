import {
  compareRowLabel,
  compareVerdictText,
  formatCompareChange,
  formatCompareHottest,
  formatCompareMs,
  formatCompareQps,
  formatCompareRatio,
  type CompareEntry,
  type CompareRatio,
  type Comparison,
} from '@scb/shared/compare';

function ratioTitle(r: CompareRatio, metric: string): string {
  return `${metric}: candidate / baseline = ${r.ratio.toFixed(3)}`;
}

function Ratio({ r, metric }: { r: CompareRatio | null | undefined; metric: string }) {
  if (!r) return <td className="num muted">–</td>;
  return (
    <td className={`num cmp-ratio cmp-${r.verdict}`} title={ratioTitle(r, metric)} data-verdict={r.verdict}>
      {formatCompareRatio(r.ratio)} <span className="cmp-change">{formatCompareChange(r.ratio)}</span> <span className="cmp-verdict">{compareVerdictText(r.verdict)}</span>
    </td>
  );
}

function entryTitle(e: CompareEntry | null): string | undefined {
  if (!e) return undefined;
  const parts = [`${e.repeats} repeat${e.repeats === 1 ? '' : 's'} with a result`, `cells ${e.cells.join(', ')}`];
  if (e.failed) parts.push(`${e.failed} failed${e.error ? `: ${e.error}` : ''}`);
  if (e.pending) parts.push(`${e.pending} not finished`);
  return parts.join('; ');
}

function Value({ e, metric }: { e: CompareEntry | null; metric: 'qps' | 'p50Ms' | 'p99Ms' }) {
  const text = !e || e.qps === null ? formatCompareQps(e) : metric === 'qps' ? formatCompareQps(e) : formatCompareMs(e[metric]);
  return (
    <td className={`num${!e || e.qps === null ? ' muted' : ''}`} title={entryTitle(e)}>
      {text}
      {metric === 'qps' && e && e.failed > 0 && e.qps !== null && <div className="cmp-small error">{e.failed} failed</div>}
    </td>
  );
}

const METRICS = [
  { key: 'qps', name: 'qps', hint: 'higher is better' },
  { key: 'p50Ms', name: 'p50 ms', hint: 'lower is better' },
  { key: 'p99Ms', name: 'p99 ms', hint: 'lower is better' },
] as const;

/** Side by side: one row group per configuration × concurrency, the baseline's value and each candidate's value and ratio. */
export function ComparisonTable({ c }: { c: Comparison }) {
  const [base, ...candidates] = c.series;
  const rowConfig = c.configurationIs === 'row';
  return (
    <div className="cmp-scroll">
      <table className="cmp-table" data-testid="compare-table">
        <thead>
          <tr>
            {rowConfig && <th>configuration</th>}
            <th>{c.openLoop ? 'arrivals (ops/s)' : 'concurrency'}</th>
            <th>metric</th>
            <th>
              {base!.label}
              <br />
              <span className="muted">baseline</span>
            </th>
            {candidates.map((s) => (
              <th key={s.key} colSpan={2}>
                {s.label}
                <br />
                <span className="muted">value · vs baseline</span>
              </th>
            ))}
          </tr>
        </thead>
        {c.rows.map((r) => (
          <tbody key={`${r.configuration ?? ''}@${r.concurrency}`} className="cmp-rowgroup" data-row={compareRowLabel(r, c.openLoop)}>
            {METRICS.map((m, mi) => (
              <tr key={m.key}>
                {mi === 0 && rowConfig && (
                  <th rowSpan={METRICS.length + 1} scope="rowgroup" className="cmp-rowhead">
                    {r.configuration}
                  </th>
                )}
                {mi === 0 && (
                  <th rowSpan={METRICS.length + 1} scope="rowgroup" className="cmp-rowhead num">
                    {r.concurrency}
                  </th>
                )}
                <td className="cmp-metric" title={m.hint}>
                  {m.name}
                </td>
                <Value e={r.entries[0] ?? null} metric={m.key} />
                {candidates.map((s, j) => (
                  <CandidateCells key={s.key} e={r.entries[j + 1] ?? null} r={r.ratios[j + 1]?.[m.key]} metric={m.key} name={m.name} />
                ))}
              </tr>
            ))}
            <tr>
              <td className="cmp-metric" title="the busiest connection's share of RPCs (median over repeats) and its highest peak of streams in flight; the server allows 100">
                hottest connection
              </td>
              <td className="num">{formatCompareHottest(r.entries[0] ?? null)}</td>
              {candidates.map((s, j) => (
                <td key={s.key} className="num" colSpan={2}>
                  {formatCompareHottest(r.entries[j + 1] ?? null)}
                </td>
              ))}
            </tr>
          </tbody>
        ))}
      </table>
    </div>
  );
}

function CandidateCells({ e, r, metric, name }: { e: CompareEntry | null; r: CompareRatio | null | undefined; metric: 'qps' | 'p50Ms' | 'p99Ms'; name: string }) {
  return (
    <>
      <Value e={e} metric={metric} />
      <Ratio r={r} metric={name} />
    </>
  );
}
