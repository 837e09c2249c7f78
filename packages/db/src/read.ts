import { invalidText, type FieldIssue, type ParseResult } from '@scb/shared';

/**
 * A row read back. `ok`: its JSON columns parsed with the shared schemas. Otherwise its plain columns,
 * so a page can still name it, and `invalid`, one sentence naming every column that did not parse.
 */
export type Read<Row, Parsed> = (Row & Parsed & { ok: true }) | (Row & { ok: false; invalid: string; issues: FieldIssue[] });

/** Collects the issues of a row's JSON columns, each path prefixed with its column (`cells.2.progress.qps`). */
export class ColumnParser {
  readonly issues: FieldIssue[] = [];

  /** The parsed value; when it did not parse, its issues are recorded and the row must be dropped. */
  take<T>(column: string, result: ParseResult<T>): T {
    if (result.ok) return result.value;
    for (const i of result.issues) this.issues.push({ path: i.path === '(root)' ? column : `${column}.${i.path}`, message: i.message });
    return undefined as T;
  }

  /** The row with its parsed columns, or its plain columns with what did not parse. */
  row<Row extends object, Parsed extends object>(what: string, plain: Row, parsed: Parsed): Read<Row, Parsed> {
    if (this.issues.length) return { ...plain, ok: false, invalid: invalidText(what, this.issues), issues: this.issues };
    return { ...plain, ...parsed, ok: true };
  }
}
