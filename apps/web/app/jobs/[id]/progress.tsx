import { cellLabel, runningCell, type JobView } from '@/lib/jobs';

/** An unfinished job's cells done, and the cell running now with its last progress. */
export function Progress({ job }: { job: JobView }) {
  const current = runningCell(job);
  const pct = job.cellsTotal ? Math.round((100 * job.cellsDone) / job.cellsTotal) : 0;
  return (
    <section aria-label="progress">
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={job.cellsTotal} aria-valuenow={job.cellsDone}>
        <div style={{ width: `${pct}%` }} />
      </div>
      <p className="muted">
        {job.cellsDone} of {job.cellsTotal} cells done
        {current && (
          <>
            {' '}
            · now: {cellLabel(current)}
            {current.progress && (
              <>
                {' '}
                · {current.progress.phase} {current.progress.done}
                {current.progress.total ? ` / ${current.progress.total}` : ''} ops, {Math.round(current.progress.qps)} qps, {(current.progress.elapsedMs / 1000).toFixed(1)} s
              </>
            )}
          </>
        )}
      </p>
    </section>
  );
}
