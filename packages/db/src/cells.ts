// Cells: what "finished" means, and their lifecycle as the runner drives it.
import {
  CellErrorsSchema,
  CellOperationsSchema,
  CellEventsSchema,
  CellTokensSchema,
  CellUncorrectedSchema,
  type CellEvent,
  type CellTokens,
  type CellUncorrected,
  type CellOperations,
  CellTimelineSchema,
  ConfigurationSchema,
  isFinishedCell,
  ProgressMessageSchema,
  RAN_CELL_STATUSES,
  UNFINISHED_CELL_STATUSES,
  parseStored,
  type Configuration,
  type ProgressMessage,
  type TimelinePoint,
} from '@scb/shared';
import type { Db } from './client';
import { type Cell, type CellResult, type ChannelStat, Prisma } from '../generated/prisma/client';
import type { ColumnParser } from './read';
import { addCellToTrendSummary } from './trend-summary';

/** Finished cells (see isFinishedCell in @scb/shared) as a query filter. */
export const FINISHED_CELL = { status: { notIn: [...UNFINISHED_CELL_STATUSES] } } satisfies Prisma.CellWhereInput;
export const UNFINISHED_CELL = { status: { in: [...UNFINISHED_CELL_STATUSES] } } satisfies Prisma.CellWhereInput;
export const RAN_CELL = { status: { in: [...RAN_CELL_STATUSES] } } satisfies Prisma.CellWhereInput;

/** One connection of a cell's client as its target counted it. */
export type StoredChannel = Omit<ChannelStat, 'id' | 'cellId'>;

/** A cell's measured result; serverRpcs is null where the target cannot count RPCs. */
export type StoredCellResult = Omit<CellResult, 'cellId' | 'errors' | 'timeline' | 'operations' | 'events' | 'uncorrected' | 'tokens'> & {
  errors: Record<string, number>;
  uncorrected: CellUncorrected | null;
  timeline: TimelinePoint[];
  operations: CellOperations | null;
  events: CellEvent[] | null;
  tokens: CellTokens;
};

export type StoredCell = Omit<Cell, 'jobId' | 'config' | 'progress'> & {
  config: Configuration;
  /** The driver's latest progress line while the cell runs. */
  progress: ProgressMessage | null;
  result: StoredCellResult | null;
  /** By connection number. */
  channels: StoredChannel[];
};

/** A cell row as read with its result and channels, JSON columns parsed into `p` under `path`. */
export function parseCell(c: Cell & { result: CellResult | null; channels: ChannelStat[] }, p: ColumnParser, path: string): StoredCell {
  const { jobId: _j, config, progress, result, channels, ...plain } = c;
  return {
    ...plain,
    config: p.take(`${path}.config`, parseStored(ConfigurationSchema, config)),
    progress: p.take(`${path}.progress`, parseStored(ProgressMessageSchema.nullable(), progress)),
    result: result && {
      ...omitCellId(result),
      errors: p.take(`${path}.result.errors`, parseStored(CellErrorsSchema, result.errors)),
      timeline: p.take(`${path}.result.timeline`, parseStored(CellTimelineSchema, result.timeline)),
      operations: p.take(`${path}.result.operations`, parseStored(CellOperationsSchema, result.operations)),
      events: p.take(`${path}.result.events`, parseStored(CellEventsSchema, result.events)),
      tokens: p.take(`${path}.result.tokens`, parseStored(CellTokensSchema, result.tokens)),
      uncorrected: p.take(`${path}.result.uncorrected`, parseStored(CellUncorrectedSchema, result.uncorrected)),
    },
    channels: channels.map(({ id: _i, cellId: _c, ...ch }) => ch),
  };
}

function omitCellId({ cellId: _c, ...rest }: CellResult) {
  return rest;
}

/**
 * What became of a runner's write to a cell. `finished`: the cell had already finished (an earlier try
 * of this write landed and its answer was lost to an outage, or the job ended meanwhile): nothing
 * written. `lost`: the job is no longer this runner's (its heartbeat lapsed and another took the job up):
 * nothing written, and the runner must leave the job alone.
 */
export type CellWrite = 'stored' | 'finished' | 'lost';

/** A cell of a job run by `runnerId` (null: a runner without presence, tests and the embedded start of old). */
const ownedCell = (cellId: number, runnerId: string | null) => ({ id: cellId, job: { runnerId } }) satisfies Prisma.CellWhereInput;

/** Why a write to a cell took no effect: it had finished, or its job is another runner's now. */
async function missedWrite(db: Db, cellId: number, runnerId: string | null): Promise<Exclude<CellWrite, 'stored'>> {
  const cell = await db.cell.findUnique({ where: { id: cellId }, select: { status: true, job: { select: { runnerId: true } } } });
  return cell && cell.job.runnerId === runnerId && isFinishedCell(cell.status) ? 'finished' : 'lost';
}

/** The database's refusal to change a finished row (migration finished_immutable). */
export function isFinishedRefusal(e: unknown): boolean {
  return /is finished \(|rows are written once|only a running cell stores/.test(`${(e as Error)?.message ?? e}`);
}

export async function markCellRunning(db: Db, cellId: number, runnerId: string | null = null): Promise<CellWrite> {
  // Pending, or running already: a retry after a lost answer.
  const r = await db.cell.updateMany({ where: { ...ownedCell(cellId, runnerId), ...UNFINISHED_CELL }, data: { status: 'running', startedAt: new Date(), attempts: { increment: 1 } } });
  return r.count ? 'stored' : missedWrite(db, cellId, runnerId);
}

/** The driver's latest progress line (phase, done, total, qps), for the live job page. */
export async function storeCellProgress(db: Db, cellId: number, progress: ProgressMessage): Promise<void> {
  await db.cell.update({ where: { id: cellId }, data: { progress } });
}

/** What a cell produced: its result and the connections its target counted (none where it counts none). */
/** What a runner stores; the figures measured later than the first results (memory, GC, a scan's row times, wire bytes) may be left out. */
type LaterFigures = 'peakRssBytes' | 'gcMs' | 'firstRowP50Ms' | 'firstRowP99Ms' | 'lastRowP50Ms' | 'lastRowP99Ms' | 'wireBytes';
export type CellResultInput = Omit<StoredCellResult, LaterFigures> & Partial<Pick<StoredCellResult, LaterFigures>> & { channels: StoredChannel[] };

/**
 * Stores a cell's result, its channel stats and its succeeded status in one transaction, all or
 * nothing, if the cell is running in a job of `runnerId`; the same transaction adds the cell to the
 * across-versions summary (trend-summary.ts).
 */
export async function storeCellResult(db: Db, cellId: number, input: CellResultInput, runnerId: string | null = null): Promise<CellWrite> {
  const { channels, operations, events, uncorrected, tokens, ...result } = input;
  try {
    await db.$transaction(async (tx) => {
      await tx.cellResult.create({
        data: {
          ...result,
          operations: operations ?? Prisma.DbNull,
          events: events ?? Prisma.DbNull,
          uncorrected: uncorrected ?? Prisma.DbNull,
          tokens: tokens ?? Prisma.DbNull,
          cellId,
        },
      });
      await tx.channelStat.createMany({ data: channels.map((c) => ({ ...c, cellId })) });
      const done = await tx.cell.updateMany({ where: { ...ownedCell(cellId, runnerId), status: 'running' }, data: { status: 'succeeded', finishedAt: new Date() } });
      if (!done.count) throw new NotOwned();
      // The across-versions view's summary, in the same transaction: it never misses or double-counts a cell.
      await addCellToTrendSummary(tx, cellId);
    });
    return 'stored';
  } catch (e) {
    if (e instanceof NotOwned || isFinishedRefusal(e)) return missedWrite(db, cellId, runnerId);
    throw e;
  }
}

class NotOwned extends Error {}

export async function failCell(db: Db, cellId: number, message: string, runnerId: string | null = null): Promise<CellWrite> {
  const r = await db.cell.updateMany({ where: { ...ownedCell(cellId, runnerId), ...UNFINISHED_CELL }, data: { status: 'failed', finishedAt: new Date(), error: message } });
  return r.count ? 'stored' : missedWrite(db, cellId, runnerId);
}

/** The update that cancels a job's unfinished cells (not yet run), for a transaction. */
export function cancelUnfinishedCellsOp(db: Pick<Db, 'cell'>, jobId: string) {
  return db.cell.updateMany({ where: { jobId, ...UNFINISHED_CELL }, data: { status: 'cancelled', finishedAt: new Date() } });
}

/** Cancels the cells of a job that are still pending or running; returns how many. */
export async function cancelUnfinishedCells(db: Db, jobId: string): Promise<number> {
  return (await cancelUnfinishedCellsOp(db, jobId)).count;
}
