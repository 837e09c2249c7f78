// The table a shape's values live in on the emulator (and, one day, Cloud Spanner): a key column `k`
// holding the row's index in generation order, then one column per shape column, typed as the shape
// says. The scan's query orders by `k`, so every target returns the rows in the order they were generated.
import { columnName, isArray, type ResultSet, resultSetTable, type ScalarType, scalarOf } from './shape';

/** The key column: the row's index (0-based) in generation order. */
export const RESULT_SET_KEY = 'k';

/** Each scalar type as a column declares it: strings and bytes without a length limit. */
const DDL_TYPES: Record<ScalarType, string> = {
  BOOL: 'BOOL',
  INT64: 'INT64',
  FLOAT32: 'FLOAT32',
  FLOAT64: 'FLOAT64',
  NUMERIC: 'NUMERIC',
  STRING: 'STRING(MAX)',
  BYTES: 'BYTES(MAX)',
  DATE: 'DATE',
  TIMESTAMP: 'TIMESTAMP',
  JSON: 'JSON',
  UUID: 'UUID',
};

/** A column type's DDL: `STRING(MAX)`, `ARRAY<BYTES(MAX)>`, … */
export function columnDdlType(type: Parameters<typeof scalarOf>[0]): string {
  const scalar = DDL_TYPES[scalarOf(type)];
  return isArray(type) ? `ARRAY<${scalar}>` : scalar;
}

/** The CREATE TABLE statement of a shape's table (its name from resultSetTable: the values' shape and seed). */
export function resultSetDdl(s: Pick<ResultSet, 'rows' | 'columns' | 'seed'>): string {
  const columns = s.columns.map((c, i) => `${columnName(i)} ${columnDdlType(c.type)}`);
  return `CREATE TABLE ${resultSetTable(s)} (${RESULT_SET_KEY} INT64 NOT NULL, ${columns.join(', ')}) PRIMARY KEY (${RESULT_SET_KEY})`;
}
