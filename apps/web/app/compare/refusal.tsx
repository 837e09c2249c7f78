import Link from '@/components/PageLink';
import { compareHref, compareRefusalText, formatCompareValue, type CompareSelection, type Comparison } from '@scb/shared/compare';

/** Why the comparison was refused; for differing scenarios, the fields that differ and a link to compare anyway. */
export function Refusal({ c, selection }: { c: Comparison; selection: CompareSelection }) {
  const r = c.refusal!;
  return (
    <div className="cmp-box cmp-refusal" role="alert" data-testid="compare-refusal">
      <p>
        <strong>Not compared:</strong> {r.kind === 'scenario' ? "the scenarios differ, so a ratio would mix the client's effect with the scenario's:" : `${compareRefusalText(r, c)}.`}
      </p>
      {r.kind === 'scenario' && (
        <>
          <table>
            <thead>
              <tr>
                <th>Series</th>
                <th>Field</th>
                <th>{c.series[0]!.label} (baseline)</th>
                <th>This series</th>
              </tr>
            </thead>
            <tbody>
              {r.mismatches.flatMap((m) =>
                m.differences.map((d) => (
                  <tr key={m.series + d.path}>
                    <td>{c.series.find((s) => s.key === m.series)?.label}</td>
                    <td>
                      <code>{d.path}</code>
                    </td>
                    <td>{formatCompareValue(d.baseline)}</td>
                    <td>{formatCompareValue(d.candidate)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
          <p>
            Client version and configuration are what a comparison compares; concurrency is a row. Everything else of the scenario should be the same.{' '}
            <Link href={compareHref(selection, { allowMismatch: true })}>Compare anyway, with a warning</Link>.
          </p>
        </>
      )}
    </div>
  );
}
