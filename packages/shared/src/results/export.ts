import { stringify } from 'csv-stringify/sync';

/** One CSV row per cell; the columns a spreadsheet needs to redo any table of the pages. */
export const CELL_CSV_COLUMNS = [
  'job',
  'cell',
  'language',
  'version',
  'configuration',
  'arm',
  'concurrency',
  'repeat',
  'status',
  'qps',
  'p50_ms',
  'p90_ms',
  'p99_ms',
  'p999_ms',
  'max_ms',
  'count',
  'error_count',
  'capped',
  'cpu_share',
  'warm_start',
  'driver_loop_utilization',
  'driver_loop_delay_p99_ms',
  'target_added_p50_ms',
  'target_added_p99_ms',
  'target_loop_utilization',
  'target_loop_delay_p99_ms',
  'target_cpu_share',
  'machine_busy_share',
  'machine_runner_share',
  'machine_load1',
  'verdict',
  'verdict_reasons',
  'channel_source',
  'connections_opened',
  'connections_used',
  'hottest_share',
  'hottest_peak_in_flight',
  'error',
  // Added later: after the first columns, so that a reader by position keeps working.
  'arrival_rate',
  'uncorrected_p50_ms',
  'uncorrected_p99_ms',
  'schedule_lag_p99_ms',
  'outstanding_cap_waits',
  'target_wire_added_p50_ms',
  'target_wire_added_p99_ms',
  'peak_rss_bytes',
  'gc_ms',
  // A scan job's (result-set/figures.ts); empty for other jobs.
  'rows_per_second',
  'cpu_ms_per_1k_rows',
  'first_row_p50_ms',
  'first_row_p99_ms',
  'last_row_p50_ms',
  'last_row_p99_ms',
  'wire_bytes',
  'wire_bytes_per_second',
  // An uploaded build in place of a published version: `version` is then what the build says it is.
  'artifact',
  'build_label',
  // The fake's credentials mode: RPCs whose bearer token was missing, expired or invalid (CellResult.tokens); empty otherwise.
  'tokens_refused',
] as const;

export type CsvRow = Record<(typeof CELL_CSV_COLUMNS)[number], string | number | boolean | null | undefined>;

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

function field(v: CsvRow[keyof CsvRow]): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3);
  // Only text is neutralised: a negative number of ours stays a number.
  const s = String(v);
  return FORMULA_START.test(s) ? `'${s}` : s;
}

export function toCsv(rows: CsvRow[]): string {
  return stringify([[...CELL_CSV_COLUMNS], ...rows.map((r) => CELL_CSV_COLUMNS.map((c) => field(r[c])))]);
}
