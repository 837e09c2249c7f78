'use client';

import { useState } from 'react';

/** Copy as Markdown and the JSON of the gate (what CI reads). */
export function GateActions({ id }: { id: string }) {
  const [note, setNote] = useState('');
  async function copy() {
    const text = await (await fetch(`/api/gates/${id}/markdown`)).text();
    try {
      await navigator.clipboard.writeText(text);
      setNote('Markdown copied: paste it into the issue or the release PR.');
    } catch {
      setNote('The browser refused the clipboard: copy the text under "Markdown" below.');
    }
  }
  return (
    <div className="actions">
      <button type="button" onClick={copy}>Copy as Markdown</button>
      <a className="button-link" href={`/api/gates/${id}`} download={`spanner-client-bench-gate-${id}.json`}>Download JSON</a>
      {note && <span className="muted" role="status">{note}</span>}
    </div>
  );
}
