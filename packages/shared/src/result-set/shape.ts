// The shape of a `scan` operation's result (the job's `workload.resultSet`): how many rows, which
// columns of which Spanner types, how the fake chunks it and how much of each row the application
// reads. Browser-safe: the launch form validates with it.
import { z } from 'zod';

/**
 * Every scalar type a Spanner query returns (TypeCode names). UUID came last (TypeCode 17; Spanner's
 * UUID type, 2026): not every client version decodes it, and the drivers refuse it by name where not.
 */
export const SCALAR_TYPES = ['BOOL', 'INT64', 'FLOAT32', 'FLOAT64', 'NUMERIC', 'STRING', 'BYTES', 'DATE', 'TIMESTAMP', 'JSON', 'UUID'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** A column's type as the spec writes it: a scalar, or `ARRAY<scalar>`. */
export const COLUMN_TYPES = [...SCALAR_TYPES, ...SCALAR_TYPES.map((t) => `ARRAY<${t}>` as const)] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** The types whose size `bytes` sets (each value's, or each element's in an array). */
const SIZED: readonly ScalarType[] = ['STRING', 'BYTES', 'JSON'];

/** DATE values' range when a column gives none: 1900-01-01 to 2100-12-31 (73,414 days). */
export const DEFAULT_DATE_RANGE = { from: '1900-01-01', to: '2100-12-31' } as const;

/**
 * How large a JSON value's integers are: `safe` (0 to 999,999: any client's float64 holds them exactly)
 * or `int64` (any signed 64-bit integer: nearly all beyond the 2^53 a float64 holds exactly).
 */
export const JSON_INTEGERS = ['safe', 'int64'] as const;

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;

/** A DATE as Spanner's wire carries it, within Spanner's range 0001-01-01 to 9999-12-31. */
const DateTextSchema = z
  .string()
  .regex(DATE_TEXT, 'must be a date as YYYY-MM-DD')
  // (Text of another form is refused above once.)
  .refine((d) => !DATE_TEXT.test(d) || (d >= '0001-01-01' && !Number.isNaN(dayMs(d))), 'must be a real date from 0001-01-01 to 9999-12-31');

/** A YYYY-MM-DD date's midnight UTC in ms since the epoch (NaN for text that is no date); years 0-99 too, which Date.UTC would move to the 1900s. */
export function dayMs(d: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d);
  if (!m) return Number.NaN;
  const t = new Date(0);
  t.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // A month or day out of range rolls over: not the date asked for.
  return t.getUTCFullYear() === Number(m[1]) && t.getUTCMonth() === Number(m[2]) - 1 && t.getUTCDate() === Number(m[3]) ? t.getTime() : Number.NaN;
}

/** How much of each row the application touches: every column, the first only, or none (it iterates rows). */
export const READ_MODES = ['all', 'first', 'none'] as const;
export type ReadMode = (typeof READ_MODES)[number];

export const MAX_RESULT_ROWS = 100_000;
/** What one result may weigh on the wire (estimated from the shape): the largest preset is 10 MB. */
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;
/**
 * The fake's PartialResultSet size when the spec gives none: about 1 MiB, as Spanner's own streams
 * (docs/findings/result-sets.md says where that figure comes from).
 */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

export const ResultColumnSchema = z.strictObject({
  type: z.enum(COLUMN_TYPES, { error: `must be one of ${SCALAR_TYPES.join(', ')} or ARRAY<…> of one of them` }),
  /** STRING, BYTES and JSON: each value's size in bytes (UTF-8 for text; an array's elements each). Default 16. */
  bytes: z
    .number()
    .int('must be a whole number')
    .min(0)
    .max(1024 * 1024, 'must be at most 1048576')
    .optional(),
  /** ARRAY<…>: elements per value. Default 4. */
  arrayLength: z.number().int('must be a whole number').min(0).max(1000, 'must be at most 1000').optional(),
  /** Share of NULL values (and NULL elements of arrays), 0..1. Default 0. */
  nullFraction: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  /** DATE and ARRAY<DATE>: the dates' range, both ends included (YYYY-MM-DD). Default 1900-01-01 to 2100-12-31. */
  dateRange: z.strictObject({ from: DateTextSchema, to: DateTextSchema }).optional(),
  /** JSON and ARRAY<JSON>: how large the integers of its number fields are (JSON_INTEGERS). Default `safe`. */
  jsonIntegers: z.enum(JSON_INTEGERS).optional(),
});
export type ResultColumn = z.infer<typeof ResultColumnSchema>;

export const ResultSetSchema = z
  .strictObject({
    rows: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_RESULT_ROWS, `must be at most ${MAX_RESULT_ROWS}`),
    columns: z.array(ResultColumnSchema).min(1, 'list at least one column').max(64, 'at most 64 columns'),
    /** The fake's PartialResultSet size in bytes (values split mid-value by chunked_value); Spanner's own on other targets. */
    chunkBytes: z
      .number()
      .int('must be a whole number')
      .min(64, 'must be at least 64')
      .max(16 * 1024 * 1024, 'must be at most 16777216')
      .optional(),
    read: z.enum(READ_MODES).default('all'),
    /** The values are generated from it: the same shape and seed give the same result everywhere. */
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .superRefine((s, ctx) => {
    s.columns.forEach((c, i) => {
      const scalar = scalarOf(c.type);
      if (c.bytes !== undefined && !SIZED.includes(scalar)) ctx.addIssue({ code: 'custom', path: ['columns', i, 'bytes'], message: `sizes STRING, BYTES and JSON values, not ${c.type}` });
      if (c.arrayLength !== undefined && !isArray(c.type)) ctx.addIssue({ code: 'custom', path: ['columns', i, 'arrayLength'], message: `is for ARRAY<…> columns, not ${c.type}` });
      if (c.dateRange !== undefined && scalar !== 'DATE') ctx.addIssue({ code: 'custom', path: ['columns', i, 'dateRange'], message: `is for DATE and ARRAY<DATE> columns, not ${c.type}` });
      else if (c.dateRange && c.dateRange.from > c.dateRange.to) ctx.addIssue({ code: 'custom', path: ['columns', i, 'dateRange', 'to'], message: `must not be before from (${c.dateRange.from})` });
      if (c.jsonIntegers !== undefined && scalar !== 'JSON') ctx.addIssue({ code: 'custom', path: ['columns', i, 'jsonIntegers'], message: `is for JSON and ARRAY<JSON> columns, not ${c.type}` });
    });
    const bytes = estimatedBytes(s);
    if (bytes > MAX_RESULT_BYTES)
      ctx.addIssue({ code: 'custom', path: ['rows'], message: `the result would weigh about ${Math.round(bytes / 1e6)} MB, more than the ${MAX_RESULT_BYTES / 1024 / 1024} MiB a result may` });
  });
export type ResultSet = z.output<typeof ResultSetSchema>;

export const isArray = (t: ColumnType): boolean => t.startsWith('ARRAY<');
export const scalarOf = (t: ColumnType): ScalarType => (isArray(t) ? (t.slice(6, -1) as ScalarType) : (t as ScalarType));

/** A column with its defaults filled in; the value options (dateRange, jsonIntegers) only where they change the values. */
export type FilledColumn = Required<Pick<ResultColumn, 'type' | 'bytes' | 'arrayLength' | 'nullFraction'>> & Pick<ResultColumn, 'dateRange' | 'jsonIntegers'>;

/**
 * A column's defaults filled in. A value option at its default is left out, so that a shape names the
 * same table (resultSetTable) whether it spells the default out or not, and the shapes from before
 * the option keep theirs.
 */
export function columnOf(c: ResultColumn): FilledColumn {
  const range = c.dateRange && (c.dateRange.from !== DEFAULT_DATE_RANGE.from || c.dateRange.to !== DEFAULT_DATE_RANGE.to) ? { from: c.dateRange.from, to: c.dateRange.to } : undefined;
  return {
    type: c.type,
    bytes: c.bytes ?? 16,
    arrayLength: c.arrayLength ?? 4,
    nullFraction: c.nullFraction ?? 0,
    ...(range && { dateRange: range }),
    ...(c.jsonIntegers === 'int64' && { jsonIntegers: 'int64' as const }),
  };
}

/** Roughly what a value of the column weighs as JSON on the wire. */
function valueBytes(c: FilledColumn): number {
  const scalar = scalarOf(c.type);
  const one = SIZED.includes(scalar) ? (scalar === 'BYTES' ? (c.bytes * 4) / 3 : c.bytes) + 4 : scalar === 'TIMESTAMP' ? 34 : scalar === 'UUID' ? 39 : 24;
  return isArray(c.type) ? one * c.arrayLength + 4 : one;
}

/** The result's estimated size on the wire, in bytes. */
export function estimatedBytes(s: Pick<ResultSet, 'rows' | 'columns'>): number {
  return s.rows * s.columns.reduce((sum, c) => sum + valueBytes(columnOf(c)), 0);
}

/** Column names: c0, c1, … */
export const columnName = (i: number): string => `c${i}`;

/** FNV-1a over a string's code units: a short stable name for a shape (browser-safe, unlike node:crypto). */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The table a shape's values live in (the emulator's and Cloud Spanner's), named after the values' shape and seed. */
export function resultSetTable(s: Pick<ResultSet, 'rows' | 'columns' | 'seed'>): string {
  const values = JSON.stringify({ rows: s.rows, seed: s.seed, columns: s.columns.map(columnOf) });
  return `ScanRows_${fnv(values).toString(16).padStart(8, '0')}`;
}

/**
 * The query a `scan` sends: every column of the shape's table, as many rows as the shape has, in the
 * order they were generated (`k` is the row's index: ddl.ts).
 */
export function resultSetSql(s: Pick<ResultSet, 'rows' | 'columns' | 'seed'>): string {
  return `SELECT ${s.columns.map((_, i) => columnName(i)).join(', ')} FROM ${resultSetTable(s)} ORDER BY k LIMIT ${s.rows}`;
}

/** The shape in words: "100 rows × 24 columns (STRING 16 B, ARRAY<INT64> ×4, …), read all". */
export function describeResultSet(s: ResultSet): string {
  const cols = s.columns.map((c) => {
    const d = columnOf(c);
    const parts: string[] = [c.type];
    if (c.bytes !== undefined) parts.push(`${d.bytes} B`);
    if (isArray(c.type)) parts.push(`×${d.arrayLength}`);
    if (d.nullFraction > 0) parts.push(`${Math.round(d.nullFraction * 100)}% NULL`);
    if (d.dateRange) parts.push(`${d.dateRange.from} to ${d.dateRange.to}`);
    if (d.jsonIntegers) parts.push(`${d.jsonIntegers} integers`);
    return parts.join(' ');
  });
  const distinct = [...new Set(cols)];
  const list = distinct.length <= 4 ? distinct.join(', ') : `${distinct.slice(0, 3).join(', ')}, … ${distinct.length - 3} more`;
  const chunks = s.chunkBytes !== undefined ? `, ${s.chunkBytes} B chunks` : '';
  return `${s.rows} rows × ${s.columns.length} columns (${list})${chunks}, read ${s.read}`;
}
