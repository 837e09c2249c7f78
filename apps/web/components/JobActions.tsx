'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { CopyMarkdown } from './CopyMarkdown';

/** Copy as Markdown, downloads, and Cancel while the job is live. */
export function JobActions({ id, live }: { id: string; live: boolean }) {
  const router = useRouter();
  const [note, setNote] = useState('');

  async function cancel() {
    const res = await fetch(`/api/jobs/${id}/cancel`, { method: 'POST' });
    const body = await res.json();
    setNote(res.ok ? (body.outcome === 'requested' ? 'Cancelling: the running cell stops within a few seconds.' : 'Cancelled.') : body.error);
    router.refresh();
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
      {live && (
        <button type="button" className="danger" onClick={cancel}>
          Cancel job
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
