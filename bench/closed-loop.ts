export interface LoopResult {
  count: number;
  errors: number;
  elapsedMs: number;
  cpuMs: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * `concurrency` workers call `call(worker)` back to back for `seconds`. Workers started together
 * stay in lock-step (every reply lands at once), so their first calls are spread over one latency
 * period, as independent clients would be.
 */
export async function closedLoop(concurrency: number, seconds: number, latencyMs: number, call: (worker: number) => Promise<void>): Promise<LoopResult> {
  const lat: number[] = [];
  let count = 0;
  let errors = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, (i * latencyMs) / concurrency));
      while (performance.now() < end) {
        try {
          const t = performance.now();
          await call(i);
          if (lat.length < 200_000) lat.push(performance.now() - t);
          count++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { count, errors, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, ...percentiles(lat) };
}

/** p50 and p99 in ms of a sample of call latencies. */
function percentiles(lat: number[]): { p50Ms: number; p99Ms: number } {
  const s = [...lat].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1)) : 0);
  return { p50Ms: at(50), p99Ms: at(99) };
}
