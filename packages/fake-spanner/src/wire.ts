// Conversions between proto-loader's plain objects (google.spanner.v1) and the store's values.
import type { Column, Mutation, Row, Value } from './store';

type ProtoValue = { kind?: string; stringValue?: string; numberValue?: number; boolValue?: boolean; nullValue?: unknown; listValue?: { values?: ProtoValue[] } };

export function fromProtoValue(v: ProtoValue | undefined): Value {
  if (!v || v.kind === 'nullValue' || v.kind === undefined) return null;
  if (v.kind === 'stringValue') return v.stringValue ?? '';
  if (v.kind === 'numberValue') return v.numberValue ?? 0;
  if (v.kind === 'boolValue') return Boolean(v.boolValue);
  return JSON.stringify(v);
}

export function toProtoValue(v: Value, type: Column['type']): object {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  if (type === 'BOOL') return { boolValue: Boolean(v) };
  if (type === 'FLOAT64') return { numberValue: Number(v) };
  return { stringValue: String(v) };
}

export function paramsOf(struct: { fields?: Record<string, ProtoValue> } | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(struct?.fields ?? {})) out[k] = fromProtoValue(v);
  return out;
}

const rowOf = (l: { values?: ProtoValue[] } | undefined): Row => (l?.values ?? []).map(fromProtoValue);

export function metadataOf(columns: Column[], transaction?: object): object {
  return { rowType: { fields: columns.map((c) => ({ name: c.name, type: { code: c.type } })) }, ...(transaction ? { transaction } : {}) };
}

export function resultSet(columns: Column[], rows: Row[], transaction?: object): object {
  return {
    metadata: metadataOf(columns, transaction),
    rows: rows.map((r) => ({ values: r.map((v, i) => toProtoValue(v, columns[i].type)) })),
  };
}

/** Results here are small: one PartialResultSet carries them all. */
/** `last`: the answer's last part says so (PartialResultSet.last, with a resume token), as Spanner may. */
export function partialResultSet(columns: Column[], rows: Row[], transaction?: object, stats?: object, last = false): object {
  return {
    metadata: metadataOf(columns, transaction),
    values: rows.flatMap((r) => r.map((v, i) => toProtoValue(v, columns[i].type))),
    ...(stats ? { stats } : {}),
    ...(last ? { last: true, resumeToken: Buffer.from('fake-last') } : {}),
  };
}

export function keysOf(keySet: { keys?: { values?: ProtoValue[] }[]; all?: boolean } | undefined): Row[] | 'all' {
  if (keySet?.all) return 'all';
  return (keySet?.keys ?? []).map(rowOf);
}

type ProtoWrite = { table: string; columns?: string[]; values?: { values?: ProtoValue[] }[] };
type ProtoMutation = {
  operation?: string;
  insert?: ProtoWrite;
  update?: ProtoWrite;
  insertOrUpdate?: ProtoWrite;
  replace?: ProtoWrite;
  delete?: { table: string; keySet?: { keys?: { values?: ProtoValue[] }[]; all?: boolean } };
};

export function mutationsOf(ms: ProtoMutation[] | undefined): Mutation[] {
  return (ms ?? []).map((m) => {
    if (m.delete) {
      const keys = keysOf(m.delete.keySet);
      return { op: 'delete', table: m.delete.table, columns: [], values: [], ...(keys === 'all' ? { all: true } : { keys }) };
    }
    const op = (['insert', 'update', 'insertOrUpdate', 'replace'] as const).find((o) => m[o]);
    if (!op) throw new Error('a mutation names no operation');
    const w = m[op]!;
    return { op, table: w.table, columns: w.columns ?? [], values: (w.values ?? []).map(rowOf) };
  });
}

let lastMicros = 0;

/** Now, in microseconds and strictly increasing, as Spanner's commit timestamps (a key may hold one). */
export function timestampNow(): { seconds: string; nanos: number } {
  const micros = (lastMicros = Math.max(Date.now() * 1000, lastMicros + 1));
  return { seconds: String(Math.floor(micros / 1_000_000)), nanos: (micros % 1_000_000) * 1000 };
}
