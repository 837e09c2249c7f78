// A scan cell's result-set figures, from what its result stored (no measuring here): rows per second,
// the driver's CPU per 1,000 rows and the bytes per second the target sent it on the wire. With a mix,
// the CPU is the whole driver's, so the per-row figure counts every operation's cost against the scans'
// rows (and the wire bytes every operation's answers).
export interface ScanFigures {
  scans: number;
  rows: number;
  rowsPerSecond: number;
  cpuMsPer1kRows: number;
  /** Bytes per second of the measured phase the target sent the driver, where counted (CellResult.wireBytes); null otherwise. */
  wireBytesPerSecond: number | null;
  /** Whether the cell ran operations besides scan (its CPU per row then includes them). */
  mixed: boolean;
}

export function scanFigures(
  rowsPerScan: number,
  r: { cpuMs: number; elapsedMs: number; count: number; operations?: Partial<Record<string, { count: number }>> | null; wireBytes?: number | null },
): ScanFigures | null {
  const scans = r.operations?.scan?.count ?? null;
  if (scans === null || scans === 0 || r.elapsedMs <= 0) return null;
  const rows = scans * rowsPerScan;
  return {
    scans,
    rows,
    rowsPerSecond: (rows * 1000) / r.elapsedMs,
    cpuMsPer1kRows: (r.cpuMs * 1000) / rows,
    wireBytesPerSecond: r.wireBytes == null ? null : (r.wireBytes * 1000) / r.elapsedMs,
    mixed: scans !== r.count,
  };
}

/** A scan cell's times to its first row and to its last (p50, p99), as stored with its result; null where none were. */
export interface RowTimeFigures {
  firstRowP50Ms: number;
  firstRowP99Ms: number;
  lastRowP50Ms: number;
  lastRowP99Ms: number;
}

export function rowTimeFigures(r: Partial<Record<keyof RowTimeFigures, number | null>>): RowTimeFigures | null {
  const { firstRowP50Ms, firstRowP99Ms, lastRowP50Ms, lastRowP99Ms } = r;
  if (firstRowP50Ms == null || firstRowP99Ms == null || lastRowP50Ms == null || lastRowP99Ms == null) return null;
  return { firstRowP50Ms, firstRowP99Ms, lastRowP50Ms, lastRowP99Ms };
}
