// Numbers in words for tables, setup lines and Markdown. No domain knowledge: every folder may use these.

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

export function formatQps(qps: number): string {
  return Number.isFinite(qps) ? Math.round(qps).toString() : '–';
}

/** "200", or "max(500, 4 × C)" for counts that grow with concurrency. */
export function formatOps(ops: number | { min: number; perConcurrency: number }): string {
  return typeof ops === 'number' ? String(ops) : `max(${ops.min}, ${ops.perConcurrency} × C)`;
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** "2026-11-22 15:31:49 UTC" from an ISO timestamp. */
export function formatUtc(iso: string): string {
  return `${iso.replace('T', ' ').slice(0, 19)} UTC`;
}
