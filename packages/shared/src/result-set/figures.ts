// A scan cell's result-set figures, from what its result stored (no measuring here): rows per second and
// the driver's CPU per 1,000 rows. With a mix, the CPU is the whole driver's, so the per-row figure
// counts every operation's cost against the scans' rows.
export interface ScanFigures {
  scans: number;
  rows: number;
  rowsPerSecond: number;
  cpuMsPer1kRows: number;
  /** Whether the cell ran operations besides scan (its CPU per row then includes them). */
  mixed: boolean;
}

export function scanFigures(rowsPerScan: number, r: { cpuMs: number; elapsedMs: number; count: number; operations?: Partial<Record<string, { count: number }>> | null }): ScanFigures | null {
  const scans = r.operations?.scan?.count ?? null;
  if (scans === null || scans === 0 || r.elapsedMs <= 0) return null;
  const rows = scans * rowsPerScan;
  return { scans, rows, rowsPerSecond: (rows * 1000) / r.elapsedMs, cpuMsPer1kRows: (r.cpuMs * 1000) / rows, mixed: scans !== r.count };
}
