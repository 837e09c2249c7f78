// Cells: what "finished" means, and their lifecycle as the runner drives it.
import {
  CellErrorsSchema,
  CellOperationsSchema,
  CellEventsSchema,
  type CellEvent,
  type CellOperations,
  CellTimelineSchema,
  ConfigurationSchema,
  ProgressMessageSchema,
  UNFINISHED_CELL_STATUSES,
  parseStored,
  type Configuration,
  type ProgressMessage,
  type TimelinePoint,
} from '@scb/shared';
import type { Db } from './client';
import { type Cell, type CellResult, type ChannelStat, Prisma } from '../generated/prisma/client';
import type { ColumnParser } from './read';

/** Finished cells (see isFinishedCell in @scb/shared) as a query filter. */
export const FINISHED_CELL = { status: { notIn: [...UNFINISHED_CELL_STATUSES] } } satisfies Prisma.CellWhereInput;
export const UNFINISHED_CELL = { status: { in: [...UNFINISHED_CELL_STATUSES] } } satisfies Prisma.CellWhereInput;

/** One connection of a cell's client as its target counted it. */
export type StoredChannel = Omit<ChannelStat, 'id' | 'cellId'>;

/** A cell's measured result; serverRpcs is null where the target cannot count RPCs. */
export type StoredCellResult = Omit<CellResult, 'cellId' | 'errors' | 'timeline' | 'operations' | 'events'> & {
  errors: Record<string, number>;
  timeline: TimelinePoint[];
  operations: CellOperations | null;
  events: CellEvent[] | null;
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
    },
    channels: channels.map(({ id: _i, cellId: _c, ...ch }) => ch),
  };
}

function omitCellId({ cellId: _c, ...rest }: CellResult) {
  return rest;
}

export async function markCellRunning(db: Db, cellId: number): Promise<void> {
  await db.cell.update({ where: { id: cellId }, data: { status: 'running', startedAt: new Date(), attempts: { increment: 1 } } });
}

/** The driver's latest progress line (phase, done, total, qps), for the live job page. */
export async function storeCellProgress(db: Db, cellId: number, progress: ProgressMessage): Promise<void> {
  await db.cell.update({ where: { id: cellId }, data: { progress } });
}

/** What a cell produced: its result and the connections its target counted (none where it counts none). */
export type CellResultInput = StoredCellResult & { channels: StoredChannel[] };

/** Stores a cell's result, its channel stats and its succeeded status in one transaction: all or nothing. */
export async function storeCellResult(db: Db, cellId: number, input: CellResultInput): Promise<void> {
  const { channels, operations, events, ...result } = input;
  await db.$transaction([
    db.cellResult.create({ data: { ...result, operations: operations ?? Prisma.DbNull, events: events ?? Prisma.DbNull, cellId } }),
    db.channelStat.createMany({ data: channels.map((c) => ({ ...c, cellId })) }),
    db.cell.update({ where: { id: cellId }, data: { status: 'succeeded', finishedAt: new Date() } }),
  ]);
}

export async function failCell(db: Db, cellId: number, message: string): Promise<void> {
  await db.cell.update({ where: { id: cellId }, data: { status: 'failed', finishedAt: new Date(), error: message } });
}

/** The update that cancels a job's unfinished cells (not yet run), for a transaction. */
export function cancelUnfinishedCellsOp(db: Pick<Db, 'cell'>, jobId: string) {
  return db.cell.updateMany({ where: { jobId, ...UNFINISHED_CELL }, data: { status: 'cancelled', finishedAt: new Date() } });
}

/** Cancels the cells of a job that are still pending or running; returns how many. */
export async function cancelUnfinishedCells(db: Db, jobId: string): Promise<number> {
  return (await cancelUnfinishedCellsOp(db, jobId)).count;
}
