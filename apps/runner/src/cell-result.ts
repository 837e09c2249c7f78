// What the runner stores of a cell's outcome: the latency summary of its histogram, its errors, and
// the connections its target counted.
import type { CellResultInput } from '@scb/db';
import { decodeHistogram, summarize, type CellOperations, type OperationResult, type ResultMessage } from '@scb/shared';
import type { CellOutcome } from './cell';

export function cellResultOf(out: CellOutcome): CellResultInput {
  const r = out.result;
  return {
    ...summarize(decodeHistogram(r.histogram), r.elapsedMs),
    errorCount: errorCount(r.errors),
    errors: r.errors,
    elapsedMs: r.elapsedMs,
    histogram: r.histogram,
    timeline: r.timeline,
    cpuMs: r.cpuMs,
    // A target that cannot count RPCs stores none.
    serverRpcs: out.channels?.totalRpcs ?? null,
    targetAddedP50Ms: out.targetAdded?.p50Ms ?? null,
    targetAddedP99Ms: out.targetAdded?.p99Ms ?? null,
    targetWireAddedP50Ms: out.targetWireAdded?.p50Ms ?? null,
    targetWireAddedP99Ms: out.targetWireAdded?.p99Ms ?? null,
    driverLoopUtilization: r.eventLoop?.utilization ?? null,
    driverLoopDelayP99Ms: r.eventLoop?.delayP99Ms ?? null,
    targetLoopUtilization: out.targetLoad?.utilization ?? null,
    targetLoopDelayP99Ms: out.targetLoad?.delayP99Ms ?? null,
    targetCpuShare: out.targetCpuShare ?? null,
    machineBusyShare: out.machine?.busyShare ?? null,
    machineRunnerShare: out.machine?.runnerShare ?? null,
    machineLoad1: out.machine?.load1 ?? null,
    capped: r.capped ?? null,
    peakRssBytes: r.peakRssBytes ?? null,
    gcMs: r.gcMs ?? null,
    ...rowTimesOf(r),
    wireBytes: out.wireBytes ?? null,
    ...openLoopOf(r),
    operations: operationsOf(r, out.serverByOperation),
    // Past the measured phase's end (the driver's last calls winding down) they are not its.
    events: out.events ? out.events.filter((e) => e.atMs <= r.elapsedMs) : null,
    tokens: out.tokens ?? null,
    channels: [
      ...(out.channels?.connections ?? []).map((c) => ({ source: out.channels!.source, connection: c.connection, peer: c.peer, rpcs: c.rpcs, peakInFlight: c.peakInFlight })),
      // The client's own view of the same traffic, per gRPC channel, where its driver counts it.
      ...(r.clientChannels ?? []).map((c) => ({ source: 'client', connection: c.channel, peer: `channel ${c.channel}`, rpcs: c.rpcs, peakInFlight: c.peakInFlight })),
    ],
  };
}

/** A scan's times to its first row and to its last, p50 and p99 over the measured phase; nulls where the driver timed no scan. */
function rowTimesOf(r: ResultMessage) {
  const t = r.operations.scan?.rowTimes;
  if (!t) return { firstRowP50Ms: null, firstRowP99Ms: null, lastRowP50Ms: null, lastRowP99Ms: null };
  const [first, last] = [decodeHistogram(t.firstRow), decodeHistogram(t.lastRow)];
  const ms = (h: typeof first, p: number) => h.getValueAtPercentile(p) / 1000;
  return { firstRowP50Ms: ms(first, 50), firstRowP99Ms: ms(first, 99), lastRowP50Ms: ms(last, 50), lastRowP99Ms: ms(last, 99) };
}

/** An open loop's figures beside the corrected ones; nulls for a closed loop. */
function openLoopOf(r: ResultMessage) {
  if (!r.uncorrected || !r.scheduleLag) return { uncorrected: null, scheduleLagP99Ms: null, scheduleLagMaxMs: null, outstandingCapWaits: null };
  const { count: _c, qps: _q, ...uncorrected } = summarize(decodeHistogram(r.uncorrected.histogram), r.elapsedMs);
  const lag = summarize(decodeHistogram(r.scheduleLag.histogram), r.elapsedMs);
  return { uncorrected, scheduleLagP99Ms: lag.p99Ms, scheduleLagMaxMs: lag.maxMs, outstandingCapWaits: r.outstandingCapWaits ?? 0 };
}

function serverTimingOf(t: NonNullable<OperationResult['serverTiming']>, ops: number) {
  const h = decodeHistogram(t.histogram);
  return { rpcsPerOp: t.rpcs / ops, p50Ms: h.getValueAtPercentile(50) / 1000, p99Ms: h.getValueAtPercentile(99) / 1000 };
}

const errorCount = (errors: OperationResult['errors']) => Object.values(errors).reduce((a, b) => a + b, 0);

/** Each operation kind of the mix summarized over the measured phase, as the total is, with the server's side where the target tells it. */
function operationsOf(r: ResultMessage, server: CellOutcome['serverByOperation']): CellOperations {
  const out: CellOperations = {};
  for (const [kind, o] of Object.entries(r.operations) as [keyof CellOperations, OperationResult][]) {
    const s = server?.[kind];
    const ops = o.count + errorCount(o.errors);
    out[kind] = {
      ...summarize(decodeHistogram(o.histogram), r.elapsedMs),
      errorCount: errorCount(o.errors),
      errors: o.errors,
      ...(s && ops > 0 ? { server: { rpcsPerOp: s.count / ops, p50Ms: s.p50Ms, p99Ms: s.p99Ms } } : {}),
      ...(o.serverTiming && o.serverTiming.rpcs > 0 && ops > 0 ? { serverTiming: serverTimingOf(o.serverTiming, ops) } : {}),
    };
  }
  return out;
}
