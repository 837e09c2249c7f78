import type { JobSpec } from '@scb/shared/spec';
import { CPU_BOUND_SHARE, cpuShare, summarizeChannels, type ChannelSummary } from '@scb/shared/channels';
import type { CsvRow } from '@scb/shared/export';
import type { TableCell } from '@scb/shared/table';
import type { LatencySummary } from '@scb/shared/stats';
import { db } from './db';

/** The API's view of a job: what GET /api/jobs/<id> answers and what the job page renders. */
export interface JobView {
  id: string;
  name: string | null;
  status: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  spec: JobSpec;
  environment: Record<string, unknown> | null;
  cellsTotal: number;
  cellsDone: number;
  cells: CellView[];
  /** The release gate this job runs, if any. */
  gateId: string | null;
}

export interface CellView {
  index: number;
  client: { language: string; version: string };
  configuration: Record<string, unknown> & { label: string };
  concurrency: number;
  repeat: number;
  status: string;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  progress: { phase: string; done: number; total?: number; elapsedMs: number; qps: number } | null;
  result: (LatencySummary & {
    errorCount: number;
    errors: Record<string, number>;
    elapsedMs: number;
    cpuMs: number;
    serverRpcs: number;
    timeline: { second: number; count: number; errors: number; p99Ms: number; ms?: number }[];
    /** Share of the machine's cores the driver used while measuring. */
    cpuShare: number;
    /** Over 85% of the cores: the number says more about this machine than about the client. */
    clientCpuBound: boolean;
  }) | null;
  channels: { connection: number; rpcs: number; peakInFlight: number }[];
  channelSummary: ChannelSummary;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function getJob(id: string): Promise<JobView | null> {
  const job = await db().job.findUnique({
    where: { id },
    include: { cells: { orderBy: { index: 'asc' }, include: { result: true, channels: { orderBy: { connection: 'asc' } } } }, gate: { select: { id: true } } },
  });
  if (!job) return null;
  const cores = Number((job.environment as { cores?: number } | null)?.cores ?? 0);
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    createdAt: job.createdAt.toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    error: job.error,
    spec: job.spec as unknown as JobSpec,
    environment: job.environment as Record<string, unknown> | null,
    cellsTotal: job.cellsTotal,
    gateId: job.gate?.id ?? null,
    cellsDone: job.cells.filter((c) => c.status !== 'pending' && c.status !== 'running').length,
    cells: job.cells.map((c) => {
      const { histogram: _h, cellId: _c, ...result } = c.result ?? ({} as NonNullable<typeof c.result>);
      return {
        index: c.index,
        client: { language: c.clientLanguage, version: c.clientVersion },
        configuration: c.config as CellView['configuration'],
        concurrency: c.concurrency,
        repeat: c.repeat,
        status: c.status,
        error: c.error,
        startedAt: iso(c.startedAt),
        finishedAt: iso(c.finishedAt),
        progress: c.progress as CellView['progress'],
        result: c.result
          ? {
              ...(result as unknown as Omit<NonNullable<CellView['result']>, 'cpuShare' | 'clientCpuBound'>),
              cpuShare: cpuShare(c.result.cpuMs, c.result.elapsedMs, cores),
              clientCpuBound: cpuShare(c.result.cpuMs, c.result.elapsedMs, cores) > CPU_BOUND_SHARE,
            }
          : null,
        channels: c.channels.map((ch) => ({ connection: ch.connection, rpcs: ch.rpcs, peakInFlight: ch.peakInFlight })),
        channelSummary: summarizeChannels(c.channels),
      };
    }),
  };
}

export interface JobListItem {
  id: string;
  name: string | null;
  status: string;
  createdAt: string;
  finishedAt: string | null;
  cellsTotal: number;
  cellsDone: number;
  clients: string;
  configurations: string;
  concurrency: string;
}

export async function listJobs(limit = 100, offset = 0): Promise<JobListItem[]> {
  const jobs = await db().job.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: limit, skip: offset });
  const done = await db().cell.groupBy({
    by: ['jobId'],
    where: { jobId: { in: jobs.map((j) => j.id) }, status: { notIn: ['pending', 'running'] } },
    _count: { _all: true },
  });
  const doneBy = new Map(done.map((d) => [d.jobId, d._count._all]));
  return jobs.map((j) => {
    const spec = j.spec as unknown as JobSpec;
    return {
      id: j.id,
      name: j.name,
      status: j.status,
      createdAt: j.createdAt.toISOString(),
      finishedAt: iso(j.finishedAt),
      cellsTotal: j.cellsTotal,
      cellsDone: doneBy.get(j.id) ?? 0,
      clients: spec.clients.map((c) => `${c.language} ${c.version}`).join(', '),
      configurations: spec.configurations.map((c) => c.label).join(', '),
      concurrency: spec.concurrency.join(', '),
    };
  });
}

/** The rows the results table and the Markdown export are built from. */
export function tableCells(job: JobView): TableCell[] {
  return job.cells.map((c) => ({
    clientLanguage: c.client.language,
    clientVersion: c.client.version,
    configLabel: c.configuration.label,
    concurrency: c.concurrency,
    repeat: c.repeat,
    status: c.status,
    error: c.error,
    result: c.result,
    cpuBound: c.result?.clientCpuBound,
  }));
}

export function csvRows(job: JobView): CsvRow[] {
  return job.cells.map((c) => ({
    job: job.id,
    cell: c.index + 1,
    language: c.client.language,
    version: c.client.version,
    configuration: c.configuration.label,
    concurrency: c.concurrency,
    repeat: c.repeat,
    status: c.status,
    qps: c.result?.qps,
    p50_ms: c.result?.p50Ms,
    p90_ms: c.result?.p90Ms,
    p99_ms: c.result?.p99Ms,
    p999_ms: c.result?.p999Ms,
    max_ms: c.result?.maxMs,
    count: c.result?.count,
    error_count: c.result?.errorCount,
    cpu_share: c.result?.cpuShare,
    client_cpu_bound: c.result?.clientCpuBound,
    connections_opened: c.result ? c.channelSummary.opened : null,
    connections_used: c.result ? c.channelSummary.used : null,
    hottest_share: c.result ? c.channelSummary.hottestShare : null,
    hottest_peak_in_flight: c.result ? c.channelSummary.hottestPeakInFlight : null,
    error: c.error,
  }));
}

/** The origin a request came to (behind a proxy: its forwarded host), for absolute permanent links. */
export function originOf(h: Headers): string {
  return `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('x-forwarded-host') ?? h.get('host') ?? 'localhost:3000'}`;
}

/** The job's permanent link. */
export function jobUrl(id: string, origin: string): string {
  return new URL(`/jobs/${id}`, origin).toString();
}
