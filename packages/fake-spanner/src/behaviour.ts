import type { FakeBehaviour, Fault, Latency, RpcKind } from '@scb/shared';

const Z99 = 2.3263478740408408; // standard normal quantile at 0.99

function sample(l: Latency): number {
  if (typeof l === 'number') return l;
  if (l.p50 <= 0) return 0;
  // Lognormal with median p50 and 99th percentile p99.
  const sigma = l.p99 > l.p50 ? Math.log(l.p99 / l.p50) / Z99 : 0;
  const z = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  return l.p50 * Math.exp(sigma * z);
}

/** Kinds without a latency of their own take the query latency; session and rollback take 0; a multiplexed CreateSession takes session's. */
function latencyFor(latency: FakeBehaviour['latency'], kind: RpcKind): Latency {
  if (kind === 'multiplexedSession') return latency.multiplexedSession ?? latency.session ?? 0;
  return latency[kind] ?? (kind === 'session' || kind === 'rollback' ? 0 : (latency.query ?? 0));
}

/** A schedule entry in a few words: "query 200 ms, ABORTED on query 5%". */
function describeEntry(e: FakeBehaviour['schedule'][number]): string {
  const latency = Object.entries(e.latency ?? {}).map(([kind, l]) => `${kind} ${typeof l === 'number' ? `${l} ms` : `p50 ${l.p50} ms p99 ${l.p99} ms`}`);
  const faults = (e.faults ?? []).map((f) => `${f.code} on ${f.kind} ${+(f.ratio * 100).toFixed(2)}%${f.first ? ` of the first ${f.first}` : ''}`);
  return [...latency, ...faults].join(', ');
}

/** The fake's behaviour at a moment: the base settings plus the schedule entries in force. */
export class Behaviour {
  private startedAt = performance.now();
  /** The same moment on the wall clock, for the schedule's boundaries in stats. */
  private startedEpochMs = Date.now();

  /** RPCs each fault with `first` has seen of its kind, since this configuration was set. */
  private seen = new Map<Fault, number>();

  constructor(private current: FakeBehaviour) {}

  get settings(): FakeBehaviour {
    return this.current;
  }

  replace(next: FakeBehaviour): void {
    this.current = next;
    this.seen = new Map();
  }

  /** Schedule times count from here. */
  restartClock(): void {
    this.startedAt = performance.now();
    this.startedEpochMs = Date.now();
  }

  /** Where each schedule entry begins and ends, on the wall clock (epoch ms), time scale applied, in words. */
  scheduleChanges(): { atEpochMs: number; text: string }[] {
    const at = (s: number) => this.startedEpochMs + s * 1000 * this.current.timeScale;
    return this.current.schedule
      .flatMap((e, i) => {
        const what = describeEntry(e);
        const begins = { atEpochMs: at(e.fromSeconds), text: `schedule ${i + 1} begins${what ? `: ${what}` : ''}` };
        return e.untilSeconds === undefined ? [begins] : [begins, { atEpochMs: at(e.untilSeconds), text: `schedule ${i + 1} ends` }];
      })
      .sort((a, b) => a.atEpochMs - b.atEpochMs);
  }

  private active(now: number) {
    const t = (now - this.startedAt) / 1000 / this.current.timeScale;
    return this.current.schedule.filter((e) => t >= e.fromSeconds && (e.untilSeconds === undefined || t < e.untilSeconds));
  }

  /** Server time for one RPC of `kind`, in ms, time scale applied. */
  latencyMs(kind: RpcKind, now = performance.now()): number {
    let latency = latencyFor(this.current.latency, kind);
    for (const e of this.current.schedule.length ? this.active(now) : []) if (e.latency?.[kind] !== undefined) latency = e.latency[kind]!;
    return sample(latency) * this.current.timeScale;
  }

  /** The fault to inject into one RPC of `kind`, if the dice say so. */
  fault(kind: RpcKind, now = performance.now()): Fault | undefined {
    const faults = this.current.schedule.length ? [...this.current.faults, ...this.active(now).flatMap((e) => e.faults ?? [])] : this.current.faults;
    for (const f of faults) {
      if (f.kind !== kind) continue;
      if (f.first !== undefined) {
        const n = (this.seen.get(f) ?? 0) + 1;
        this.seen.set(f, n);
        if (n > f.first) continue;
      }
      if (f.ratio > 0 && Math.random() < f.ratio) return f;
    }
    return undefined;
  }
}
