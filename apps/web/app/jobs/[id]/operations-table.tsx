import { clientText } from '@scb/shared/job';
import { formatMs, formatPercent, formatQps } from '@scb/shared/table';
import { ClientServerCharts } from '@/components/ConcurrencyCharts';
import { TableHead } from '@/components/TableHead';
import { clientServerData } from '@/lib/job-charts';
import { operationRows, type JobView } from '@/lib/jobs';
import { CELL_COLUMNS } from './cell-columns';

/** Every cell's result per operation kind of the mix, in mix order. */
export function OperationsTable({ job }: { job: JobView }) {
  return (
    <>
      <h2>Per operation kind: client vs server</h2>
      <p className="muted">
        Each kind of the mix measured on its own over the measured phase; a cell&apos;s kinds add up to its total above. Client latency is the whole operation as the client saw it (a transaction:
        every RPC of it, retries included). Server: the fake&apos;s own time for the RPCs of that kind, per RPC and per operation (RPCs per operation × its percentile). Header: the same read by the
        client from each RPC&apos;s server-timing header (Cloud Spanner&apos;s front end sends it, and so does the fake), read by the Node, Java and Go drivers; it leaves out background RPCs such as
        session creation. The gap is the client&apos;s p50 the server does not account for (the fake&apos;s figures, else the header&apos;s): waiting for a session or a stream, backoff, reconnects.
      </p>
      <ClientServerCharts data={clientServerData(job)} />
      <table data-testid="operations-table">
        <TableHead
          columns={[...CELL_COLUMNS, 'Operation', 'count', 'qps', 'p50', 'p90', 'p99', 'max', 'Errors', 'Server RPCs / op', 'Server p50 / p99 per RPC', 'Header RPCs / op · p50 / p99', 'Gap (p50)']}
        />
        <tbody>
          {operationRows(job).map(({ cell: c, kind, summary: o, split }) => (
            <tr key={`${c.index}-${kind}`} data-cell={c.index} data-operation={kind}>
              <td className="num">{c.index + 1}</td>
              <td>{clientText(c.client)}</td>
              <td>{c.configuration.label}</td>
              <td className="num">{c.concurrency}</td>
              <td className="num">{c.repeat}</td>
              <td>{kind}</td>
              <td className="num">{o.count}</td>
              <td className="num">{formatQps(o.qps)}</td>
              <td className="num">{formatMs(o.p50Ms)}</td>
              <td className="num">{formatMs(o.p90Ms)}</td>
              <td className="num">{formatMs(o.p99Ms)}</td>
              <td className="num">{formatMs(o.maxMs)}</td>
              <td className="num">
                {o.errorCount
                  ? `${o.errorCount} (${Object.entries(o.errors)
                      .map(([code, n]) => `${code} ${n}`)
                      .join(', ')})`
                  : 0}
              </td>
              <td className="num">{o.server ? o.server.rpcsPerOp.toFixed(2) : '–'}</td>
              <td className="num">{o.server ? `${formatMs(o.server.p50Ms)} / ${formatMs(o.server.p99Ms)}` : '–'}</td>
              <td className="num" data-testid="server-timing">
                {o.serverTiming ? `${o.serverTiming.rpcsPerOp.toFixed(2)} · ${formatMs(o.serverTiming.p50Ms)} / ${formatMs(o.serverTiming.p99Ms)}` : '–'}
              </td>
              <td className="num" data-testid="gap">
                {split ? `${formatMs(split.gapP50Ms)} ms (${formatPercent(split.gapShare)})` : '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
