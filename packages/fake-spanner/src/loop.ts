import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';

/** How busy an event loop was over a window: busy share 0..1 and the p99 of its delay. */
export interface LoopLoad {
  utilization: number;
  delayP99Ms: number;
}

/** Watches the event loop of the thread it is created on, from the last `mark()`. */
export class LoopMonitor {
  private elu0: EventLoopUtilization = performance.eventLoopUtilization();
  private delay = monitorEventLoopDelay({ resolution: 10 });

  constructor() {
    this.delay.enable();
  }

  mark(): void {
    this.elu0 = performance.eventLoopUtilization();
    this.delay.reset();
  }

  read(): LoopLoad {
    return { utilization: performance.eventLoopUtilization(this.elu0).utilization, delayP99Ms: this.delay.percentile(99) / 1e6 };
  }

  stop(): void {
    this.delay.disable();
  }
}
