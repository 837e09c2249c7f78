import { CHANNEL_SOURCE_TEXT } from '@scb/shared/channels';
import { clientText, describeConfiguration } from '@scb/shared/job';
import { formatMs, formatPercent, formatQps } from '@scb/shared/table';
import { CellVerdictMark } from '@/components/CellVerdictMark';
import { StatusBadge } from '@/components/StatusBadge';
import { TableHead } from '@/components/TableHead';
import { machineOthersShare, type CellView } from '@/lib/jobs';
import { CELL_COLUMNS } from './cell-columns';

/** What set a cell's ceiling, in words. */
const CEILING_WORDS: Record<string, string> = { agents: 'agents', think: 'agents and think time', streams: 'stream limit', pool: 'session pool' };

/** What a cost cap that ended a cell counted, in words. */
const CAPPED_WORDS: Record<string, string> = { ops: 'operations', time: 'seconds', sessions: 'sessions created' };

/** Every repeat of every cell on its own row: status, result, verdict, the processes' load and the connections. */
export function CellsTable({ cells }: { cells: CellView[] }) {
  return (
    <>
      <h2>Cells</h2>
      <p className="muted">
        Every repeat on its own row. Connections: opened / used by the client; hottest: the busiest connection&apos;s share of RPCs and its peak streams in flight (the server allows 100 per
        connection). Verdict: which process limited the cell while it measured (client-bound: the driver; harness-bound: the fake or the machine, and that cell must not be compared;
        configuration-bound: a limit of its own configuration, such as the streams of its connections, held it at its ceiling); hover it for the figures. Under qps: its share of the ceiling its
        configuration allows, where the target reports its server time. CPU: the driver&apos;s share of the machine&apos;s cores (Node: also its event loop). Fake: its added time per RPC and its
        thread&apos;s event loop. Machine: all processes&apos; CPU, the part of it that was neither the driver nor the runner, and the load average.
      </p>
      <table data-testid="cells-table">
        <TableHead
          columns={[
            ...CELL_COLUMNS,
            'Status',
            'qps',
            'Verdict',
            'p50',
            'p90',
            'p99',
            'max',
            'Errors',
            'CPU',
            'Target: fake added p50 / p99 · loop, or CPU',
            'Machine',
            'Connections',
            'Hottest',
            'RPCs / peak in-flight per connection',
          ]}
        />
        <tbody>
          {cells.map((c) => (
            <CellRow key={c.index} c={c} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function CellRow({ c }: { c: CellView }) {
  const others = c.result ? machineOthersShare(c.result) : null;
  return (
    <tr data-cell={c.index}>
      <td className="num">{c.index + 1}</td>
      <td>
        {c.arm && <span className="muted">{c.arm} </span>}
        {clientText(c.client)}
      </td>
      <td>{describeConfiguration(c.configuration)}</td>
      <td className="num">{c.concurrency}</td>
      <td className="num">{c.repeat}</td>
      <td>
        <StatusBadge status={c.status} />
        {c.error && <div className="error">{c.error}</div>}
        {c.attempts > 1 && <div className="hint">ran {c.attempts} times: its runner died during an earlier run</div>}
      </td>
      <td className="num">
        {c.result ? formatQps(c.result.qps) : ''}
        {c.result?.ceiling && (
          <div className="hint" data-testid="of-ceiling" title={`no limits: ${formatQps(c.result.ceiling.noLimitsQps)}/s (agents over the server's time per operation)`}>
            {formatPercent(c.result.qps / c.result.ceiling.qps)} of {formatQps(c.result.ceiling.qps)}/s ceiling ({CEILING_WORDS[c.result.ceiling.limit]})
          </div>
        )}
        {c.result?.capped && <div className="hint">ended by the cost cap on {CAPPED_WORDS[c.result.capped] ?? c.result.capped}</div>}
        {c.result?.tokens && (
          <div className={c.result.tokens.missing + c.result.tokens.expired + c.result.tokens.invalid ? 'warn' : 'hint'} data-testid="tokens">
            tokens: {c.result.tokens.valid} valid, {c.result.tokens.missing} missing, {c.result.tokens.expired} expired, {c.result.tokens.invalid} invalid
          </div>
        )}
        {c.result?.warmStart && !c.result.warmStart.warm && (
          <div className="warn" title="the warm-up was too short: the first measured window ran at another rate than the rest">
            not warm: {formatQps(c.result.warmStart.firstRate)}/s first, {formatQps(c.result.warmStart.medianRate)}/s after
          </div>
        )}
      </td>
      <td>{c.result && <CellVerdictMark verdict={c.result.verdict} />}</td>
      <td className="num">{c.result ? formatMs(c.result.p50Ms) : ''}</td>
      <td className="num">{c.result ? formatMs(c.result.p90Ms) : ''}</td>
      <td className="num">{c.result ? formatMs(c.result.p99Ms) : ''}</td>
      <td className="num">{c.result ? formatMs(c.result.maxMs) : ''}</td>
      <td>
        {c.result
          ? c.result.errorCount
            ? Object.entries(c.result.errors)
                .map(([k, v]) => `${k} ${v}`)
                .join(', ')
            : '0'
          : ''}
      </td>
      <td className="num">
        {c.result ? (
          <>
            {formatPercent(c.result.cpuShare)}
            {c.result.driverLoopUtilization != null && (
              <div className="small muted" title="the Node driver's one event loop while measuring: busy share, and p99 of its delay">
                loop {formatPercent(c.result.driverLoopUtilization)} · {formatMs(c.result.driverLoopDelayP99Ms ?? Number.NaN)} ms
              </div>
            )}
          </>
        ) : (
          ''
        )}
      </td>
      <td className="num" title="the fake's own time per RPC beyond the latency it applied, over the whole cell">
        {c.result?.targetAddedP50Ms != null ? `${formatMs(c.result.targetAddedP50Ms)} / ${formatMs(c.result.targetAddedP99Ms ?? Number.NaN)}` : ''}
        {c.result?.targetLoopUtilization != null && (
          <div className="small muted" title="the fake's thread while measuring: event loop busy share, and p99 of its delay">
            loop {formatPercent(c.result.targetLoopUtilization)} · {formatMs(c.result.targetLoopDelayP99Ms ?? Number.NaN)} ms
          </div>
        )}
        {c.result?.targetCpuShare != null && <div title="the target's own process (the emulator) while measuring, as a share of all cores">CPU {formatPercent(c.result.targetCpuShare)}</div>}
      </td>
      <td className="num" title="while measuring: all processes' CPU as a share of all cores; others: neither the driver nor the runner (which hosts the fake); one-minute load">
        {c.result?.machineBusyShare != null && others !== null && (
          <>
            {formatPercent(c.result.machineBusyShare)}
            <div className="small muted">
              others {formatPercent(others)}
              {' · load'} {c.result.machineLoad1?.toFixed(1)}
            </div>
          </>
        )}
      </td>
      <td className="num">
        {c.result && c.channelSource && (
          <span title={CHANNEL_SOURCE_TEXT[c.channelSource]}>
            {c.channelSummary.opened} / {c.channelSummary.used} <span className="hint">{c.channelSource}</span>
          </span>
        )}
        {c.result &&
          c.otherChannelCounts.map((o) => (
            <div key={o.source} className="hint" title={CHANNEL_SOURCE_TEXT[o.source]}>
              {o.source}: {o.summary.opened} / {o.summary.used} · {formatPercent(o.summary.hottestShare)} · {o.summary.hottestPeakInFlight}
            </div>
          ))}
      </td>
      <td className="num">{c.result ? `${formatPercent(c.channelSummary.hottestShare)} · ${c.channelSummary.hottestPeakInFlight}` : ''}</td>
      <td className="small">
        {c.channels.some((ch) => ch.rpcs > 0) && (
          <details>
            <summary>{c.channelSummary.used} connection(s)</summary>
            {c.channels
              .filter((ch) => ch.rpcs > 0)
              .map((ch) => `${ch.rpcs} / ${ch.peakInFlight}`)
              .join(' · ')}
          </details>
        )}
      </td>
    </tr>
  );
}
