import { formatUtc } from '@scb/shared/table';
import { StatusBadge } from '@/components/StatusBadge';
import type { InvalidJob } from '@/lib/jobs';

/** A stored job that does not parse: named, with what is wrong, instead of a broken page. */
export function InvalidJobPage({ job }: { job: InvalidJob }) {
  return (
    <>
      <h1>
        {job.name || `Job ${job.id}`} <StatusBadge status={job.status} />
      </h1>
      <p className="muted">created {formatUtc(job.createdAt)}</p>
      <p className="error" role="alert">
        {job.invalid}
      </p>
    </>
  );
}
