// The `scan` operation: a single-use query whose result has the job's shape, read as the cell's
// `resultSet.read` says, its values folded into each column's checksum (@scb/shared result-set/values.ts
// defines it) and checked: a value decoded wrong ends the cell, naming the column and its type.
import type { DriverCell } from '@scb/shared/protocol';
import { CHECKSUM_START, floatBits, foldText, foldUnit, UNIT } from '@scb/shared/result-set';

type Shape = NonNullable<DriverCell['resultSet']>;
type Column = Shape['columns'][number];
type RowFormat = DriverCell['configuration']['nodeRows'];
type RowApi = DriverCell['configuration']['nodeScan'];

/**
 * The query options of each row format (the configuration's nodeRows): the client's Row by default
 * (an array of {name, value}); with `json` a plain object keyed by column name, INT64 and FLOAT values
 * as JS numbers unless `jsonOptions.wrapNumbers` keeps their wrappers.
 */
const QUERY_OPTIONS: Record<NonNullable<RowFormat>, object> = {
  rows: {},
  json: { json: true },
  'json-wrapNumbers': { json: true, jsonOptions: { wrapNumbers: true } },
};

const fold = foldUnit;

/** A FLOAT wrapper (Float, Float32) or a bare number, as its canonical bits. */
const floatText = (v: any, width: 32 | 64) => floatBits(Number(v !== null && typeof v === 'object' ? v.valueOf() : v), width);

/** The decoded value's canonical text, for the types that fold text (all but STRING and BYTES). */
const TEXT: Record<string, (v: any) => string> = {
  BOOL: (v) => (v ? 'true' : 'false'),
  // Int and Numeric wrap the decimal as sent; a bare number where a version or option unwraps it.
  INT64: (v) => String(typeof v === 'object' ? v.value : v),
  NUMERIC: (v) => {
    const t = String(typeof v === 'object' ? (v.value ?? v.valueOf()) : v);
    return t.includes('.') ? t.replace(/\.?0+$/, '') : t;
  },
  FLOAT64: (v) => floatText(v, 64),
  FLOAT32: (v) => floatText(v, 32),
  DATE: (v) => (typeof v === 'string' ? v : v.toJSON()),
  // PreciseDate keeps the nanoseconds; a plain Date (older versions) only milliseconds.
  TIMESTAMP: (v) => {
    const ns = typeof v.getFullTimeString === 'function' ? BigInt(v.getFullTimeString()) : BigInt(v.getTime()) * 1_000_000n;
    return `${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
  },
  JSON: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
  // Every version hands the wire's text over as it came: those that know TypeCode UUID (8.4.0 on) have
  // no decoder for it, and the older ones' decode() leaves a type code it does not know as it is.
  UUID: (v) => String(v).toLowerCase(),
};

function foldScalar(h: number, type: string, v: any): number {
  if (type === 'STRING') h = foldText(h, v);
  else if (type === 'BYTES') for (const b of v as Uint8Array) h = fold(h, b);
  else h = foldText(h, TEXT[type]!(v));
  return fold(h, UNIT.END);
}

function foldValue(h: number, c: Column, v: any): number {
  if (v === null || v === undefined) return fold(h, UNIT.NULL);
  if (!c.array) return foldScalar(h, c.type, v);
  h = fold(h, UNIT.OPEN);
  for (const e of v) h = e === null ? fold(h, UNIT.NULL) : foldScalar(h, c.type, e);
  return fold(h, UNIT.CLOSE);
}

/** Ends the driver: a wrong value is a failed cell, whatever the rest measures. */
function mismatch(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(5);
}

/** A scan's times from its start, ms: to the first row the client handed over, to the last row read. */
export interface RowTimes {
  firstRowMs: number;
  lastRowMs: number;
}

/**
 * The query, run on a Database in the row format asked for; each answer's rows read and checked. With
 * `run` (the default) the client hands every row over at once: the first row comes when `run()`
 * resolves, and the last is read once every column the application reads has been folded. With
 * `runStream` the application takes the rows one at a time (`for await` over `runStream()`: the
 * stream is paused while it reads one) and folds each as it comes.
 */
export function scan(database: any, shape: Shape, format: RowFormat = 'rows', api: RowApi = 'run'): () => Promise<RowTimes> {
  const read = shape.read === 'all' ? shape.columns.length : shape.read === 'first' ? 1 : 0;
  const query = { sql: shape.sql, ...QUERY_OPTIONS[format] };
  const json = format !== 'rows';
  const columns = shape.columns.slice(0, read);
  const value = (row: any, i: number) => (json ? row[columns[i]!.name] : row[i].value);
  const check = (rows: number, sums: number[]) => {
    if (rows !== shape.rows) mismatch(`scan: ${rows} rows decoded, the result has ${shape.rows} (read ${shape.read}, ${api === 'runStream' ? 'database.runStream()' : 'database.run()'})`);
    columns.forEach((c, i) => {
      const h = sums[i]! >>> 0;
      if (h !== c.checksum) {
        const type = c.array ? `ARRAY<${c.type}>` : c.type;
        mismatch(`scan: column ${c.name} (${type}) decoded to values whose checksum is ${h.toString(16)}, the result's is ${c.checksum.toString(16)} (read ${shape.read}, ${shape.rows} rows)`);
      }
    });
  };
  if (api === 'runStream')
    return async () => {
      const t0 = performance.now();
      let firstRowMs = 0;
      let rows = 0;
      const sums = columns.map(() => CHECKSUM_START);
      for await (const row of database.runStream({ ...query })) {
        if (rows++ === 0) firstRowMs = performance.now() - t0;
        for (let i = 0; i < columns.length; i++) sums[i] = foldValue(sums[i]!, columns[i]!, value(row, i));
      }
      check(rows, sums);
      return { firstRowMs, lastRowMs: performance.now() - t0 };
    };
  return async () => {
    const t0 = performance.now();
    const [rows] = await database.run({ ...query });
    const firstRowMs = performance.now() - t0;
    // Column by column over the rows the client handed over.
    const sums = columns.map((c, i) => {
      let h = CHECKSUM_START;
      if (json) for (const row of rows) h = foldValue(h, c, row[c.name]);
      else for (const row of rows) h = foldValue(h, c, row[i].value);
      return h;
    });
    check(rows.length, sums);
    return { firstRowMs, lastRowMs: performance.now() - t0 };
  };
}
