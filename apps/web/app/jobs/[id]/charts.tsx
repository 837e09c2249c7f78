import { isOpenLoop } from '@scb/shared/job';
import type { ResultTable } from '@scb/shared/table';
import { streamLimit } from '@scb/shared/targets';
import { CellCharts } from '@/components/CellCharts';
import { LatencyChart, QpsChart } from '@/components/ConcurrencyCharts';
import { cellChartData, chartData, latencyData } from '@/lib/job-charts';
import type { JobView } from '@/lib/jobs';

/** Throughput and latency over concurrency per column, then one cell's channels and time series. */
export function Charts({ job, table, latency }: { job: JobView; table: ResultTable; latency: number | null }) {
  const open = isOpenLoop(job.spec);
  const versus = open ? 'arrival rate' : 'concurrency';
  return (
    <>
      <h2>Throughput vs {versus}</h2>
      <QpsChart data={chartData(job, table.columns, table.rows)} series={table.columns} open={open} />
      <h2>Latency vs {versus}</h2>
      <LatencyChart data={latencyData(table.columns, table.rows)} series={table.columns} serverMs={latency} open={open} />
      <h2>Channel distribution and time series of one cell</h2>
      <CellCharts streamLimit={streamLimit(job.spec.target)} cells={cellChartData(job)} />
    </>
  );
}
