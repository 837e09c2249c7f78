// CPU time of another process (a target the runner started, e.g. the emulator), from /proc on Linux.
import { readFileSync } from 'node:fs';
import os from 'node:os';

// Linux reports utime and stime in clock ticks of 1/100 s (USER_HZ) on every platform Node runs on.
const TICK_MS = 10;

/** CPU ms the process has used so far; null where /proc cannot tell (not Linux, or the process is gone). */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** A window over a process's CPU: `end()` gives its share of all cores since `watchProcessCpu`. */
export function watchProcessCpu(pid: number): { end(): number | null } {
  const cpu0 = processCpuMs(pid);
  const t0 = performance.now();
  return {
    end() {
      const cpu1 = processCpuMs(pid);
      const wallMs = performance.now() - t0;
      return cpu0 === null || cpu1 === null || wallMs <= 0 ? null : (cpu1 - cpu0) / wallMs / (os.cpus().length || 1);
    },
  };
}
