import type { Histogram } from 'hdr-histogram-js';
import { encodeHistogram, grpcCodeName, newLatencyHistogram, type OperationKind, type OperationResult, type ResultMessage, type TimelinePoint } from '@scb/shared';

/** Latencies and errors of one phase: in total, per operation kind, and per second while measuring. */
export class PhaseRecorder {
  readonly timeline: TimelinePoint[] = [];
  done = 0;
  private readonly all = newLatencyHistogram();
  private readonly errors: Record<string, number> = {};
  private readonly byKind = new Map<OperationKind, { histogram: Histogram; errors: Record<string, number>; serverTiming?: Histogram; rowTimes?: { first: Histogram; last: Histogram } }>();
  private second: Histogram = newLatencyHistogram();
  private secondCount = 0;
  private secondErrors = 0;
  private secondStart = performance.now();
  // An open loop's: latencies from the actual start, the driver's lag, the line at the outstanding cap.
  private uncorrected?: Histogram;
  private lag?: Histogram;
  private capWaits = 0;
  private secondWaiting = 0;

  /** Every kind of the mix gets an entry, even one never picked (as the Java driver does). */
  constructor(
    private readonly measured: boolean,
    kinds: OperationKind[],
    private readonly pool?: () => Record<string, number>,
    private readonly open = false,
  ) {
    for (const kind of kinds) this.kind(kind);
  }

  /** `ms` from the operation's intended start; `uncorrectedMs` from its actual one (an open loop). */
  success(kind: OperationKind, ms: number, uncorrectedMs?: number): void {
    const us = Math.max(1, Math.round(ms * 1000));
    if (uncorrectedMs !== undefined) (this.uncorrected ??= newLatencyHistogram()).recordValue(Math.max(1, Math.round(uncorrectedMs * 1000)));
    this.all.recordValue(us);
    this.kind(kind).histogram.recordValue(us);
    this.second.recordValue(us);
    this.secondCount++;
    this.done++;
  }

  /** An open loop started an operation `ms` after its intended time (one that did not wait for the cap). */
  late(ms: number): void {
    (this.lag ??= newLatencyHistogram()).recordValue(Math.max(1, Math.round(ms * 1000)));
  }

  /** `n` operations wait for the outstanding cap; `arrived`: one more joined them. */
  waiting(n: number, arrived: boolean): void {
    if (arrived) this.capWaits++;
    this.secondWaiting = Math.max(this.secondWaiting, n);
  }

  /** One RPC's server-timing header time (server-timing.ts), for an operation kind. */
  serverTiming(kind: OperationKind, us: number): void {
    const k = this.kind(kind);
    (k.serverTiming ??= newLatencyHistogram()).recordValue(us);
  }

  /** A scan's times from its start to its first row and its last (scan.ts). */
  rowTimes(kind: OperationKind, t: { firstRowMs: number; lastRowMs: number }): void {
    const k = this.kind(kind);
    const r = (k.rowTimes ??= { first: newLatencyHistogram(), last: newLatencyHistogram() });
    r.first.recordValue(Math.max(1, Math.round(t.firstRowMs * 1000)));
    r.last.recordValue(Math.max(1, Math.round(t.lastRowMs * 1000)));
  }

  failure(kind: OperationKind, e: unknown): void {
    const name = grpcCodeName((e as { code?: unknown }).code);
    this.errors[name] = (this.errors[name] ?? 0) + 1;
    const k = this.kind(kind).errors;
    k[name] = (k[name] ?? 0) + 1;
    this.secondErrors++;
    this.done++;
  }

  /** Closes the running second into the timeline (measured phases only); the last one may be partial. */
  closeSecond(last = false): void {
    if (!this.measured || (last && this.secondCount === 0 && this.secondErrors === 0)) return;
    const now = performance.now();
    const p99Ms = this.secondCount ? this.second.getValueAtPercentile(99) / 1000 : 0;
    const pool = this.pool?.();
    const waiting = this.open ? { waiting: this.secondWaiting } : {};
    this.timeline.push({ second: this.timeline.length + 1, count: this.secondCount, errors: this.secondErrors, p99Ms, ms: now - this.secondStart, ...(pool && { pool }), ...waiting });
    this.secondStart = now;
    this.secondWaiting = 0;
    this.second = newLatencyHistogram();
    this.secondCount = 0;
    this.secondErrors = 0;
  }

  total(): OperationResult {
    return { count: this.all.totalCount, errors: this.errors, histogram: encodeHistogram(this.all) };
  }

  /** An open loop's figures for the result message; none for a closed loop. */
  openLoop(): Pick<ResultMessage, 'uncorrected' | 'scheduleLag' | 'outstandingCapWaits'> {
    if (!this.open) return {};
    return {
      uncorrected: { histogram: encodeHistogram(this.uncorrected ?? newLatencyHistogram()) },
      scheduleLag: { histogram: encodeHistogram(this.lag ?? newLatencyHistogram()) },
      outstandingCapWaits: this.capWaits,
    };
  }

  operations(): Partial<Record<OperationKind, OperationResult>> {
    return Object.fromEntries(
      [...this.byKind].map(([kind, k]) => [
        kind,
        {
          count: k.histogram.totalCount,
          errors: k.errors,
          histogram: encodeHistogram(k.histogram),
          ...(k.serverTiming && { serverTiming: { rpcs: k.serverTiming.totalCount, histogram: encodeHistogram(k.serverTiming) } }),
          ...(k.rowTimes && { rowTimes: { firstRow: encodeHistogram(k.rowTimes.first), lastRow: encodeHistogram(k.rowTimes.last) } }),
        },
      ]),
    );
  }

  private kind(kind: OperationKind) {
    let k = this.byKind.get(kind);
    if (!k) this.byKind.set(kind, (k = { histogram: newLatencyHistogram(), errors: {} }));
    return k;
  }
}
