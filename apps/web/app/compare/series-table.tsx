import Link from '@/components/PageLink';
import type { CompareSeries, Comparison } from '@scb/shared/compare';
import { clientText, describeConfiguration } from '@scb/shared/job';
import { scenarioLabel } from '@scb/shared/scenario';
import { StatusBadge } from '@/components/StatusBadge';
import { TableHead } from '@/components/TableHead';
import type { JobView } from '@/lib/jobs';

function configurationText(s: CompareSeries, job: JobView | undefined): string {
  if (!s.configuration) {
    const labels = [...new Set(job?.cells.filter((x) => s.cells.includes(x.index)).map((x) => x.configuration.label) ?? [])];
    return `per row: ${labels.join(', ')}`;
  }
  return describeConfiguration(s.configuration);
}

function cellText(job: JobView | undefined, index: number): string {
  const cell = job?.cells.find((x) => x.index === index);
  return cell ? `cell ${index} (C=${cell.concurrency}, repeat ${cell.repeat})` : `cell ${index}`;
}

/** The series compared: role, job, client, configuration, scenario and cells of each. */
export function SeriesTable({ c, jobs }: { c: Comparison; jobs: Map<string, JobView> }) {
  return (
    <table data-testid="compare-series">
      <TableHead columns={['Series', 'Role', 'Job', 'Client', 'Configuration', 'Scenario', 'Cells']} />
      <tbody>
        {c.series.map((s) => {
          const job = jobs.get(s.jobId);
          return (
            <tr key={s.key}>
              <td>
                <strong>{s.label}</strong>
              </td>
              <td>{s.baseline ? 'baseline' : 'candidate'}</td>
              <td>
                <Link href={`/jobs/${s.jobId}`}>{s.jobName || s.jobId}</Link> <StatusBadge status={s.jobStatus} />
              </td>
              <td>{clientText(s.client)}</td>
              <td>{configurationText(s, job)}</td>
              <td>
                {job ? scenarioLabel(job.spec) : ''}
                {s.differences.length > 0 && <div className="cmp-small cmp-worse">differs from the baseline: {s.differences.map((d) => d.path).join(', ')}</div>}
              </td>
              <td className="num" title={`cell indexes ${s.cells.join(', ')}`}>
                {c.mode === 'cells' ? cellText(job, s.cells[0]!) : `${s.cells.length} (${s.repeats} repeat${s.repeats === 1 ? '' : 's'})`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
