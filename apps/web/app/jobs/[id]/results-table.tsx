import { formatEntry, type ResultTable } from '@scb/shared/table';

/** The results per load level (concurrency, or an open loop's rate) and column (qps / p50 / p99), with the repeats note and the verdict legend above. */
export function ResultsTable({ table, level, repeats, legend, hasResults, live }: { table: ResultTable; level: string; repeats: number; legend: string; hasResults: boolean; live: boolean }) {
  return (
    <>
      <h2>Results (qps / p50 ms / p99 ms)</h2>
      {repeats > 1 && <p className="muted">Medians over {repeats} repeats, qps range in parentheses; every repeat is listed under Cells.</p>}
      {legend && (
        <p className="warn" data-testid="verdict-legend">
          {legend}
        </p>
      )}
      {!hasResults ? (
        <p className="muted">{live ? 'No cell has finished yet.' : 'No cell produced a result.'}</p>
      ) : (
        <table data-testid="results-table">
          <thead>
            <tr>
              <th>{level}</th>
              {table.columns.map((c) => (
                <th key={c}>
                  {c}
                  <br />
                  <span className="muted">qps / p50 / p99</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r) => (
              <tr key={r.concurrency}>
                <td className="num">{r.concurrency}</td>
                {r.entries.map((e, i) => (
                  <td key={i} className="num">
                    {formatEntry(e)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
