import { formatMs, formatQps } from '../format';
import { clientText } from '../job/spec';
import { median, medianOverRepeats } from './stats';
import { VERDICT_MARK, worstVerdict, type VerdictKind } from './verdict';

export { formatMs, formatOps, formatPercent, formatQps, formatUtc } from '../format';

/** The stored facts a results table needs about one cell (pages and Markdown read the same shape). */
export interface TableCell {
  /** grpcVersion: the gRPC library (grpc-go, grpc-js) the client ran on, when pinned. */
  client: { language: string; version: string; grpcVersion?: string | null };
  configuration: { label: string };
  /** A gate's arm: arms with the same client and configuration (an A/A gate) stay apart. */
  arm?: string | null;
  concurrency: number;
  repeat: number;
  status: string;
  error?: string | null;
  /**
   * `uncorrected`: an open loop's latencies from each operation's actual start. A scan job's figures
   * (result-set/figures.ts) read the rest where stored.
   */
  result?: {
    qps: number;
    p50Ms: number;
    p99Ms: number;
    uncorrected?: { p99Ms: number } | null;
    count?: number;
    cpuMs?: number;
    elapsedMs?: number;
    wireBytes?: number | null;
    firstRowP50Ms?: number | null;
    firstRowP99Ms?: number | null;
    lastRowP50Ms?: number | null;
    lastRowP99Ms?: number | null;
  } | null;
  /** The same per operation kind of the mix, where kept. */
  operations?: Partial<Record<string, { qps: number; p50Ms: number; p99Ms: number; count?: number }>> | null;
  /** Which process limited the cell (results/verdict.ts), and the figures past their thresholds. */
  verdict?: VerdictKind | null;
  verdictReasons?: string;
  /** The throughput its configuration allows (results/ceiling.ts), where modeled. */
  ceilingQps?: number | null;
}

export interface TableEntry {
  qps: number;
  p50Ms: number;
  p99Ms: number;
  /** Repeats that produced a result; the numbers above are their medians. */
  repeats: number;
  qpsMin: number;
  qpsMax: number;
  /** The worst verdict of its repeats. */
  verdict: VerdictKind;
  /** The lowest modeled ceiling of its repeats (ops/s); null where none was modeled. */
  ceilingQps: number | null;
  /** An open loop: the median p99 counted from each operation's actual start; null for a closed loop. */
  uncorrectedP99Ms: number | null;
  failed: number;
  error?: string;
}

export interface ResultTable {
  /** Column groups: one per configuration, prefixed by the client when a job has several. */
  columns: string[];
  rows: { concurrency: number; entries: (TableEntry | null)[] }[];
}

const clientOf = (cell: Pick<TableCell, 'client'>) => clientText(cell.client);

function columnKey(cell: Pick<TableCell, 'client' | 'configuration' | 'arm'>, multiClient: boolean): string {
  const column = multiClient ? `${clientOf(cell)} · ${cell.configuration.label}` : cell.configuration.label;
  return cell.arm ? `${cell.arm}: ${column}` : column;
}

/** Rows by concurrency, column groups by configuration: the layout of google-cloud-java PR #12725. */
export function buildResultTable(cells: TableCell[]): ResultTable {
  const multiClient = new Set(cells.map(clientOf)).size > 1;
  const columns: string[] = [];
  for (const c of cells) {
    const k = columnKey(c, multiClient);
    if (!columns.includes(k)) columns.push(k);
  }
  const concurrencies = [...new Set(cells.map((c) => c.concurrency))].sort((a, b) => a - b);
  const rows = concurrencies.map((concurrency) => ({
    concurrency,
    entries: columns.map((col) => {
      const group = cells.filter((c) => c.concurrency === concurrency && columnKey(c, multiClient) === col);
      if (group.length === 0) return null;
      const done = group.filter((c) => c.result);
      const failed = group.filter((c) => c.status === 'failed');
      const ceilings = done.flatMap((c) => (c.ceilingQps != null ? [c.ceilingQps] : []));
      const uncorrected = done.flatMap((c) => (c.result!.uncorrected ? [c.result!.uncorrected.p99Ms] : []));
      return {
        ...medianOverRepeats(done.map((c) => c.result!)),
        verdict: worstVerdict(done.map((c) => c.verdict)),
        ceilingQps: ceilings.length ? Math.min(...ceilings) : null,
        uncorrectedP99Ms: uncorrected.length ? median(uncorrected) : null,
        failed: failed.length,
        error: failed[0]?.error ?? undefined,
      };
    }),
  }));
  return { columns, rows };
}

/**
 * "qps / p50 / p99" as in the PR table, medians over repeats with the qps range when there are
 * several, an open loop's uncorrected p99 after them; "*" marks a client-bound cell, "!" a harness-bound one; "failed" or "–" when there is no result.
 */
export function formatEntry(e: TableEntry | null): string {
  if (!e) return '';
  if (e.repeats === 0) return e.failed > 0 ? 'failed' : '–';
  const range = e.repeats > 1 ? ` (${formatQps(e.qpsMin)}–${formatQps(e.qpsMax)})` : '';
  const uncorrected = e.uncorrectedP99Ms != null ? ` (uncorrected p99 ${formatMs(e.uncorrectedP99Ms)})` : '';
  return `${formatQps(e.qps)}${range} / ${formatMs(e.p50Ms)} / ${formatMs(e.p99Ms)}${uncorrected}${e.verdict !== 'clean' ? ` ${VERDICT_MARK[e.verdict]}` : ''}`;
}
