// A cell's modeled ceiling: the throughput its own configuration allows, from what the product knows
// of it (agents, think time, the server's time per operation, connections × the target's stream limit,
// the session pool's maximum).
// C / server time is the "no limits" line; a clean cell held near a lower ceiling that its
// configuration sets is configuration-bound, and says which limit held.
import { ArrivalsSchema, isOpenLoop, type JobSpec } from '../job/spec';
import type { OperationSummary } from '../stored';
import { languageInfo } from '../registry';
import { streamLimit } from '../targets/index';
import { shownChannels } from './channels';
import { judgeCell, withConfigurationLimit, type CellVerdict, type SaturationFigures } from './verdict';

export interface CeilingFigures {
  /** Operations at once at most: a closed loop's agents, an open loop's outstanding cap. */
  concurrency: number;
  /** An open loop's offered operations per second; null for a closed loop. */
  arrivalRate?: number | null;
  /** Mean think time between one agent's operations, ms. */
  thinkMs: number;
  /** The server's time per operation (its RPCs' server time added up), ms; null where the target reports none. */
  serverMsPerOp: number | null;
  /** Connections that carried the cell's RPCs. */
  connections: number;
  /** Streams one connection allows (the target's), null where unknown. */
  streamLimit: number | null;
  /** The session pool's maximum as configured, null where none was set. */
  poolMax: number | null;
  /** Share of the measured seconds whose sample had the pool at POOL_FULL of its maximum in use or more; null where not sampled. */
  poolFullShare: number | null;
}

export type CeilingLimit = 'agents' | 'think' | 'streams' | 'pool' | 'rate' | 'outstanding';

/** A pool this close to its maximum in a second's sample is full for that second (samples land between operations, and Go's lag). */
export const POOL_FULL = 0.8;

export interface Ceiling {
  /** Agents over the server's time per operation: what nothing but the server would allow. */
  noLimitsQps: number;
  /** The lowest limit that applies, ops/s. */
  qps: number;
  limit: CeilingLimit;
}

/** The ceiling of a cell, or null where the server's time per operation is not known. */
export function modeledCeiling(f: CeilingFigures): Ceiling | null {
  if (f.serverMsPerOp === null || !(f.serverMsPerOp > 0) || f.concurrency <= 0) return null;
  const agentsQps = (f.concurrency * 1000) / (f.serverMsPerOp + f.thinkMs);
  // An open loop cannot pass its offered rate; its outstanding cap holds it like agents without think time.
  const open = f.arrivalRate != null && f.arrivalRate > 0;
  const noLimitsQps = open ? f.arrivalRate! : (f.concurrency * 1000) / f.serverMsPerOp;
  const limits: [CeilingLimit, number][] = open
    ? [
        ['rate', f.arrivalRate!],
        ['outstanding', agentsQps],
      ]
    : [[f.thinkMs > 0 ? 'think' : 'agents', agentsQps]];
  // At most connections × limit RPCs in flight, each holding its stream for the server's time.
  if (f.streamLimit !== null && f.connections > 0) limits.push(['streams', (f.connections * f.streamLimit * 1000) / f.serverMsPerOp]);
  // At most poolMax operations at once, each holding its session for (at least) the server's time.
  if (f.poolMax !== null) limits.push(['pool', (f.poolMax * 1000) / f.serverMsPerOp]);
  const [limit, qps] = limits.reduce((lowest, l) => (l[1] < lowest[1] ? l : lowest));
  return { noLimitsQps, qps, limit };
}

/** The server's time per operation over the kinds a cell ran, weighted by their counts; null when a kind lacks it. */
export function serverMsPerOperation(operations: Record<string, OperationSummary | undefined> | null | undefined): number | null {
  let ms = 0;
  let count = 0;
  for (const o of Object.values(operations ?? {})) {
    if (!o || o.count === 0) continue;
    const server = o.server ?? o.serverTiming;
    if (!server) return null;
    ms += o.count * server.rpcsPerOp * server.p50Ms;
    count += o.count;
  }
  return count > 0 ? ms / count : null;
}

/** A clean cell this close to a ceiling its configuration set is held there. */
export const HELD_SHARE = 0.7;

/**
 * The configuration limit that held a cell, in words with its figures, or null: the stream limit when
 * a connection reached it and the cell ran at its ceiling; think time when it dominates an agent's
 * cycle and the cell ran at its ceiling. Agents alone (C / server time) are the "no limits" line.
 */
export function configurationLimit(ceiling: Ceiling | null, f: CeilingFigures & { qps: number; peakInFlight: number; capWaits?: number | null }): string | null {
  if (!ceiling || f.qps < HELD_SHARE * ceiling.qps) return null;
  const at = `at most ${Math.round(ceiling.qps)} ops/s, ${Math.round((100 * f.qps) / ceiling.qps)}% reached`;
  if (ceiling.limit === 'streams' && f.streamLimit !== null && f.peakInFlight >= f.streamLimit) {
    return `held at the stream limit: ${f.connections} connection${f.connections === 1 ? '' : 's'} × ${f.streamLimit} streams (${at})`;
  }
  if (ceiling.limit === 'pool' && f.poolMax !== null && f.poolFullShare !== null && f.poolFullShare >= 0.5) {
    return `session pool at or near its maximum ${f.poolMax} (${Math.ceil(POOL_FULL * f.poolMax)} or more in use) for ${Math.round(100 * f.poolFullShare)}% of the measured seconds (${at})`;
  }
  if (ceiling.limit === 'think' && f.serverMsPerOp !== null && f.thinkMs >= f.serverMsPerOp) {
    return `think time: ${f.concurrency} agents thinking ${Math.round(f.thinkMs)} ms (${at})`;
  }
  if (ceiling.limit === 'outstanding' && f.capWaits) {
    return `held at the outstanding cap: ${f.concurrency} operations at once, ${f.capWaits} arrivals waited for it (${at})`;
  }
  return null;
}

/** What the model reads of a stored cell. */
export interface CeilingCell {
  concurrency: number;
  client: { language: string };
  configuration: { sessionPool?: { maxSessions?: number } };
  operations: Record<string, OperationSummary | undefined> | null | undefined;
  channels: { rpcs: number; peakInFlight: number }[];
  /** Per-second samples; the last second is partial (the pool empties as the cell ends). */
  timeline: { pool?: Record<string, number> }[] | null | undefined;
}

/** A stored cell's figures for the model: its spec's think time (time-scaled) and target, its RPCs' server time and connections, its pool. */
export function cellCeilingFigures(spec: Pick<JobSpec, 'workload' | 'timeScale' | 'target' | 'arrivalRates'>, cell: CeilingCell): CeilingFigures & { peakInFlight: number } {
  const used = cell.channels.filter((c) => c.rpcs > 0);
  const poolMax = cell.configuration.sessionPool?.maxSessions ?? null;
  const inUse = languageInfo(cell.client.language)?.poolInUse;
  const samples = (cell.timeline ?? []).slice(0, -1).flatMap((t) => (inUse && t.pool?.[inUse] !== undefined ? [t.pool[inUse]] : []));
  // An open loop's cell level is its rate; its outstanding cap bounds the operations at once.
  const open = isOpenLoop(spec);
  return {
    concurrency: open ? (spec.workload.arrivals?.maxOutstanding ?? ArrivalsSchema.parse({}).maxOutstanding) : cell.concurrency,
    arrivalRate: open ? cell.concurrency : null,
    thinkMs: (spec.workload.thinkTime?.ms ?? 0) * spec.timeScale,
    serverMsPerOp: serverMsPerOperation(cell.operations),
    connections: used.length,
    streamLimit: streamLimit(spec.target),
    poolMax,
    poolFullShare: poolMax !== null && samples.length ? samples.filter((n) => n >= POOL_FULL * poolMax).length / samples.length : null,
    peakInFlight: Math.max(0, ...used.map((c) => c.peakInFlight)),
  };
}

/**
 * A stored cell's verdict and ceiling: which process limited it (judgeCell), and for a clean cell the
 * limit of its configuration that held it, if one did. Channels as the target counted them where it could.
 */
export function judgeCellWithCeiling(
  spec: Pick<JobSpec, 'workload' | 'timeScale' | 'target' | 'arrivalRates'>,
  cell: Pick<CeilingCell, 'concurrency' | 'client' | 'configuration'> & { channels: { source: string; rpcs: number; peakInFlight: number }[] },
  result: SaturationFigures & { qps: number; operations?: CeilingCell['operations']; timeline?: CeilingCell['timeline']; outstandingCapWaits?: number | null },
  cores: number,
): { verdict: CellVerdict; ceiling: Ceiling | null } {
  const figures = cellCeilingFigures(spec, { ...cell, operations: result.operations, timeline: result.timeline, channels: shownChannels(cell.channels).channels });
  const ceiling = modeledCeiling(figures);
  const agents = spec.arrivalRates ? {} : { agents: cell.concurrency };
  const judged = judgeCell({ ...result, ...agents, scheduleLagGoalMs: languageInfo(cell.client.language)?.scheduleLagGoalMs }, cores);
  return { verdict: withConfigurationLimit(judged, configurationLimit(ceiling, { ...figures, qps: result.qps, capWaits: result.outstandingCapWaits })), ceiling };
}
