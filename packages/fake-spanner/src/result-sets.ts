// The answers of `scan` queries (@scb/shared result-set): each shape's generated values streamed as
// Spanner streams a large result, in PartialResultSets of about `chunkBytes` (resume tokens where a part
// ends on a completed row, `last` on the last part), a
// string or list that does not fit split mid-value (`chunked_value`) by the merge rules of
// google/spanner/v1/result_set.proto. Encoded once per shape, then sent as bytes.
import { DEFAULT_CHUNK_BYTES, generateRows, isArray, resultSetSql, type ResultSet, scalarOf, type WireValue, columnName } from '@scb/shared/result-set';
import { spannerService } from './proto';

type ProtoValue = { stringValue: string } | { numberValue: number } | { boolValue: boolean } | { nullValue: 'NULL_VALUE' } | { listValue: { values: ProtoValue[] } };

/** JSON has no NaN or infinities: the wire carries them as strings (generated so already). */
function protoValue(v: WireValue): ProtoValue {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'number') return { numberValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  return { listValue: { values: v.map(protoValue) } };
}

/** About what a value weighs in the encoded message (a tag and a length per field). */
function weight(v: WireValue): number {
  if (v === null || typeof v === 'boolean') return 2;
  if (typeof v === 'number') return 9;
  if (typeof v === 'string') return utf8Bytes(v) + 3;
  return v.reduce((n: number, e) => n + weight(e), 4);
}

function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

/** The longest prefix of `s` (at least one character, leaving at least one) within `bytes`; null when none. */
function splitString(s: string, bytes: number): [string, string] | null {
  if (s.length < 2) return null;
  let n = 0;
  let k = 0;
  while (k < s.length - 1) {
    const c = s.charCodeAt(k);
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (n + w > bytes) break;
    n += w;
    k++;
  }
  return [s.slice(0, Math.max(1, k)), s.slice(Math.max(1, k))];
}

/**
 * Splits a value so that its head weighs about `bytes`: a string anywhere inside; a list inside the
 * element at the boundary when that is a string (the merge concatenates the head's last string with
 * the tail's first), or between elements when neither side of the boundary is a string (a string
 * before a number or NULL would be merged with it: Go's client refuses that). Null when it cannot.
 */
export function splitValue(v: WireValue, bytes: number): [WireValue, WireValue] | null {
  if (typeof v === 'string') return splitString(v, bytes - 3);
  if (!Array.isArray(v) || v.length === 0) return null;
  let n = 4;
  let j = 0;
  while (j < v.length && n + weight(v[j]!) <= bytes) n += weight(v[j++]!);
  if (j === v.length) j = v.length - 1;
  const at = v[j]!;
  if (typeof at === 'string') {
    const s = splitString(at, bytes - n - 3);
    return s
      ? [
          [...v.slice(0, j), s[0]],
          [s[1], ...v.slice(j + 1)],
        ]
      : null;
  }
  const before = v[j - 1];
  if (j === 0) return null;
  if (typeof before === 'string') {
    const s = splitString(before, Math.max(1, weight(before) - 4));
    return s
      ? [
          [...v.slice(0, j - 1), s[0]],
          [s[1], ...v.slice(j)],
        ]
      : null;
  }
  return [v.slice(0, j), v.slice(j)];
}

export interface EncodedResult {
  /** The PartialResultSets as sent, the first with the metadata. */
  parts: object[];
  encoded: Buffer[];
}

/** The shape's rows as PartialResultSets of about `chunkBytes` each. */
export function chunkResult(shape: ResultSet, corruptPart?: number): EncodedResult {
  const chunkBytes = shape.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const metadata = {
    rowType: {
      fields: shape.columns.map((c, i) => {
        const code = scalarOf(c.type);
        return { name: columnName(i), type: isArray(c.type) ? { code: 'ARRAY', arrayElementType: { code } } : { code } };
      }),
    },
  };
  // `rowEnd`: the part ends on a completed row, where Spanner puts a resume token.
  const parts: { values: WireValue[]; chunked: boolean; rowEnd: boolean }[] = [];
  let values: WireValue[] = [];
  let size = 0;
  const close = (chunked: boolean, rowEnd: boolean) => {
    parts.push({ values, chunked, rowEnd });
    values = [];
    size = 0;
  };
  for (const row of generateRows(shape)) {
    row.forEach((value, i) => {
      let v = value;
      for (;;) {
        const w = weight(v);
        if (size + w <= chunkBytes || (size === 0 && !splitValue(v, chunkBytes))) {
          values.push(v);
          size += w;
          break;
        }
        const split = chunkBytes - size >= 8 ? splitValue(v, chunkBytes - size) : null;
        if (!split) {
          close(false, i === 0 && v === value);
          continue;
        }
        values.push(split[0]);
        close(true, false);
        v = split[1];
      }
      if (size >= chunkBytes) close(false, i === row.length - 1);
    });
  }
  if (values.length) close(false, true);
  if (corruptPart !== undefined) corrupt(parts[Math.min(corruptPart, parts.length) - 1]!.values);
  const protoParts = parts.map((p, i) => ({
    ...(i === 0 ? { metadata } : {}),
    values: p.values.map(protoValue),
    ...(p.chunked ? { chunkedValue: true } : {}),
    // As Spanner: a resume token where a part ends on a completed row, none on a chunked part or the last.
    ...(p.rowEnd && i < parts.length - 1 ? { resumeToken: Buffer.from(`scan-${i + 1}`) } : {}),
    ...(i === parts.length - 1 ? { last: true } : {}),
  }));
  const serialize = spannerService().ExecuteStreamingSql.responseSerialize;
  return { parts: protoParts, encoded: protoParts.map((p) => serialize(p) as Buffer) };
}

/**
 * The fake's fault `corruptResultSetPart`: one value of the part changed but still valid for its type —
 * a letter of its first text of letters (a STRING's), a UUID's first hex digit, else a BOOL flipped —
 * so only a client that checks what it decoded notices.
 */
function corrupt(values: WireValue[]): void {
  const change = (v: WireValue): WireValue | undefined => {
    // A UUID (or the head of one split across parts): no other type's wire text starts so.
    if (typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(v)) return (v[0] === '0' ? '1' : '0') + v.slice(1);
    if (typeof v === 'string' && /^[^{]*[a-zA-Z]/.test(v) && !/^\d{4}-|^-?\d|^[A-Za-z0-9+/]*=*$/.test(v)) {
      const i = v.search(/[a-zA-Z]/);
      return v.slice(0, i) + (v[i] === 'a' ? 'b' : 'a') + v.slice(i + 1);
    }
    if (typeof v === 'boolean') return !v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c = change(v[i]!);
        if (c !== undefined) return [...v.slice(0, i), c, ...v.slice(i + 1)];
      }
    }
    return undefined;
  };
  for (let i = 0; i < values.length; i++) {
    const c = change(values[i]!);
    if (c !== undefined) {
      values[i] = c;
      return;
    }
  }
  throw new Error('corruptResultSetPart: the part holds no STRING, UUID or BOOL value to change');
}

/** The scan answers the fake knows, by their query text. */
export class ResultSets {
  private readonly bySql = new Map<string, { shape: ResultSet; result?: EncodedResult }>();
  constructor(private readonly corruptPart?: number) {}

  add(shape: ResultSet): string {
    const sql = resultSetSql(shape);
    this.bySql.set(sql, { shape });
    return sql;
  }

  has(sql: string): boolean {
    return this.bySql.has(sql);
  }

  /** The encoded answer, made on first use. */
  answer(sql: string): EncodedResult | undefined {
    const e = this.bySql.get(sql);
    if (e) e.result ??= chunkResult(e.shape, this.corruptPart);
    return e?.result;
  }
}
