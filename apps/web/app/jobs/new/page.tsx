import type { Metadata } from 'next';
import { webPolicy } from '@/lib/env';
import { NewJobForm } from './NewJobForm';

// The operator's limits are read when the page is asked for, not when it is built.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'New job' };

export default function NewJobPage() {
  return (
    <>
      <h1>New benchmark job</h1>
      <p className="muted">
        Each cell (client × configuration × concurrency × repeat) runs in a fresh driver process with a fresh client against the job's target: a fresh fake Spanner server of its own, the Cloud Spanner
        emulator, or Cloud Spanner.
      </p>
      <NewJobForm limitMinutes={webPolicy().limits.jobMinutes} />
    </>
  );
}
