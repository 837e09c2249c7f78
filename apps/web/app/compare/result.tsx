import { COMPARE_SAME_WITHIN, compareNoteText, comparisonCharts, compareQuery } from '@scb/shared/compare';
import { scenarioLabel } from '@scb/shared/scenario';
import { CompareCharts } from '@/components/CompareCharts';
import type { CompareLoad } from '@/lib/compare';
import { ComparisonTable } from './comparison-table';
import { AtAGlance } from './glance';
import { Refusal } from './refusal';
import { SeriesTable } from './series-table';

/** A comparison: its scenario, the refusal or the summary, notes, the series, and (unless refused) the table and charts. */
export function Result({ l }: { l: Extract<CompareLoad, { kind: 'ok' }> }) {
  const c = l.comparison;
  const warnings = c.notes.filter((n) => n.severity === 'warning');
  const infos = c.notes.filter((n) => n.severity === 'info');
  const scenarioJob = l.jobs.get(c.series[0]!.jobId)!;
  return (
    <>
      <p className="muted">
        {c.series.some((s) => s.differences.length > 0) ? 'Baseline scenario' : 'Scenario'}: {scenarioLabel(scenarioJob.spec)}. Medians over repeats; ratios are candidate / baseline. qps: higher is
        better; p50 and p99: lower is better; within ±{Math.round(COMPARE_SAME_WITHIN * 100)}% counts as about the same. <a href={`/api/compare?${compareQuery(l.selection)}`}>JSON</a>
      </p>
      {c.refusal && <Refusal c={c} selection={l.selection} />}
      {!c.refusal && <AtAGlance c={c} />}
      {warnings.length > 0 && (
        <div className="cmp-box cmp-warnings" role="status" data-testid="compare-warnings">
          <p>
            <strong>Warning{warnings.length > 1 ? 's' : ''}:</strong>
          </p>
          <ul>
            {warnings.map((n, i) => (
              <li key={i}>{compareNoteText(n, c)}</li>
            ))}
          </ul>
        </div>
      )}
      {infos.length > 0 && (
        <ul className="cmp-notes muted">
          {infos.map((n, i) => (
            <li key={i}>{compareNoteText(n, c)}</li>
          ))}
        </ul>
      )}

      <h2>Series</h2>
      <SeriesTable c={c} jobs={l.jobs} />

      {!c.refusal && (
        <>
          <h2>Side by side</h2>
          <ComparisonTable c={c} />
          <h2>Charts</h2>
          <CompareCharts
            groups={comparisonCharts(c)}
            series={c.series.map((s) => ({ key: s.key, label: s.baseline ? `${s.label} (baseline)` : s.label }))}
            idealLatencyMs={c.idealLatencyMs}
            open={c.openLoop}
          />
        </>
      )}
    </>
  );
}
