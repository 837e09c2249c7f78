'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { CopyMarkdown } from './CopyMarkdown';

// Every write is declared JSON, which a cross-site form cannot send.
const JSON_POST: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };

/** Copy as Markdown, downloads; Cancel while the job is live, Re-run (a new linked job) once it finished. */
export function JobActions({ id, live, gate }: { id: string; live: boolean; gate: boolean }) {
  const router = useRouter();
  const [note, setNote] = useState('');

  async function cancel() {
    const res = await fetch(`/api/jobs/${id}/cancel`, JSON_POST);
    const body = await res.json();
    setNote(res.ok ? (body.outcome === 'requested' ? 'Cancelling: the running cell stops within a few seconds.' : 'Cancelled.') : body.error);
    router.refresh();
  }

  async function rerun() {
    const res = await fetch(`/api/jobs/${id}/rerun`, JSON_POST);
    const body = await res.json();
    if (res.ok) router.push(`/jobs/${body.id}`);
    else setNote(body.error);
  }

  return (
    <div className="actions">
      <CopyMarkdown url={`/api/jobs/${id}/markdown`} pasteInto="the issue" onNote={setNote} />
      <a className="button-link" href={`/api/jobs/${id}`} download={`spanner-client-bench-${id}.json`}>
        Download JSON
      </a>
      <a className="button-link" href={`/api/jobs/${id}/csv`}>
        Download CSV
      </a>
      {live ? (
        <button type="button" className="danger" onClick={cancel}>
          Cancel job
        </button>
      ) : gate ? null : (
        <button type="button" onClick={rerun} title="A new job with the same spec, linked to this one; this one stays as stored">
          Re-run as a new job
        </button>
      )}
      {note && (
        <span className="muted" role="status">
          {note}
        </span>
      )}
    </div>
  );
}
