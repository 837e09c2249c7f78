// What a driver is told of a `scan`'s result: the query, how much of each row to read, and the
// checksum each column's values must fold to (values.ts says how). Computed once per shape.
import { canonicalJson } from '../canonical-json';
import { columnName, isArray, resultSetSql, type ResultSet, scalarOf } from './shape';
import { columnChecksums, generateRows } from './values';

export interface DriverResultSet {
  sql: string;
  rows: number;
  read: ResultSet['read'];
  columns: { name: string; type: ReturnType<typeof scalarOf>; array: boolean; checksum: number }[];
}

const cache = new Map<string, DriverResultSet>();

export function driverResultSet(s: ResultSet): DriverResultSet {
  const key = canonicalJson({ rows: s.rows, columns: s.columns, seed: s.seed, read: s.read });
  let out = cache.get(key);
  if (!out) {
    if (cache.size > 32) cache.clear();
    const checksums = columnChecksums(s.columns, generateRows(s));
    out = {
      sql: resultSetSql(s),
      rows: s.rows,
      read: s.read,
      columns: s.columns.map((c, i) => ({ name: columnName(i), type: scalarOf(c.type), array: isArray(c.type), checksum: checksums[i]! })),
    };
    cache.set(key, out);
  }
  return out;
}
