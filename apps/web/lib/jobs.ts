import { evaluateExpectations, type ExpectationCell } from '@scb/shared/expect';
import { clientText, isOpenLoop, loadLevels, OPERATIONS, type FieldIssue, type JobSpec, type Operation } from '@scb/shared/job';
import { placementFlags, placementProblem } from '@scb/shared/placement';
import { CHANNEL_SOURCES, cpuShare, shownChannels, summarizeChannels, type ChannelSource, type ChannelSummary } from '@scb/shared/channels';
import { verdictLegend, verdictReasons, type CellVerdict } from '@scb/shared/verdict';
import { judgeCellWithCeiling, type Ceiling } from '@scb/shared/ceiling';
import { warmStart, type WarmStart } from '@scb/shared/warmup';
import type { CsvRow } from '@scb/shared/export';
import { scanFigures } from '@scb/shared/result-set';
import type { TableCell } from '@scb/shared/table';
import type { LatencySummary } from '@scb/shared/stats';
import type { ProgressMessage, TimelinePoint } from '@scb/shared/protocol';
import { environmentAsAnswered, type CellEvent, type CellOperations, type CellTokens, type CellUncorrected, type JobEnvironment, type OperationSummary } from '@scb/shared/stored';
import { latencySplit, type LatencySplit } from '@scb/shared/split';
import type { BudgetSpent } from '@scb/shared/budget';
import { clientExtras, countJobs, getJob as readJob, listJobs as readJobs, type StoredCell } from '@scb/db';
import { db } from './db';
import { webEnv } from './env';
import { listRunners } from './runners';
import { idRefusal, plainText } from './http';

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
  environment: JobEnvironment | null;
  /** On Cloud Spanner: what its cells spent of the job-wide budget. */
  spent: BudgetSpent | null;
  cellsTotal: number;
  cellsDone: number;
  /** Times the job was taken up again after its runner died. */
  resumes: number;
  /** The finished job this one re-runs; and the later jobs that re-ran this one. */
  rerunOf: string | null;
  reruns: { id: string; status: string; createdAt: string }[];
  /** A queued job no alive runner can take: why, in one sentence; null otherwise. */
  placement: string | null;
  cells: CellView[];
  /** Its spec's expectations, evaluated on its cells; null where it states none. */
  expectations: ReturnType<typeof evaluateExpectations> | null;
  /** The release gate this job runs, if any. */
  gateId: string | null;
  /** Who submitted it ("local", a token's name, a signed-in user; null before submitters were recorded) and who asked to cancel it. */
  createdBy: string | null;
  cancelledBy: string | null;
}

/** A stored job whose JSON columns do not parse: what can still be said about it, and why. */
export interface InvalidJob {
  id: string;
  name: string | null;
  status: string;
  createdAt: string;
  /** One sentence naming every column that did not parse. */
  invalid: string;
  issues: FieldIssue[];
}

export function isInvalidJob(j: JobView | InvalidJob): j is InvalidJob {
  return 'invalid' in j;
}

export interface CellView {
  index: number;
  client: { language: string; version: string; grpcVersion: string | null; artifact?: string; label?: string };
  configuration: Record<string, unknown> & { label: string };
  /** A gate's job: baseline or candidate. */
  arm: string | null;
  /** The cell's load level: agents, or an open loop's operations per second (then `arrivalRate` too). */
  concurrency: number;
  /** An open loop's offered operations per second (the job's arrivalRates); null for a closed loop. */
  arrivalRate: number | null;
  repeat: number;
  status: string;
  error: string | null;
  /** Runs started; above 1 when its runner died during an earlier one. */
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  progress: ProgressMessage | null;
  result:
    | (LatencySummary & {
        errorCount: number;
        errors: Record<string, number>;
        elapsedMs: number;
        cpuMs: number;
        /** Every RPC the cell's target served; null where the target cannot count them. */
        serverRpcs: number | null;
        /** The fake's own added time per RPC (p50, p99); null for other targets. */
        targetAddedP50Ms: number | null;
        targetAddedP99Ms: number | null;
        /** The same on the wire (a fake cell with measureOnWire); null otherwise. */
        targetWireAddedP50Ms: number | null;
        targetWireAddedP99Ms: number | null;
        /** Node: the driver's event loop while measuring (busy share 0..1, delay p99); null for other languages. */
        driverLoopUtilization: number | null;
        driverLoopDelayP99Ms: number | null;
        /** The fake's thread while measuring (busy share, delay p99); null for other targets. */
        targetLoopUtilization: number | null;
        targetLoopDelayP99Ms: number | null;
        /** A target in a process of its own (the emulator): its CPU as a share of all cores; null for others. */
        targetCpuShare: number | null;
        /** The machine while measuring: all processes' and the runner's CPU as shares of all cores, load. */
        machineBusyShare: number | null;
        machineRunnerShare: number | null;
        machineLoad1: number | null;
        /** A cost cap (real Spanner) that ended the cell early: ops or time; null when none did. */
        capped: string | null;
        /** An open loop: latencies from each operation's actual start (p50Ms… above count from its intended one); null for a closed loop. */
        uncorrected: CellUncorrected | null;
        /** An open loop: how late the driver started operations that did not wait for the outstanding cap (p99, max); null for a closed loop. */
        scheduleLagP99Ms: number | null;
        scheduleLagMaxMs: number | null;
        /** An open loop: operations that arrived while the outstanding cap ran and waited for one to end; null for a closed loop. */
        outstandingCapWaits: number | null;
        /** The driver's peak resident memory, bytes, and its garbage collection time while measuring, ms; null for cells stored before. */
        peakRssBytes: number | null;
        gcMs: number | null;
        /** A scan's time from its start to its first row and to its last (p50, p99); null for other workloads and cells stored before. */
        firstRowP50Ms: number | null;
        firstRowP99Ms: number | null;
        lastRowP50Ms: number | null;
        lastRowP99Ms: number | null;
        /** Bytes the target sent the driver on the wire while measuring (the tap's or the fake's count); null where not counted. */
        wireBytes: number | null;
        timeline: TimelinePoint[];
        /** Per operation kind of the mix; null for cells stored before kinds were kept. */
        operations: CellOperations | null;
        /** What the target saw while measuring (the fake: connections, schedule changes, faults), ms into the measured phase; null where unknown. */
        events: CellEvent[] | null;
        /** The fake's credentials mode: RPCs by what their bearer token was; null otherwise. */
        tokens: CellTokens;
        /** Share of the machine's cores the driver used while measuring. */
        cpuShare: number;
        /** Which process limited the cell, and the figures past their thresholds (or the configuration limit that held it). */
        verdict: CellVerdict;
        /** The throughput its configuration allows (results/ceiling.ts); null where the server's time per operation is unknown. */
        ceiling: Ceiling | null;
        /** Whether the measured phase started warm (null: too short to tell). */
        warmStart: WarmStart | null;
      })
    | null;
  /** The connections as the target side counted them where it could (fake, tap), else as the client did. */
  channels: { connection: number; rpcs: number; peakInFlight: number }[];
  /** Who counted `channels`; null where nothing was counted. */
  channelSource: ChannelSource | null;
  channelSummary: ChannelSummary;
  /** The same traffic as other sources counted it (the client's own count beside the fake's). */
  otherChannelCounts: { source: ChannelSource; summary: ChannelSummary }[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function cellView(c: StoredCell, cores: number, spec: JobSpec): CellView {
  const shown = shownChannels(c.channels);
  let result: CellView['result'] = null;
  if (c.result) {
    const { histogram: _h, ...r } = c.result;
    const { verdict, ceiling } = judgeCellWithCeiling(spec, { concurrency: c.concurrency, client: { language: c.clientLanguage }, configuration: c.config, channels: c.channels }, r, cores);
    result = { ...r, cpuShare: cpuShare(r.cpuMs, r.elapsedMs, cores), verdict, ceiling, warmStart: warmStart(r.timeline, r.p50Ms) };
  }
  return {
    index: c.index,
    client: { language: c.clientLanguage, version: c.clientVersion, grpcVersion: c.clientGrpcVersion, ...clientExtras(c) },
    configuration: c.config,
    arm: c.arm,
    concurrency: c.concurrency,
    arrivalRate: isOpenLoop(spec) ? c.concurrency : null,
    repeat: c.repeat,
    status: c.status,
    error: c.error,
    attempts: c.attempts,
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    progress: c.progress,
    result,
    channels: shown.channels.map((ch) => ({ connection: ch.connection, rpcs: ch.rpcs, peakInFlight: ch.peakInFlight })),
    channelSource: shown.source,
    channelSummary: summarizeChannels(shown.channels),
    otherChannelCounts: CHANNEL_SOURCES.filter((s) => s !== shown.source && c.channels.some((ch) => ch.source === s)).map((source) => ({
      source,
      summary: summarizeChannels(c.channels.filter((ch) => ch.source === source)),
    })),
  };
}

/** A job as the API and the pages show it; InvalidJob when its stored row does not parse; null when there is none. */
export async function getJob(id: string): Promise<JobView | InvalidJob | null> {
  const job = await readJob(db(), id);
  if (!job) return null;
  if (!job.ok) return { id: job.id, name: job.name, status: job.status, createdAt: job.createdAt.toISOString(), invalid: job.invalid, issues: job.issues };
  const cores = job.environment?.cores ?? 0;
  const cells = job.cells.map((c) => cellView(c, cores, job.spec));
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    createdAt: job.createdAt.toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    error: job.error,
    spec: job.spec,
    environment: environmentAsAnswered(job.environment),
    spent: job.spent,
    cellsTotal: job.cellsTotal,
    gateId: job.gateId,
    createdBy: job.createdBy,
    cancelledBy: job.cancelledBy,
    cellsDone: job.cellsDone,
    resumes: job.resumes,
    rerunOf: job.rerunOf,
    reruns: job.reruns.map((r) => ({ id: r.id, status: r.status, createdAt: r.createdAt.toISOString() })),
    // A queued job says so when no alive runner can take it, instead of waiting silently.
    placement:
      job.status === 'queued'
        ? placementProblem(
            placementFlags(job.spec),
            (await listRunners()).filter((r) => r.alive),
          )
        : null,
    cells,
    expectations: job.spec.expectations?.length ? evaluateExpectations(job.spec.expectations, cells.map(expectationCell)) : null,
  };
}

/** What an expectation reads of a cell: its figures and the connections as shown (the target's count where there is one). */
function expectationCell(c: CellView): ExpectationCell {
  const source = c.channelSource ?? 'client';
  return { ...c, channels: c.channels.map((ch) => ({ source, rpcs: ch.rpcs })) };
}

/** A job to export (CSV, Markdown), or the plain-text answer saying why there is none. */
export async function exportableJob(id: string): Promise<JobView | Response> {
  const badId = idRefusal(id, 'job', false);
  if (badId) return badId;
  const job = await getJob(id);
  if (!job) return plainText(`no job with id "${id}"`, 404);
  if (isInvalidJob(job)) return plainText(job.invalid, 500);
  return job;
}

export interface JobListItem {
  id: string;
  name: string | null;
  status: string;
  /** Why a failed job failed (null otherwise). */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  cellsTotal: number;
  cellsDone: number;
  clients: string;
  configurations: string;
  concurrency: string;
  createdBy: string | null;
  /** Set (and the three fields above empty) when the stored job does not parse. */
  invalid?: string;
}

export async function listJobs(limit = 100, offset = 0, createdBy?: string): Promise<JobListItem[]> {
  return (await readJobs(db(), { limit, offset, createdBy })).map((j) => ({
    id: j.id,
    createdBy: j.createdBy,
    name: j.name,
    status: j.status,
    error: j.error,
    createdAt: j.createdAt.toISOString(),
    finishedAt: iso(j.finishedAt),
    cellsTotal: j.cellsTotal,
    cellsDone: j.cellsDone,
    ...(j.ok
      ? {
          clients: j.spec.clients.map((c) => `${c.language} ${c.version}`).join(', '),
          configurations: j.spec.configurations.map((c) => c.label).join(', '),
          concurrency: loadLevels(j.spec).join(', '),
        }
      : { clients: '', configurations: '', concurrency: '', invalid: j.invalid }),
  }));
}

/** How many jobs there are (for the pager). */
export function jobCount(createdBy?: string): Promise<number> {
  return countJobs(db(), createdBy);
}

/** The rows the results table and the Markdown export are built from. */
export function tableCells(job: JobView): TableCell[] {
  return job.cells.map((c) => ({
    ...c,
    operations: c.result?.operations,
    verdict: c.result?.verdict.kind,
    verdictReasons: c.result ? verdictReasons(c.result.verdict) : undefined,
    ceilingQps: c.result?.ceiling?.qps ?? null,
  }));
}

/** A cell in one line: its arm (a gate's job), client, configuration label, concurrency and repeat. */
export function cellLabel(c: CellView): string {
  return `${c.arm ? `${c.arm} · ` : ''}${clientText(c.client)} · ${c.configuration.label} · C=${c.concurrency} · repeat ${c.repeat}`;
}

/** The cell a runner is running now, if any. */
export function runningCell(job: JobView): CellView | undefined {
  return job.cells.find((c) => c.status === 'running');
}

/** Whether any cell has a result. */
export function hasResults(job: JobView): boolean {
  return job.cells.some((c) => c.result);
}

/** What the verdict marks among the job's results mean; empty when every cell is clean. */
export function jobVerdictLegend(job: JobView): string {
  return verdictLegend(job.cells.flatMap((c) => (c.result ? [c.result.verdict.kind] : [])));
}

/** One cell's result for one operation kind of the mix, with its client/server split where the server's side is known. */
export interface OperationRow {
  cell: CellView;
  kind: Operation;
  summary: OperationSummary;
  split: LatencySplit | null;
}

/** Every cell's result per operation kind of the mix: cells in order, each cell's kinds in mix order. */
export function operationRows(job: JobView): OperationRow[] {
  return job.cells.flatMap((cell) =>
    OPERATIONS.flatMap((kind) => {
      const summary = cell.result?.operations?.[kind];
      return summary ? [{ cell, kind, summary, split: latencySplit(summary) }] : [];
    }),
  );
}

/** The machine's CPU while measuring that was neither the driver, the runner nor the target's own process; null where the machine was not sampled. */
export function machineOthersShare(r: NonNullable<CellView['result']>): number | null {
  if (r.machineBusyShare == null) return null;
  return Math.max(0, r.machineBusyShare - (r.machineRunnerShare ?? 0) - r.cpuShare - (r.targetCpuShare ?? 0));
}

export function csvRows(job: JobView): CsvRow[] {
  // Typed per row: a key that is not a column of CELL_CSV_COLUMNS is an error here, not a value the CSV drops.
  return job.cells.map(
    (c): CsvRow => ({
      job: job.id,
      cell: c.index + 1,
      language: c.client.language,
      version: c.client.version,
      configuration: c.configuration.label,
      arm: c.arm ?? '',
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
      warm_start: c.result?.warmStart?.warm,
      driver_loop_utilization: c.result?.driverLoopUtilization,
      driver_loop_delay_p99_ms: c.result?.driverLoopDelayP99Ms,
      target_added_p50_ms: c.result?.targetAddedP50Ms,
      target_added_p99_ms: c.result?.targetAddedP99Ms,
      target_wire_added_p50_ms: c.result?.targetWireAddedP50Ms,
      target_wire_added_p99_ms: c.result?.targetWireAddedP99Ms,
      artifact: c.client.artifact ?? '',
      build_label: c.client.label ?? '',
      target_loop_utilization: c.result?.targetLoopUtilization,
      target_loop_delay_p99_ms: c.result?.targetLoopDelayP99Ms,
      target_cpu_share: c.result?.targetCpuShare,
      machine_busy_share: c.result?.machineBusyShare,
      machine_runner_share: c.result?.machineRunnerShare,
      machine_load1: c.result?.machineLoad1,
      capped: c.result?.capped,
      tokens_refused: c.result?.tokens ? c.result.tokens.missing + c.result.tokens.expired + c.result.tokens.invalid : undefined,
      arrival_rate: c.arrivalRate,
      uncorrected_p50_ms: c.result?.uncorrected?.p50Ms,
      uncorrected_p99_ms: c.result?.uncorrected?.p99Ms,
      schedule_lag_p99_ms: c.result?.scheduleLagP99Ms,
      outstanding_cap_waits: c.result?.outstandingCapWaits,
      peak_rss_bytes: c.result?.peakRssBytes,
      gc_ms: c.result?.gcMs,
      ...scanColumns(job, c),
      verdict: c.result?.verdict.kind,
      verdict_reasons: c.result ? verdictReasons(c.result.verdict) : undefined,
      channel_source: c.result ? c.channelSource : null,
      connections_opened: c.result ? c.channelSummary.opened : null,
      connections_used: c.result ? c.channelSummary.used : null,
      hottest_share: c.result ? c.channelSummary.hottestShare : null,
      hottest_peak_in_flight: c.result ? c.channelSummary.hottestPeakInFlight : null,
      error: c.error,
    }),
  );
}

/** A scan job's figures of a cell (result-set/figures.ts): empty for other jobs and cells without a result. */
type ScanCsvColumn = 'rows_per_second' | 'cpu_ms_per_1k_rows' | 'first_row_p50_ms' | 'first_row_p99_ms' | 'last_row_p50_ms' | 'last_row_p99_ms' | 'wire_bytes' | 'wire_bytes_per_second';
function scanColumns(job: JobView, c: CellView): Pick<CsvRow, ScanCsvColumn> {
  const shape = job.spec.workload.resultSet;
  const f = shape && c.result ? scanFigures(shape.rows, c.result) : null;
  return {
    rows_per_second: f?.rowsPerSecond,
    cpu_ms_per_1k_rows: f?.cpuMsPer1kRows,
    first_row_p50_ms: c.result?.firstRowP50Ms,
    first_row_p99_ms: c.result?.firstRowP99Ms,
    last_row_p50_ms: c.result?.lastRowP50Ms,
    last_row_p99_ms: c.result?.lastRowP99Ms,
    wire_bytes: c.result?.wireBytes,
    wire_bytes_per_second: f?.wireBytesPerSecond,
  };
}

/** The origin a request came to (behind a proxy: its forwarded host), for absolute permanent links. */
/** The origin of every link the app gives out: SCB_PUBLIC_URL, never a request's Host or X-Forwarded-* headers. */
export function publicOrigin(): string {
  return webEnv().publicOrigin;
}

/** The job's permanent link. */
export function jobUrl(id: string, origin: string): string {
  return new URL(`/jobs/${id}`, origin).toString();
}
