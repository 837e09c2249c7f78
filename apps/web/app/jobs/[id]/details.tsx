import { jobMarkdown } from '@scb/shared/markdown';
import type { TableCell } from '@scb/shared/table';
import { jobUrl, publicOrigin, type JobView } from '@/lib/jobs';

/** The job as Markdown for a GitHub issue, and its spec as JSON, folded. */
export function JobDetails({ job, cells }: { job: JobView; cells: TableCell[] }) {
  return (
    <>
      <details>
        <summary>Markdown (for a GitHub issue)</summary>
        <pre className="markdown" data-testid="markdown">
          {jobMarkdown({ id: job.id, url: jobUrl(job.id, publicOrigin()), spec: job.spec, environment: job.environment, cells, expectations: job.expectations })}
        </pre>
      </details>
      <details>
        <summary>Job spec (JSON)</summary>
        <pre>{JSON.stringify(job.spec, null, 2)}</pre>
      </details>
    </>
  );
}
