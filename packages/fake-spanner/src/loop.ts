import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';

/** How busy an event loop was over a window: busy share 0..1 and the p99 of its delay. */
export interface LoopLoad {
  utilization: number;
  delayP99Ms: number;
}

const RESOLUTION_MS = 10;

/** Watches the event loop of the thread it is created on, from the last `mark()`. */
export class LoopMonitor {
  private elu0: EventLoopUtilization = performance.eventLoopUtilization();
  private delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  constructor() {
    this.delay.enable();
  }

  mark(): void {
    this.elu0 = performance.eventLoopUtilization();
    this.delay.reset();
  }

  read(): LoopLoad {
    // The histogram holds whole timer periods: the delay is what is beyond the period.
    return { utilization: performance.eventLoopUtilization(this.elu0).utilization, delayP99Ms: Math.max(0, this.delay.percentile(99) / 1e6 - RESOLUTION_MS) };
  }

  stop(): void {
    this.delay.disable();
  }
}
