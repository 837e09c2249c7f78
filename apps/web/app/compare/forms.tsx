import type { CompareSelection } from '@scb/shared/compare';

/** The two forms: compare jobs, and (folded) compare individual cells; filled in from the current selection. */
export function Forms({ selection }: { selection: CompareSelection | null }) {
  const jobs = selection?.kind === 'jobs' ? selection.jobs.join(', ') : '';
  const cells = selection?.kind === 'cells' ? selection.cells.map((c) => `${c.job}:${c.index}`).join(', ') : '';
  return (
    <div className="cmp-forms">
      <form method="get" action="/compare" className="cmp-form" aria-label="compare jobs">
        <label htmlFor="cmp-jobs">Jobs</label>
        <input id="cmp-jobs" type="text" name="jobs" defaultValue={jobs} placeholder="baseline id, candidate id, …" size={50} spellCheck={false} autoComplete="off" />
        <button type="submit">Compare jobs</button>
        <span className="cmp-hint">Job ids or job links, separated by commas or spaces; the first is the baseline. One job that ran several client versions compares them.</span>
      </form>
      <details open={selection?.kind === 'cells'}>
        <summary>Compare individual cells</summary>
        <form method="get" action="/compare" className="cmp-form" aria-label="compare cells">
          <label htmlFor="cmp-cells">Cells</label>
          <input id="cmp-cells" type="text" name="cells" defaultValue={cells} placeholder="jobId:0, jobId:3" size={50} spellCheck={false} autoComplete="off" />
          <button type="submit">Compare cells</button>
          <span className="cmp-hint">
            <code>jobId:cellIndex</code>, the index 0-based as in <code>GET /api/jobs/&lt;id&gt;</code> (the job page&apos;s # column minus one); the first is the baseline.
          </span>
        </form>
      </details>
    </div>
  );
}
