import { capWithinBudget, type CellPlan, clientText, isFinishedCell, opsAt, opsStarted, targetBudget, targetCap } from '@scb/shared';
import { artifactContent, failCell, getJobToRun, markCellRunning, recordClientVersion, storeCellProgress, storeCellResult, storeJobSpent, type CellWrite, type Db } from '@scb/db';
import { CellError, ClientInstallError, prepareDriver, type DriverLaunch } from '@scb/languages';
import { watchForStop } from './cancel';
import { runCell } from './cell';
import { cellResultOf } from './cell-result';
import { redactEnvironment } from './driver-env';
import { endJob, failInvalidJob, failRefusedJob, startJob } from './job-status';
import { untilStored } from './db-retry';
import { CACHE_DIR } from './paths';
import type { Presence } from './presence';
import { refuseJobOnTarget } from './targets/index';

export interface JobHooks {
  log: (line: string) => void;
  signal?: AbortSignal;
  /** The runner's heartbeat: told the job and cell it is busy with. */
  presence?: Pick<Presence, 'runnerId' | 'busy'>;
}

/** Runs every cell of a queued job in order and stores what each produced. */
export async function runJob(db: Db, jobId: string, hooks: JobHooks): Promise<void> {
  const job = await getJobToRun(db, jobId);
  if (!job) return hooks.log(`job ${jobId}: not found, skipped`);
  if (job.status !== 'queued') return hooks.log(`job ${jobId}: already ${job.status}, skipped`);
  if (!job.spec.ok) return failInvalidJob(db, jobId, job.spec.issues);
  const spec = job.spec.value;
  const refused = refuseJobOnTarget(spec);
  if (refused) {
    await failRefusedJob(db, jobId, refused);
    return hooks.log(`job ${jobId}: failed at once: ${refused}`);
  }
  if (
    !(await startJob(
      db,
      jobId,
      hooks.presence?.runnerId ?? null,
      spec.clients.some((c) => c.artifact),
    ))
  )
    return hooks.log(`job ${jobId}: no longer queued, skipped`);
  hooks.presence?.busy(jobId);
  // A resumed job (its runner died) keeps its finished cells exactly as stored.
  const finished = job.cells.filter((c) => isFinishedCell(c.status));
  hooks.log(`job ${jobId}: running ${job.cellsTotal - finished.length} cells${finished.length ? ` (resumed: ${finished.length} already finished)` : ''}`);

  // The cells as planned when the job was created: a stored row that no longer parses fails the job.
  const unplanned = job.cells.flatMap((c) => (c.plan.ok ? [] : c.plan.issues));
  if (unplanned.length) return failInvalidJob(db, jobId, unplanned);
  const cells = job.cells.flatMap((c) => (c.plan.ok ? [{ ...c, plan: c.plan.value }] : []));
  // One installation per client version per job; its outcome is remembered for the launch form.
  const launches = new Map<string, Promise<DriverLaunch>>();
  const launchFor = (client: CellPlan['client'], log: (l: string) => void) => {
    const key = clientText(client);
    let p = launches.get(key);
    if (!p) {
      p = prepareDriver(client, { cacheDir: CACHE_DIR, log, buildBytes: (id) => artifactContent(db, id) });
      launches.set(key, p);
      // The launch form lists versions as published; a build against a pinned grpc-go, or an uploaded one, is another thing.
      if (!client.grpcVersion && !client.artifact)
        void p.then(
          () => recordClientVersion(db, client.language, client.version, null).catch(() => {}),
          (e) => {
            if (e instanceof ClientInstallError) void recordClientVersion(db, client.language, client.version, redactEnvironment(e.message)).catch(() => {});
          },
        );
    }
    return p;
  };
  // Stops the running cell on a cancel request or when the runner shuts down.
  const stop = watchForStop(db, jobId, hooks.signal);
  const runnerId = hooks.presence?.runnerId ?? null;
  // Another runner took the job up (this one's heartbeat lapsed): leave it alone, write nothing more.
  let taken = false;
  const lost = (write: CellWrite) => {
    if (write !== 'lost') return false;
    taken = true;
    stop.dispose();
    hooks.log(`job ${jobId}: taken up by another runner while this one ran it; leaving it`);
    return true;
  };
  let succeeded = finished.filter((c) => c.status === 'succeeded').length;
  // Cloud Spanner: the job-wide budget lowers each cell's cap to what is left, and ends the job when spent.
  const budget = targetBudget(spec.target);
  const cellCap = targetCap(spec.target);
  let spent = job.spent;
  for (const cell of cells) {
    if (stop.signal.aborted) break;
    if (isFinishedCell(cell.status)) continue;
    hooks.presence?.busy(jobId, cell.index);
    const plan = cell.plan;
    const label = `job ${jobId} cell ${cell.index + 1}/${cells.length} (${clientText(plan.client)}, ${plan.configuration.label}, C=${plan.concurrency}, repeat ${plan.repeat})`;
    const started = await untilStored(() => markCellRunning(db, cell.id, runnerId), hooks.log, `${label}: start`);
    if (lost(started)) return;
    if (started === 'finished') continue; // the job ended meanwhile (a cancel): its end below says how
    hooks.log(`${label}: started`);
    const startedAt = Date.now();
    const cap = budget && cellCap ? capWithinBudget(cellCap, budget, spent) : cellCap;
    try {
      if (cap && 'spent' in cap) throw new CellError(cap.spent);
      const launch = await launchFor(plan.client, (l) => hooks.log(`${label}: ${l}`)).catch((e: Error) => {
        throw new CellError(e.message);
      });
      const out = await runCell(
        spec,
        plan,
        launch,
        {
          signal: stop.signal,
          onProgress: (p) => void storeCellProgress(db, cell.id, p).catch(() => {}),
        },
        cap,
      );
      if (budget && cap) {
        const ops = opsStarted(out.result, opsAt(spec.workload.warmupOps, plan.concurrency), cap);
        spent = { ...spent, ops: spent.ops + ops, sessions: spent.sessions + (out.result.sessionsCreated ?? 0) };
      }
      const result = cellResultOf(out);
      if (lost(await untilStored(() => storeCellResult(db, cell.id, result, runnerId), hooks.log, `${label}: result`))) return;
      succeeded++;
      hooks.log(
        `${label}: ${result.qps.toFixed(0)} qps, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, ${result.errorCount} errors, ${out.channels?.connections.length ?? 'uncounted'} connections`,
      );
    } catch (e) {
      if (stop.signal.aborted) break; // the cell was stopped on purpose: cancelled with the job below
      const message = e instanceof CellError ? e.message : redactEnvironment(`unexpected runner error: ${(e as Error).message}`);
      if (lost(await untilStored(() => failCell(db, cell.id, message, runnerId), hooks.log, `${label}: failure`))) return;
      hooks.log(`${label}: failed: ${message}`);
    } finally {
      // A cell's seconds count from its start to its end, a failed one's too.
      if (budget && !taken && !(cap && 'spent' in cap)) {
        spent = { ...spent, seconds: spent.seconds + (Date.now() - startedAt) / 1000 };
        const now = spent;
        await untilStored(() => storeJobSpent(db, jobId, now), hooks.log, `${label}: budget`);
      }
    }
  }
  stop.dispose();

  const { status } = await untilStored(() => endJob(db, jobId, stop.reason(), succeeded), hooks.log, `job ${jobId}: end`);
  hooks.log(`job ${jobId}: ${status} (${succeeded} of ${cells.length} cells succeeded)`);
}
