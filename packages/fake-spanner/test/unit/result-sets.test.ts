// The fake's scan answers: the chunked stream reassembles, by result_set.proto's merge rules, into
// exactly the generated rows, whatever the chunk size; a value split mid-way is never a number, bool
// or NULL, and a list is never split where a string would meet a non-string.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COLUMN_TYPES, columnChecksums, generateRows, ResultSetSchema, type WireValue } from '@scb/shared/result-set';
import { chunkResult, splitValue } from '../../src/result-sets';
import { spannerService } from '../../src/proto';

type Proto = { kind?: string; stringValue?: string; numberValue?: number; boolValue?: boolean; listValue?: { values?: Proto[] } };

const wire = (v: Proto): WireValue => {
  if (v.kind === 'stringValue') return v.stringValue!;
  if (v.kind === 'numberValue') return v.numberValue!;
  if (v.kind === 'boolValue') return v.boolValue!;
  if (v.kind === 'listValue') return (v.listValue?.values ?? []).map(wire);
  return null;
};

/** result_set.proto's rules, strictly: strings concatenate; lists concatenate, merging last and first when both are strings or both lists. */
function merge(a: WireValue, b: WireValue): WireValue {
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (!a.length || !b.length) return [...a, ...b];
    const last = a[a.length - 1]!;
    const first = b[0]!;
    const mergeable = (typeof last === 'string' && typeof first === 'string') || (Array.isArray(last) && Array.isArray(first));
    // Go's client refuses a list chunk whose last string meets a non-string: the fake must never send one.
    assert.ok(mergeable || typeof last !== 'string', `a list split after a string, before ${JSON.stringify(first)}`);
    return mergeable ? [...a.slice(0, -1), merge(last, first), ...b.slice(1)] : [...a, ...b];
  }
  throw new Error(`a chunked ${typeof a} cannot be merged with ${typeof b}`);
}

/** What a client does: decode each sent message, merge chunked values, cut the values into rows. */
function reassemble(encoded: Buffer[], width: number): WireValue[][] {
  const decode = spannerService().ExecuteStreamingSql.responseDeserialize;
  const values: WireValue[] = [];
  let pending: WireValue | undefined;
  let tokensMissing = 0;
  encoded.forEach((bytes, i) => {
    const p = decode(bytes) as { values?: Proto[]; chunkedValue?: boolean; resumeToken?: Buffer; metadata?: object; last?: boolean };
    assert.equal(p.metadata !== undefined, i === 0, 'metadata in the first part only');
    assert.equal(p.last === true, i === encoded.length - 1, '`last` on the last part only');
    const vs = (p.values ?? []).map(wire);
    // A resume token only where the part ends on a completed row: never on a chunked part or the last.
    const rowEnd = !p.chunkedValue && (values.length + vs.length) % width === 0;
    if (p.resumeToken?.length) assert.ok(rowEnd && !p.last, `part ${i + 1}: a resume token mid-row`);
    else if (rowEnd && !p.last) tokensMissing++;
    if (pending !== undefined) vs[0] = merge(pending, vs[0]!);
    pending = p.chunkedValue ? vs.pop() : undefined;
    if (pending !== undefined) assert.ok(typeof pending === 'string' || Array.isArray(pending), 'only strings and lists are chunked');
    values.push(...vs);
  });
  assert.equal(pending, undefined, 'the last part completes its value');
  assert.equal(tokensMissing, 0, 'every part that ends on a completed row (but the last) has a resume token');
  const rows: WireValue[][] = [];
  for (let i = 0; i < values.length; i += width) rows.push(values.slice(i, i + width));
  return rows;
}

const everyType = ResultSetSchema.parse({
  rows: 40,
  columns: COLUMN_TYPES.map((type) => ({ type, nullFraction: 0.1, ...(type.includes('STRING') || type.includes('BYTES') || type.includes('JSON') ? { bytes: 40 } : {}) })),
  seed: 7,
});

test('every type, every chunk size from 64 bytes to one part: the stream reassembles into the generated rows', () => {
  const rows = generateRows(everyType);
  for (const chunkBytes of [64, 100, 257, 1024, 16_384, undefined]) {
    const { encoded } = chunkResult({ ...everyType, chunkBytes });
    if (chunkBytes !== undefined && chunkBytes < 1024) assert.ok(encoded.length > 40, `${chunkBytes} B: ${encoded.length} parts`);
    if (chunkBytes === undefined) assert.equal(encoded.length, 1);
    assert.deepEqual(reassemble(encoded, everyType.columns.length), rows, `chunkBytes ${chunkBytes}`);
  }
});

test('parts stay near chunkBytes: a long string is split across parts rather than sent whole', () => {
  const shape = ResultSetSchema.parse({ rows: 3, columns: [{ type: 'STRING', bytes: 10_000 }], chunkBytes: 1000 });
  const { encoded } = chunkResult(shape);
  assert.ok(encoded.length >= 30, `${encoded.length} parts for 30 kB`);
  for (const b of encoded.slice(0, -1)) assert.ok(b.length <= 1100, `a part of ${b.length} bytes`);
  assert.deepEqual(reassemble(encoded, 1), generateRows(shape));
});

test('a list is split inside a string element, never between a string and a number or NULL', () => {
  const list: WireValue[] = ['NaN', 1.5, 'Infinity', null, 'abcdef', 2];
  for (let bytes = 5; bytes < 40; bytes++) {
    const s = splitValue(list, bytes);
    if (!s) continue;
    const [head, tail] = s as [WireValue[], WireValue[]];
    assert.ok(head.length > 0 && tail.length > 0);
    assert.deepEqual(merge(head, tail), list, `split at ${bytes} bytes: ${JSON.stringify(s)}`);
  }
});

test('the checksums change with one changed value; corruptResultSetPart changes exactly one', () => {
  const shape = ResultSetSchema.parse({ rows: 20, columns: [{ type: 'INT64' }, { type: 'STRING' }, { type: 'ARRAY<STRING>' }], chunkBytes: 200 });
  const rows = generateRows(shape);
  const sums = columnChecksums(shape.columns, rows);
  const { encoded } = chunkResult(shape, 3);
  const got = reassemble(encoded, 3);
  const changed = got.flatMap((r, i) => r.flatMap((v, j) => (JSON.stringify(v) === JSON.stringify(rows[i]![j]) ? [] : [[i, j]])));
  assert.equal(changed.length, 1, JSON.stringify(changed));
  const after = columnChecksums(shape.columns, got);
  assert.deepEqual(
    after.map((s, j) => s !== sums[j]),
    shape.columns.map((_, j) => j === changed[0]![1]),
  );
});

test('UUID columns go out as TypeCode UUID (17 in google/spanner/v1/type.proto), the values as their text', () => {
  const shape = ResultSetSchema.parse({ rows: 3, columns: [{ type: 'UUID' }, { type: 'ARRAY<UUID>', arrayLength: 2 }], seed: 2 });
  const { encoded } = chunkResult(shape);
  // The type codes by name as the fake's proto loader decodes them; on the wire, Type.code (field 1) is the varint 17.
  const first = spannerService().ExecuteStreamingSql.responseDeserialize(encoded[0]!) as { metadata: { rowType: { fields: { type: object }[] } } };
  assert.deepEqual(
    first.metadata.rowType.fields.map((f) => f.type),
    [{ code: 'UUID' }, { code: 'ARRAY', arrayElementType: { code: 'UUID' } }],
  );
  const code = encoded[0]!.indexOf(Buffer.from([0x08, 17]));
  assert.ok(code > 0, 'Type.code = 17 on the wire');
  assert.deepEqual(reassemble(encoded, 2), generateRows(shape));
  // corruptResultSetPart changes one UUID, split across parts or not, into another UUID.
  const chunked = ResultSetSchema.parse({ rows: 12, columns: [{ type: 'INT64' }, { type: 'ARRAY<UUID>', arrayLength: 3 }], chunkBytes: 128 });
  const rows = generateRows(chunked);
  for (const part of [1, 2, 3, 5]) {
    const got = reassemble(chunkResult(chunked, part).encoded, 2);
    const changed = got.flatMap((r, i) => ((r[1] as string[]).some((u, k) => u !== (rows[i]![1] as string[])[k]) ? [r[1] as string[]] : []));
    assert.equal(changed.length, 1, `part ${part}`);
    for (const u of changed[0]!) assert.match(u, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.notEqual(columnChecksums(chunked.columns, got)[1], columnChecksums(chunked.columns, rows)[1]);
  }
});
