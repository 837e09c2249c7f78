import type { Metadata } from 'next';
import { NewJobForm } from './NewJobForm';

export const metadata: Metadata = { title: 'New job' };

export default function NewJobPage() {
  return (
    <>
      <h1>New benchmark job</h1>
      <p className="muted">Each cell (client × configuration × concurrency × repeat) runs in a fresh driver process with a fresh client against its own fresh fake Spanner server.</p>
      <NewJobForm />
    </>
  );
}
