import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import type { DriverCell, Load, OperationKind, OperationMixEntry, ProgressMessage, ResultMessage } from '@scb/shared';
import type { Operation } from './operations';
import { PhaseRecorder } from './recorder';
import type { RowTimes } from './scan';
import { runAs, timingSink } from './server-timing';

type Emit = (m: ProgressMessage | ResultMessage) => void;
/** Runs one operation of the mix and records it; its latency counts from `intended` (an open loop's arrival) where given. */
type RunOne = (intended?: number) => Promise<void>;
/** What an open loop tells the recorder besides latencies: how late it started an operation, how many wait for the cap. */
interface Observer {
  late(ms: number): void;
  waiting(n: number, arrived: boolean): void;
}
/** How much a phase runs: an operation count, or a time. */
export type Budget = { ops: number } | { ms: number };

/**
 * A load shape: how operations are issued until a phase's budget is used up. `take()` claims one
 * operation of the budget and is false once it is spent; `untilEnd()` is the ms left of a timed
 * phase (Infinity for an operation count). One entry per shape of the protocol.
 */
type LoadShape<L extends Load> = (load: L, take: () => boolean, runOne: RunOne, untilEnd: () => number, observe: Observer) => Promise<void>;

const SHAPES: { [S in Load['shape']]: LoadShape<Extract<Load, { shape: S }>> } = {
  // `concurrency` agents, each claiming an operation, thinking, then running it. A think time that
  // reaches past a timed phase's end is cut there and its operation not run: the phase ends on time.
  closed: async (load, take, runOne, untilEnd) => {
    const think = thinker(load.thinkTime);
    const agent = async () => {
      while (take()) {
        const ms = think();
        const left = untilEnd();
        if (ms >= left) {
          if (left > 0) await new Promise((r) => setTimeout(r, left));
          break;
        }
        if (ms > 0) await new Promise((r) => setTimeout(r, ms));
        await runOne();
      }
    };
    await Promise.all(Array.from({ length: load.concurrency }, agent));
  },
  // Arrivals on a schedule drawn ahead (the next one's time never depends on how the last went): each
  // starts at its time, or waits in line while maxOutstanding run. The loop sleeps on a timer to within
  // a millisecond of the next arrival, then yields to I/O (setImmediate) until it is due.
  open: (load, take, runOne, untilEnd, observe) =>
    new Promise<void>((resolve) => {
      const gap = arrivalGap(load);
      const end = performance.now() + untilEnd();
      const line: number[] = [];
      let outstanding = 0;
      let arriving = true;
      const start = (intended: number) => {
        outstanding++;
        void runOne(intended).finally(() => {
          outstanding--;
          const next = line.shift();
          if (next !== undefined) {
            observe.waiting(line.length, false);
            start(next);
          } else if (!arriving && outstanding === 0) resolve();
        });
      };
      let next = performance.now();
      const tick = () => {
        let now = performance.now();
        while (next <= now) {
          if (next >= end || !take()) {
            arriving = false;
            if (outstanding === 0 && line.length === 0) resolve();
            return;
          }
          if (outstanding < load.maxOutstanding) {
            observe.late(now - next);
            start(next);
          } else {
            line.push(next);
            observe.waiting(line.length, true);
          }
          next += gap();
          now = performance.now();
        }
        const wait = next - now;
        if (wait >= 1) setTimeout(tick, Math.floor(wait));
        else setImmediate(tick);
      };
      tick();
    }),
};

/** The gap before an open loop's next arrival, in ms: exponential (Poisson arrivals) or the same every time. */
export function arrivalGap(load: Extract<Load, { shape: 'open' }>, random = Math.random): () => number {
  const mean = 1000 / load.ratePerSecond;
  if (load.distribution === 'uniform') return () => mean;
  return () => -Math.log(1 - random()) * mean;
}

/** An agent's pause before each operation, in ms: fixed, or exponential with that mean. */
export function thinker(t: Extract<Load, { shape: 'closed' }>['thinkTime'], random = Math.random): () => number {
  if (!t || t.ms <= 0) return () => 0;
  if (t.distribution === 'fixed') return () => t.ms;
  return () => -Math.log(1 - random()) * t.ms;
}

/** Picks an operation kind with probability weight / total. */
export function mixPicker(mix: OperationMixEntry[], random = Math.random): () => OperationKind {
  if (mix.length === 1) return () => mix[0]!.kind;
  const total = mix.reduce((a, m) => a + m.weight, 0);
  return () => {
    let r = random() * total;
    for (const m of mix) if ((r -= m.weight) < 0) return m.kind;
    return mix.at(-1)!.kind;
  };
}

/** The time V8 spent in garbage collection from now until `stop`, ms (its GC performance entries). */
function gcTime(): { stop(): number } {
  let ms = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) ms += e.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      for (const e of observer.takeRecords()) ms += e.duration;
      observer.disconnect();
      return ms;
    },
  };
}

/** The warm-up, then the measured phase, of the cell's load; language-neutral parts of a Node driver. */
export async function runPhases(
  cell: DriverCell,
  operations: Record<OperationKind, Operation>,
  emit: Emit,
  pool?: () => Record<string, number>,
  sessionsCreated: () => number = () => 0,
): Promise<ResultMessage> {
  const pick = mixPicker(cell.operations);
  const load = cell.load;
  const cap = new Cap(cell.cap, sessionsCreated);
  if (load.warmupOps > 0) await runPhase('warmup', load, { ops: load.warmupOps }, pick, operations, emit, cap);
  const measured = load.measuredOps !== undefined ? { ops: load.measuredOps } : { ms: load.durationMs! };
  const gc = gcTime();
  const result = await runPhase('measure', load, measured, pick, operations, emit, cap, pool);
  const counted = { ...result, sessionsCreated: sessionsCreated(), gcMs: gc.stop(), peakRssBytes: process.resourceUsage().maxRSS * 1024 };
  return cap.hit ? { ...counted, capped: cap.hit } : counted;
}

/** The cell's cost cap over both phases: operations started in all, time since the first, sessions created. */
export class Cap {
  hit: 'ops' | 'time' | 'sessions' | undefined;
  private started = 0;
  private t0: number | undefined;
  constructor(
    private readonly limit: DriverCell['cap'],
    private readonly sessionsCreated: () => number = () => 0,
  ) {}
  /** Claims one operation; false once the cap is reached. */
  take(): boolean {
    if (!this.limit) return true;
    this.t0 ??= performance.now();
    if (this.started >= this.limit.ops) this.hit ??= 'ops';
    else if (performance.now() - this.t0 >= this.limit.ms) this.hit ??= 'time';
    else if (this.limit.sessions !== undefined && this.sessionsCreated() >= this.limit.sessions) this.hit ??= 'sessions';
    else {
      this.started++;
      return true;
    }
    return false;
  }
}

async function runPhase(
  phase: 'warmup' | 'measure',
  load: Load,
  budget: Budget,
  pick: () => OperationKind,
  operations: Record<OperationKind, Operation>,
  emit: Emit,
  cap: Cap,
  pool?: () => Record<string, number>,
): Promise<ResultMessage> {
  const rec = new PhaseRecorder(phase === 'measure', Object.keys(operations) as OperationKind[], pool, load.shape === 'open');
  timingSink((kind, us) => rec.serverTiming(kind, us));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const total = 'ops' in budget ? budget.ops : undefined;
  const deadline = 'ms' in budget ? t0 + budget.ms : Number.POSITIVE_INFINITY;
  let started = 0;
  const take = () => {
    if (total !== undefined ? started >= total : performance.now() >= deadline) return false;
    if (!cap.take()) return false;
    started++;
    return true;
  };
  const runOne = async (intended?: number) => {
    const kind = pick();
    const s = performance.now();
    try {
      const out = await runAs(kind, operations[kind]);
      const e = performance.now();
      rec.success(kind, e - (intended ?? s), intended === undefined ? undefined : e - s);
      if (kind === 'scan') rec.rowTimes(kind, out as RowTimes);
    } catch (e) {
      rec.failure(kind, e);
    }
  };
  const progress = () => {
    const ms = performance.now() - t0;
    emit({ type: 'progress', phase, done: rec.done, total, elapsedMs: ms, qps: (rec.done * 1000) / Math.max(1, ms) });
  };
  const ticker = setInterval(() => {
    rec.closeSecond();
    progress();
  }, 1000);

  progress();
  const untilEnd = () => deadline - performance.now();
  await (SHAPES[load.shape] as LoadShape<Load>)(load, take, runOne, untilEnd, { late: (ms) => rec.late(ms), waiting: (n, arrived) => rec.waiting(n, arrived) });
  clearInterval(ticker);
  const elapsedMs = performance.now() - t0;
  rec.closeSecond(true);
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  // The histogram holds whole 10 ms timer periods: the delay is what is beyond the period.
  const eventLoop = { utilization: performance.eventLoopUtilization(elu0).utilization, delayP99Ms: Math.max(0, delay.percentile(99) / 1e6 - 10) };
  progress();
  return { type: 'result', ...rec.total(), ...rec.openLoop(), elapsedMs, timeline: rec.timeline, cpuMs: (cpu.user + cpu.system) / 1000, eventLoop, operations: rec.operations() };
}
