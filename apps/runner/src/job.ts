import { parseJobSpec, planCells, summarize, decodeHistogram } from '@scb/shared';
import type { Db } from '@scb/db';
import { ClientInstallError, prepareDriver, type DriverLaunch } from '@scb/languages';
import { runCell, CellError } from './cell';
import { describeEnvironment } from './environment';
import { CACHE_DIR } from './paths';

export interface JobHooks {
  log: (line: string) => void;
  signal?: AbortSignal;
}

/** Runs every cell of a queued job in order and stores what each produced. */
export async function runJob(db: Db, jobId: string, hooks: JobHooks): Promise<void> {
  const job = await db.job.findUnique({ where: { id: jobId } });
  if (!job) return hooks.log(`job ${jobId}: not found, skipped`);
  if (job.status !== 'queued') return hooks.log(`job ${jobId}: already ${job.status}, skipped`);

  const parsed = parseJobSpec(job.spec);
  if (!parsed.ok) {
    await db.job.update({
      where: { id: jobId },
      data: { status: 'failed', finishedAt: new Date(), error: `stored spec is invalid: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` },
    });
    return;
  }
  const spec = parsed.value;
  await db.job.update({ where: { id: jobId }, data: { status: 'running', startedAt: new Date(), environment: { ...(await describeEnvironment()) } } });
  hooks.log(`job ${jobId}: running ${job.cellsTotal} cells`);

  const cells = await db.cell.findMany({ where: { jobId }, orderBy: { index: 'asc' } });
  const plans = planCells(spec);
  // One installation per client version per job; its outcome is remembered for the launch form.
  const launches = new Map<string, Promise<DriverLaunch>>();
  const launchFor = (client: (typeof plans)[number]['client'], log: (l: string) => void) => {
    const key = `${client.language}@${client.version}`;
    let p = launches.get(key);
    if (!p) {
      p = prepareDriver(client, { cacheDir: CACHE_DIR, log });
      launches.set(key, p);
      void p.then(
        () => recordVersion(db, client.language, client.version, null),
        (e) => {
          if (e instanceof ClientInstallError) void recordVersion(db, client.language, client.version, e.message);
        },
      );
    }
    return p;
  };
  // Stops the running cell on a cancel request (polled) or when the runner shuts down.
  const stop = new AbortController();
  const onShutdown = () => stop.abort('shutdown');
  hooks.signal?.addEventListener('abort', onShutdown, { once: true });
  if (hooks.signal?.aborted) onShutdown();
  const watcher = setInterval(async () => {
    const j = await db.job.findUnique({ where: { id: jobId }, select: { cancelRequested: true } }).catch(() => null);
    if (j?.cancelRequested) stop.abort('cancel');
  }, 1000);
  let succeeded = 0;
  for (const cell of cells) {
    if (stop.signal.aborted) break;
    const plan = plans[cell.index];
    const label = `job ${jobId} cell ${cell.index + 1}/${cells.length} (${plan.client.language} ${plan.client.version}, ${plan.configuration.label}, C=${plan.concurrency}, repeat ${plan.repeat})`;
    await db.cell.update({ where: { id: cell.id }, data: { status: 'running', startedAt: new Date() } });
    hooks.log(`${label}: started`);
    try {
      const launch = await launchFor(plan.client, (l) => hooks.log(`${label}: ${l}`)).catch((e: Error) => {
        throw new CellError(e.message);
      });
      const out = await runCell(spec, plan, launch, {
        signal: stop.signal,
        onProgress: (p) => void db.cell.update({ where: { id: cell.id }, data: { progress: p } }).catch(() => {}),
      });
      const summary = summarize(decodeHistogram(out.result.histogram), out.result.elapsedMs);
      const errorCount = Object.values(out.result.errors).reduce((a, b) => a + b, 0);
      await db.$transaction([
        db.cellResult.create({
          data: {
            cellId: cell.id,
            ...summary,
            errorCount,
            errors: out.result.errors,
            elapsedMs: out.result.elapsedMs,
            histogram: out.result.histogram,
            timeline: out.result.timeline,
            cpuMs: out.result.cpuMs,
            serverRpcs: out.channels?.totalRpcs ?? 0,
          },
        }),
        db.channelStat.createMany({
          data: (out.channels?.connections ?? []).map((c) => ({ cellId: cell.id, connection: c.connection, peer: c.peer, rpcs: c.rpcs, peakInFlight: c.peakInFlight })),
        }),
        db.cell.update({ where: { id: cell.id }, data: { status: 'succeeded', finishedAt: new Date() } }),
      ]);
      succeeded++;
      hooks.log(`${label}: ${summary.qps.toFixed(0)} qps, p50 ${summary.p50Ms.toFixed(1)} ms, p99 ${summary.p99Ms.toFixed(1)} ms, ${errorCount} errors, ${out.channels?.connections.length ?? 'uncounted'} connections`);
    } catch (e) {
      if (stop.signal.aborted) break; // the cell was stopped on purpose: marked cancelled below
      const message = e instanceof CellError ? e.message : `unexpected runner error: ${(e as Error).message}`;
      await db.cell.update({ where: { id: cell.id }, data: { status: 'failed', finishedAt: new Date(), error: message } });
      hooks.log(`${label}: failed: ${message}`);
    }
  }
  clearInterval(watcher);
  hooks.signal?.removeEventListener('abort', onShutdown);

  const reason = stop.signal.aborted ? (stop.signal.reason as 'cancel' | 'shutdown') : null;
  const status = reason === 'cancel' ? 'cancelled' : reason === 'shutdown' || succeeded === 0 ? 'failed' : 'succeeded';
  const error =
    reason === 'cancel'
      ? 'cancelled by request; finished cells are kept'
      : reason === 'shutdown'
        ? 'the runner was stopped while this job ran'
        : succeeded === 0
          ? 'every cell failed: see the cells for their errors'
          : null;
  if (reason) await db.cell.updateMany({ where: { jobId, status: { in: ['pending', 'running'] } }, data: { status: 'cancelled', finishedAt: new Date() } });
  await db.job.update({ where: { id: jobId }, data: { status, finishedAt: new Date(), error } });
  hooks.log(`job ${jobId}: ${status} (${succeeded} of ${cells.length} cells succeeded)`);
}

async function recordVersion(db: Db, language: string, version: string, failure: string | null): Promise<void> {
  const data = { ok: failure === null, message: failure, checkedAt: new Date() };
  await db.clientVersion.upsert({ where: { language_version: { language, version } }, create: { language, version, ...data }, update: data }).catch(() => {});
}
