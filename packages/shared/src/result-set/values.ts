// A result set's values, generated from its shape and seed in the forms Spanner's wire carries them
// (google.protobuf.Value: INT64, NUMERIC, DATE, TIMESTAMP and JSON as strings, BYTES as base64, FLOAT
// specials as "NaN"/"Infinity"/"-Infinity"), and the checksum every driver computes over the values it
// decodes. The fake serves these values; the runner gives each driver the checksums they must give.
//
// The checksum (the drivers implement the same): per column, 32-bit FNV-1a over "units", starting at
// 0x811c9dc5, each unit folded as h = (h ^ unit) * 16777619 mod 2^32. Per row, the column's value:
//   NULL                      -> unit NULL
//   a scalar                  -> the units of its canonical form, then END
//   an array                  -> OPEN, each element (NULL, or its units then END), CLOSE
// A scalar's units: STRING its UTF-16 code units (the generated text is all in the BMP, so they are its
// code points too); BYTES its bytes; every other type the characters of its canonical text:
//   BOOL "true"/"false"; INT64 and NUMERIC the decimal as sent (NUMERIC without trailing fraction zeros);
//   FLOAT64/FLOAT32 "NaN", else the IEEE 754 bits as lower-case hex (16/8 digits); DATE "YYYY-MM-DD";
//   TIMESTAMP "<seconds since the epoch>.<nanoseconds, 9 digits>"; JSON its compact text (keys sorted);
//   UUID its lower-case 8-4-4-4-12 text (as the wire carries it).
import { columnOf, DEFAULT_DATE_RANGE, dayMs, type FilledColumn, isArray, type ResultColumn, type ResultSet, scalarOf, type ScalarType } from './shape';

export type WireValue = string | number | boolean | null | WireValue[];

export const CHECKSUM_START = 0x811c9dc5;
export const UNIT = { END: 0x110000, NULL: 0x110001, OPEN: 0x110002, CLOSE: 0x110003 } as const;

/** One unit folded into a checksum (FNV-1a, 32 bits); the drivers fold the same way. */
export const foldUnit = (h: number, unit: number): number => Math.imul(h ^ unit, 16777619);
const fold = foldUnit;

/** A text's UTF-16 code units folded in (no END: the caller closes the value). */
export function foldText(h: number, t: string): number {
  for (let i = 0; i < t.length; i++) h = fold(h, t.charCodeAt(i));
  return h;
}

/** mulberry32: small, fast, the same sequence everywhere. */
function random(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const valueSeed = (seed: number, column: number, row: number) => Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(column + 1, 0xc2b2ae35) ^ Math.imul(row + 1, 0x27d4eb2f);
const int = (r: () => number, n: number) => Math.floor(r() * n);

const ASCII = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ';
const WIDE = ['é', 'ß', 'ж', 'ñ', '漢', '字', '€', 'ā'];
const utf8Length = (ch: string) => (ch.charCodeAt(0) < 0x80 ? 1 : ch.charCodeAt(0) < 0x800 ? 2 : 3);

function text(r: () => number, bytes: number): string {
  let out = '';
  let n = 0;
  while (n < bytes) {
    const wide = r() < 0.1 ? WIDE[int(r, WIDE.length)]! : null;
    const ch = wide && n + utf8Length(wide) <= bytes ? wide : ASCII[int(r, ASCII.length)]!;
    out += ch;
    n += utf8Length(ch);
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    out += B64[a >> 2]! + B64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    out += b === undefined ? '=' : B64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    out += c === undefined ? '=' : B64[c & 63]!;
  }
  return out;
}

export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (const ch of clean) {
    const v = B64.indexOf(ch);
    if (v < 0) throw new Error(`not base64: ${JSON.stringify(text.slice(0, 20))}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function special(r: () => number): string | null {
  const x = r();
  return x < 0.02 ? 'NaN' : x < 0.04 ? 'Infinity' : x < 0.06 ? '-Infinity' : null;
}

const DAY_MS = 86_400_000;

/** Any signed 64-bit integer, uniformly: all but about one in 2^10 beyond ±2^53. */
const int64 = (r: () => number) => BigInt.asIntN(64, (BigInt(int(r, 2 ** 32)) << 32n) | BigInt(int(r, 2 ** 32)));

const HEX = '0123456789abcdef';

/**
 * A version-4 UUID (RFC 9562: version nibble 4, variant bits 10) drawn from `r`, in the canonical
 * lower-case 8-4-4-4-12 form Spanner's wire carries.
 */
function uuid(r: () => number): string {
  let out = '';
  for (let i = 0; i < 32; i++) {
    if (i === 8 || i === 12 || i === 16 || i === 20) out += '-';
    out += i === 12 ? '4' : i === 16 ? HEX[8 + int(r, 4)]! : HEX[int(r, 16)]!;
  }
  return out;
}

/** A generator draws one value of its type; `c` is the column (its size and value options). */
const GENERATORS: Record<ScalarType, (r: () => number, c: FilledColumn) => WireValue> = {
  BOOL: (r) => r() < 0.5,
  INT64: (r) => String(int64(r) >> BigInt(int(r, 63))),
  FLOAT64: (r) => special(r) ?? (r() * 2 - 1) * 10 ** (int(r, 40) - 20),
  FLOAT32: (r) => special(r) ?? Math.fround((r() * 2 - 1) * 10 ** (int(r, 20) - 10)),
  NUMERIC: (r) => {
    const whole = Array.from({ length: int(r, 30) }, (_, i) => (i === 0 ? 1 + int(r, 9) : int(r, 10))).join('') || '0';
    const fraction = Array.from({ length: int(r, 10) }, () => int(r, 10))
      .join('')
      .replace(/0+$/, '');
    const v = fraction ? `${whole}.${fraction}` : whole;
    return v !== '0' && r() < 0.5 ? `-${v}` : v;
  },
  STRING: (r, c) => text(r, c.bytes),
  BYTES: (r, c) => toBase64(Uint8Array.from({ length: c.bytes }, () => int(r, 256))),
  // Days drawn from the range (the default's 73,414 days from 1900-01-01); toISOString writes years 0001-9999 with four digits.
  DATE: (r, c) => {
    const { from, to } = c.dateRange ?? DEFAULT_DATE_RANGE;
    const start = dayMs(from);
    return new Date(start + int(r, (dayMs(to) - start) / DAY_MS + 1) * DAY_MS).toISOString().slice(0, 10);
  },
  TIMESTAMP: (r) => {
    const seconds = int(r, 4_102_444_800);
    return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${pad(int(r, 1e9), 9)}Z`;
  },
  // Fields k000, k001, … (sorted), text and integers in turn; `int64` integers span the whole 64-bit range.
  JSON: (r, { bytes, jsonIntegers }) => {
    const fields: string[] = [];
    let n = 2;
    for (let k = 0; n < bytes && k < 1000; k++) {
      const key = `"k${pad(k, 3)}":`;
      const value =
        k % 2 ? String(jsonIntegers === 'int64' ? int64(r) : int(r, 1_000_000)) : JSON.stringify(text(r, Math.max(1, Math.min(24, bytes - n - key.length - 3))).replace(/[^a-zA-Z0-9 ]/g, 'x'));
      fields.push(key + value);
      n += key.length + value.length + 1;
    }
    return `{${fields.join(',')}}`;
  },
  UUID: uuid,
};

/** The value of one cell of the result, as the wire carries it. */
export function generateValue(seed: number, column: number, row: number, c: ResultColumn): WireValue {
  const d = columnOf(c);
  const r = random(valueSeed(seed, column, row));
  if (d.nullFraction > 0 && r() < d.nullFraction) return null;
  const scalar = scalarOf(d.type);
  const gen = GENERATORS[scalar];
  if (!isArray(d.type)) return gen(r, d);
  return Array.from({ length: d.arrayLength }, () => (d.nullFraction > 0 && r() < d.nullFraction ? null : gen(r, d)));
}

/** Every row of the result, as the wire carries it. */
export function generateRows(s: Pick<ResultSet, 'rows' | 'columns' | 'seed'>): WireValue[][] {
  return Array.from({ length: s.rows }, (_, row) => s.columns.map((c, col) => generateValue(s.seed, col, row, c)));
}

const view = new DataView(new ArrayBuffer(8));

/** A FLOAT64's or FLOAT32's canonical text: "NaN" (whatever its bits), else its IEEE 754 bits in lower-case hex. */
export function floatBits(n: number, width: 32 | 64): string {
  if (Number.isNaN(n)) return 'NaN';
  if (width === 32) {
    view.setFloat32(0, n);
    return view.getUint32(0).toString(16).padStart(8, '0');
  }
  view.setFloat64(0, n);
  return view.getUint32(0).toString(16).padStart(8, '0') + view.getUint32(4).toString(16).padStart(8, '0');
}

/** A TIMESTAMP's RFC 3339 text as "<seconds>.<nanos, 9 digits>". */
export function timestampCanonical(rfc3339: string): string {
  const m = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(rfc3339);
  if (!m) throw new Error(`not a TIMESTAMP: ${rfc3339}`);
  const seconds = Math.floor(Date.parse(`${m[1]}${m[3]}`) / 1000);
  return `${seconds}.${(m[2] ?? '').padEnd(9, '0')}`;
}

/** A scalar's canonical text (for every type but STRING and BYTES, which fold their own units). */
export function canonicalText(type: ScalarType, v: WireValue): string {
  switch (type) {
    case 'BOOL':
      return v ? 'true' : 'false';
    // The wire's specials "NaN", "Infinity", "-Infinity" are what Number makes of them.
    case 'FLOAT64':
      return floatBits(Number(v), 64);
    case 'FLOAT32':
      return floatBits(Number(v), 32);
    case 'TIMESTAMP':
      return timestampCanonical(v as string);
    // Lower case, whatever case the text came in (Spanner sends lower case; a client may print upper).
    case 'UUID':
      return (v as string).toLowerCase();
    default:
      return String(v);
  }
}

function foldScalar(h: number, type: ScalarType, v: WireValue): number {
  if (type === 'BYTES') {
    for (const b of fromBase64(v as string)) h = fold(h, b);
  } else {
    h = foldText(h, type === 'STRING' ? (v as string) : canonicalText(type, v));
  }
  return fold(h, UNIT.END);
}

/** Folds one value of a column (wire form) into its checksum. */
export function foldValue(h: number, c: Pick<ResultColumn, 'type'>, v: WireValue): number {
  if (v === null) return fold(h, UNIT.NULL);
  const scalar = scalarOf(c.type);
  if (!isArray(c.type)) return foldScalar(h, scalar, v);
  h = fold(h, UNIT.OPEN);
  for (const e of v as WireValue[]) h = e === null ? fold(h, UNIT.NULL) : foldScalar(h, scalar, e);
  return fold(h, UNIT.CLOSE);
}

/** Each column's checksum over the rows (unsigned 32-bit). */
export function columnChecksums(columns: Pick<ResultColumn, 'type'>[], rows: WireValue[][]): number[] {
  return columns.map((c, i) => rows.reduce((h, row) => foldValue(h, c, row[i]!), CHECKSUM_START) >>> 0);
}
