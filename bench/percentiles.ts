/** p50 and p99 in ms of a sample of call latencies (the generators keep up to 200,000). */
export function percentiles(lat: number[]): { p50Ms: number; p99Ms: number } {
  const s = [...lat].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1)) : 0);
  return { p50Ms: at(50), p99Ms: at(99) };
}
