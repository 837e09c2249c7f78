'use client';

import { useState } from 'react';
import { CopyMarkdown } from './CopyMarkdown';

/** Copy as Markdown and the JSON of the gate (what CI reads). */
export function GateActions({ id }: { id: string }) {
  const [note, setNote] = useState('');
  return (
    <div className="actions">
      <CopyMarkdown url={`/api/gates/${id}/markdown`} pasteInto="the issue or the release PR" onNote={setNote} />
      <a className="button-link" href={`/api/gates/${id}`} download={`spanner-client-bench-gate-${id}.json`}>
        Download JSON
      </a>
      {note && (
        <span className="muted" role="status">
          {note}
        </span>
      )}
    </div>
  );
}
