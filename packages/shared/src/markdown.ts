import { buildResultTable, formatEntry, type TableCell } from './table';

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** A GitHub-flavoured table: rows by concurrency, one "qps / p50 / p99" column per configuration. */
export function resultTableMarkdown(cells: TableCell[]): string {
  const t = buildResultTable(cells);
  const head = ['concurrency', ...t.columns.map((c) => `${escapeCell(c)} qps / p50 / p99`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of t.rows) lines.push(`| ${[String(r.concurrency), ...r.entries.map(formatEntry)].join(' | ')} |`);
  return lines.join('\n');
}
