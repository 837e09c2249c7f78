// The machine while a cell measures: how much of all its cores was busy, and how much of that was
// neither the driver nor this runner (which hosts the fake's thread): other processes. Processes in an
// idle cgroup (cpu.idle 1, systemd's CPUWeight=idle) are not counted: the kernel gives them only cores
// nothing else wants and takes those back as soon as the cell's processes wake (packages/languages/src/idle-cgroups.ts).
import os from 'node:os';
import { idleCgroupsCpuMs } from '@scb/languages/local';

export interface MachineLoad {
  /** All processes' CPU over the window, as a share of all cores (0..1). */
  busyShare: number;
  /** CPU of this runner process (all its threads, the fake's included), as a share of all cores. */
  runnerShare: number;
  /** One-minute load average at the end of the window (0 where the OS has none). */
  load1: number;
}

function cpuTimes(): { busyMs: number; totalMs: number } {
  let busyMs = 0;
  let totalMs = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    const all = t.user + t.nice + t.sys + t.idle + t.irq;
    totalMs += all;
    busyMs += all - t.idle;
  }
  return { busyMs, totalMs };
}

/** Starts a window now; `end()` closes it. */
export function watchMachine(): { end(): MachineLoad } {
  const idle0 = idleCgroupsCpuMs();
  const m0 = cpuTimes();
  const p0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    end() {
      const m1 = cpuTimes();
      const idle1 = idleCgroupsCpuMs();
      const p = process.cpuUsage(p0);
      const wallMs = performance.now() - t0;
      const cores = os.cpus().length || 1;
      const total = m1.totalMs - m0.totalMs;
      return {
        busyShare: total > 0 ? Math.max(0, m1.busyMs - m0.busyMs - idleMs(idle0, idle1)) / total : 0,
        runnerShare: wallMs > 0 ? (p.user + p.system) / 1000 / wallMs / cores : 0,
        load1: os.loadavg()[0] ?? 0,
      };
    },
  };
}

/** The CPU idle groups used between two readings (groups idle at both, one that stopped yielding between them counts). */
function idleMs(before: Map<string, number>, after: Map<string, number>): number {
  let ms = 0;
  for (const [group, end] of after) {
    const start = before.get(group);
    if (start !== undefined && end >= start) ms += end - start;
  }
  return ms;
}
