// What the job page charts, computed from a job's view: qps and latency over concurrency per column,
// the client/server split per operation kind, the cells of the one-cell charts. Pure: the page renders what these return.
import type { CellChartData } from '@/components/CellCharts';
import type { ClientServerSeries, LatencyPoint, QpsPoint } from '@/components/ConcurrencyCharts';
import { clientText, isOpenLoop, OPERATIONS } from '@scb/shared/job';
import { latencySplit } from '@scb/shared/split';
import type { buildResultTable } from '@scb/shared/table';
import { idealQps, modeledLatencyMs } from '@scb/shared/targets';
import { ceilingKey } from '@/components/chart-keys';
import { cellLabel, type JobView } from './jobs';

type Rows = ReturnType<typeof buildResultTable>['rows'];

/**
 * qps per column over concurrency, each column's modeled ceiling beside it (`<column> ceiling`), and
 * C / L ("no limits") where the target models a latency.
 */
export function chartData(job: JobView, columns: string[], rows: Rows): QpsPoint[] {
  const latency = modeledLatencyMs(job.spec);
  // An open loop can at most complete what arrives: its rate.
  const ideal = (level: number) => (isOpenLoop(job.spec) ? level : latency === null ? null : idealQps(level, latency));
  return rows.map((r) => {
    const p: QpsPoint = { concurrency: r.concurrency, ideal: ideal(r.concurrency) };
    columns.forEach((col, i) => {
      const e = r.entries[i];
      p[col] = e && e.repeats > 0 ? e.qps : null;
      p[ceilingKey(col)] = e?.ceilingQps ?? null;
    });
    return p;
  });
}

/** p50 and p99 per column over concurrency. */
export function latencyData(columns: string[], rows: Rows): LatencyPoint[] {
  return rows.map((r) => {
    const p: LatencyPoint = { concurrency: r.concurrency };
    columns.forEach((col, i) => {
      const e = r.entries[i];
      p[`${col} p50`] = e && e.repeats > 0 ? e.p50Ms : null;
      p[`${col} p99`] = e && e.repeats > 0 ? e.p99Ms : null;
    });
    return p;
  });
}

/** Whether there is more per operation kind than the cells table shows: a mix, or the server's side of the split. */
export function hasOperationKinds(job: JobView): boolean {
  return job.cells.some((c) => Object.entries(c.result?.operations ?? {}).some(([k, o]) => k !== 'select1' || o?.server || o?.serverTiming));
}

/**
 * Per operation kind and column (client and configuration): client p50 / p99 beside the server's per
 * operation, over concurrency, the mean over repeats. Kinds without the server's side are left out.
 */
export function clientServerData(job: JobView): ClientServerSeries[] {
  const out: ClientServerSeries[] = [];
  for (const kind of OPERATIONS) {
    const byColumn = new Map<string, Map<number, { client50: number[]; client99: number[]; server50: number[]; server99: number[] }>>();
    for (const c of job.cells) {
      const o = c.result?.operations?.[kind];
      const split = o && latencySplit(o);
      if (!o || !split) continue;
      const column = `${clientText(c.client)} · ${c.configuration.label}`;
      const byC = byColumn.get(column) ?? new Map();
      byColumn.set(column, byC);
      const v = byC.get(c.concurrency) ?? { client50: [], client99: [], server50: [], server99: [] };
      byC.set(c.concurrency, v);
      v.client50.push(o.p50Ms);
      v.client99.push(o.p99Ms);
      v.server50.push(split.serverP50Ms);
      v.server99.push(split.serverP99Ms);
    }
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    for (const [column, byC] of byColumn) {
      out.push({
        title: `${kind} · ${column}`,
        points: [...byC]
          .sort(([a], [b]) => a - b)
          .map(([concurrency, v]) => ({ concurrency, clientP50: mean(v.client50), clientP99: mean(v.client99), serverP50: mean(v.server50), serverP99: mean(v.server99) })),
      });
    }
  }
  return out;
}

/** The cells with a result, as the channel distribution and time series charts show one of them. */
export function cellChartData(job: JobView): CellChartData[] {
  return job.cells.flatMap((c) => (c.result ? [{ index: c.index, label: cellLabel(c), channels: c.channels, timeline: c.result.timeline, events: c.result.events ?? [] }] : []));
}
