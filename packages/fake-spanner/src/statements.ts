/** Column types as Spanner's TypeCode names. */
export type ColumnType = 'INT64' | 'STRING' | 'BOOL' | 'FLOAT64' | 'TIMESTAMP';
export type Cell = string | number | boolean | null;

export interface StatementResult {
  columns: { name: string; type: ColumnType }[];
  rows: Cell[][];
}

/**
 * Known statements and their results, keyed by SQL text (MockSpannerServiceImpl style).
 * Anything else is answered with INVALID_ARGUMENT naming the statement.
 */
export class StatementRegistry {
  private readonly results = new Map<string, StatementResult>();

  constructor() {
    this.put('SELECT 1', { columns: [{ name: '', type: 'INT64' }], rows: [[1]] });
  }

  put(sql: string, result: StatementResult): void {
    this.results.set(normalize(sql), result);
  }

  get(sql: string): StatementResult | undefined {
    return this.results.get(normalize(sql));
  }
}

function normalize(sql: string): string {
  return sql.trim().replace(/\s+/g, ' ').replace(/;$/, '');
}

// Spanner encodes INT64 (and TIMESTAMP) as strings in google.protobuf.Value.
function toValue(v: Cell, type: ColumnType): object {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  if (type === 'BOOL') return { boolValue: Boolean(v) };
  if (type === 'FLOAT64') return { numberValue: Number(v) };
  return { stringValue: String(v) };
}

export function resultSetMetadata(r: StatementResult): object {
  return { rowType: { fields: r.columns.map((c) => ({ name: c.name, type: { code: c.type } })) } };
}

/** ResultSet for ExecuteSql. */
export function toResultSet(r: StatementResult): object {
  return {
    metadata: resultSetMetadata(r),
    rows: r.rows.map((row) => ({ values: row.map((v, i) => toValue(v, r.columns[i].type)) })),
  };
}

/** One PartialResultSet holding every value, for ExecuteStreamingSql (results here are small). */
export function toPartialResultSet(r: StatementResult): object {
  return {
    metadata: resultSetMetadata(r),
    values: r.rows.flatMap((row) => row.map((v, i) => toValue(v, r.columns[i].type))),
  };
}
