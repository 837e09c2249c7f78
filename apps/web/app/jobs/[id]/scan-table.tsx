import { clientText } from '@scb/shared/job';
import { describeResultSet, rowTimeFigures, scanFigures } from '@scb/shared/result-set';
import { formatMs, formatQps } from '@scb/shared/table';
import { TableHead } from '@/components/TableHead';
import type { JobView } from '@/lib/jobs';
import { CELL_COLUMNS } from './cell-columns';

const rate = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));

/** "1.2 / 3.4": a p50 and a p99 in ms. */
const pair = (p50: number, p99: number) => `${formatMs(p50)} / ${formatMs(p99)}`;

/** A scan job's result-set figures per cell: rows per second, the driver's CPU per 1,000 rows, the times to the first row and the last, the wire's bytes. */
export function ScanTable({ job }: { job: JobView }) {
  const shape = job.spec.workload.resultSet;
  if (!shape) return null;
  return (
    <>
      <h2>Result set</h2>
      <p className="muted" data-testid="scan-shape">
        {describeResultSet(shape)}. Every value the application reads is decoded into the language&apos;s own types and checked against the result&apos;s checksum (a wrong value fails the cell).
        Rows/s: rows decoded per second of the measured phase. Peak memory: the driver process&apos;s resident high-water mark. GC: time its runtime spent collecting garbage while measuring
        (Java&apos;s collectors, Go&apos;s pauses, Node&apos;s GC events). CPU per 1,000 rows: the driver process&apos;s CPU while measuring, divided by the rows it read
        {job.spec.workload.mix ? ' (with a mix, every operation’s CPU counts against the scans’ rows)' : ''}. First row and last row: from a scan&apos;s start to the first row the client handed the
        application, and to the application having read the last, p50 / p99 in ms (Node&apos;s <code>run()</code> hands every row over at once, when the whole result has arrived). Wire: bytes per
        second the target sent the driver, as the connection tap or the fake counted them.
      </p>
      <table data-testid="scan-table">
        <TableHead columns={[...CELL_COLUMNS, 'Scans/s', 'Rows/s', 'CPU ms / 1,000 rows', 'p50', 'p99', 'Peak memory', 'GC', 'First row p50 / p99', 'Last row p50 / p99', 'Wire MB/s']} />
        <tbody>
          {job.cells.map((c) => {
            const f = c.result ? scanFigures(shape.rows, c.result) : null;
            const o = c.result?.operations?.scan;
            const t = c.result ? rowTimeFigures(c.result) : null;
            return (
              <tr key={c.index} data-cell={c.index}>
                <td className="num">{c.index + 1}</td>
                <td>{clientText(c.client)}</td>
                <td>{c.configuration.label}</td>
                <td className="num">{c.concurrency}</td>
                <td className="num">{c.repeat}</td>
                <td className="num">{o ? formatQps(o.qps) : '–'}</td>
                <td className="num">{f ? rate(f.rowsPerSecond) : '–'}</td>
                <td className="num">{f ? f.cpuMsPer1kRows.toFixed(3) : '–'}</td>
                <td className="num">{o ? formatMs(o.p50Ms) : '–'}</td>
                <td className="num">{o ? formatMs(o.p99Ms) : '–'}</td>
                <td className="num">{c.result?.peakRssBytes != null ? `${Math.round(c.result.peakRssBytes / 2 ** 20)} MiB` : '–'}</td>
                <td className="num">{c.result?.gcMs != null ? formatMs(c.result.gcMs) : '–'}</td>
                <td className="num">{t ? pair(t.firstRowP50Ms, t.firstRowP99Ms) : '–'}</td>
                <td className="num">{t ? pair(t.lastRowP50Ms, t.lastRowP99Ms) : '–'}</td>
                <td className="num">{f?.wireBytesPerSecond != null ? (f.wireBytesPerSecond / 1e6).toFixed(2) : '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
