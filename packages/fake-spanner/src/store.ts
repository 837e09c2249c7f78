import { LEADERBOARD_TABLES } from '@scb/shared/catalogue';

/** Column types as Spanner's TypeCode names. */
export type ColumnType = 'INT64' | 'STRING' | 'BOOL' | 'FLOAT64' | 'TIMESTAMP';
/** Values as the wire carries them: INT64 and TIMESTAMP as strings. */
export type Value = string | number | boolean | null;
export type Row = Value[];

export interface Column {
  name: string;
  type: ColumnType;
}

export interface Table {
  name: string;
  columns: Column[];
  /** Number of leading columns that form the primary key. */
  keyLength: number;
  rows: Map<string, Row>;
  /** Keys by the value of their first key column, for reads of one parent's child rows. */
  byFirstKey: Map<string, Set<string>>;
}

export interface Mutation {
  op: 'insert' | 'update' | 'insertOrUpdate' | 'replace' | 'delete';
  table: string;
  columns: string[];
  values: Row[];
  /** delete only: keys, or all rows. */
  keys?: Row[];
  all?: boolean;
}

const keyOf = (values: Row) => JSON.stringify(values.map((v) => (v === null ? null : String(v))));

/** A tiny in-memory database: tables with primary keys, point reads, mutations. */
export class Store {
  readonly tables = new Map<string, Table>();

  createTable(name: string, columns: Column[], keyLength = 1): void {
    this.tables.set(name, { name, columns, keyLength, rows: new Map(), byFirstKey: new Map() });
  }

  table(name: string): Table {
    const t = this.tables.get(name);
    if (!t) throw new StoreError(`table not found: ${name}`);
    return t;
  }

  /** Rows of `table` restricted to `columns`, for the given keys (or every row). */
  read(table: string, columns: string[], keys: Row[] | 'all', limit = 0): { columns: Column[]; rows: Row[] } {
    const t = this.table(table);
    const idx = columns.map((c) => {
      const i = t.columns.findIndex((col) => col.name === c);
      if (i < 0) throw new StoreError(`column not found: ${table}.${c}`);
      return i;
    });
    const found = keys === 'all' ? [...t.rows.values()] : keys.map((k) => t.rows.get(keyOf(k))).filter((r): r is Row => !!r);
    const rows = found.map((r) => idx.map((i) => r[i]));
    return { columns: idx.map((i) => t.columns[i]), rows: limit > 0 ? rows.slice(0, limit) : rows };
  }

  /** Rows whose first key column is `first` (a player's scores), restricted to `columns`. */
  readByFirstKey(table: string, columns: string[], first: Value): { columns: Column[]; rows: Row[] } {
    const keys = this.table(table).byFirstKey.get(String(first));
    return this.read(table, columns, keys ? [...keys].map((k) => JSON.parse(k) as Row) : []);
  }

  /**
   * Applies mutations all or nothing (a failing one leaves the store as it was). Changes are staged
   * apart and then written, so a commit costs what it changes, not the size of the table.
   */
  apply(mutations: Mutation[]): void {
    // Per table: key -> the row after these mutations, or null where they delete it.
    const staged = new Map<Table, Map<string, Row | null>>();
    const changesOf = (t: Table) => {
      let m = staged.get(t);
      if (!m) staged.set(t, (m = new Map()));
      return m;
    };
    for (const m of mutations) {
      const t = this.table(m.table);
      const changes = changesOf(t);
      const current = (key: string) => (changes.has(key) ? changes.get(key) : t.rows.get(key)) ?? null;
      if (m.op === 'delete') {
        if (m.all) for (const k of new Set([...t.rows.keys(), ...changes.keys()])) changes.set(k, null);
        for (const k of m.keys ?? []) changes.set(keyOf(k), null);
        continue;
      }
      const idx = m.columns.map((c) => {
        const i = t.columns.findIndex((col) => col.name === c);
        if (i < 0) throw new StoreError(`column not found: ${m.table}.${c}`);
        return i;
      });
      for (const values of m.values) {
        const row: Row = t.columns.map(() => null);
        idx.forEach((i, n) => (row[i] = values[n]));
        if (row.slice(0, t.keyLength).some((v) => v === null)) throw new StoreError(`${m.op} into ${m.table} needs its key columns`);
        const key = keyOf(row.slice(0, t.keyLength));
        const prior = current(key);
        if (m.op === 'insert' && prior) throw new StoreError(`row already exists in ${m.table}: ${key}`, 'ALREADY_EXISTS');
        if (m.op === 'update' && !prior) throw new StoreError(`row not found in ${m.table}: ${key}`, 'NOT_FOUND');
        const merged = (m.op === 'update' || m.op === 'insertOrUpdate') && prior ? prior.map((v, i) => (idx.includes(i) ? row[i] : v)) : row;
        changes.set(key, merged);
      }
    }
    for (const [t, changes] of staged) {
      for (const [key, row] of changes) {
        const first = String((JSON.parse(key) as Row)[0]);
        let keys = t.byFirstKey.get(first);
        if (row) {
          t.rows.set(key, row);
          if (!keys) t.byFirstKey.set(first, (keys = new Set()));
          keys.add(key);
        } else if (t.rows.delete(key)) {
          keys?.delete(key);
          if (keys?.size === 0) t.byFirstKey.delete(first);
        }
      }
    }
  }
}

export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: 'NOT_FOUND' | 'ALREADY_EXISTS' | 'INVALID_ARGUMENT' = 'NOT_FOUND',
  ) {
    super(message);
  }
}

/** The leaderboard schema of Spanner's samples (the catalogue's LEADERBOARD_TABLES), with `players` seeded rows. */
export function leaderboardStore(players: number): Store {
  const s = new Store();
  for (const t of LEADERBOARD_TABLES)
    s.createTable(
      t.name,
      t.columns.map((c) => ({ name: c.name, type: c.type })),
      t.keyLength,
    );
  s.apply([{ op: 'insert', table: 'Players', columns: ['PlayerId', 'PlayerName'], values: Array.from({ length: players }, (_, i) => [String(i + 1), `Player ${i + 1}`]) }]);
  return s;
}
