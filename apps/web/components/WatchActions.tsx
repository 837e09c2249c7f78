'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** Delete (stop) a watch: its creator's or an admin's to do (the API answers anyone else 403, said here). */
export function WatchActions({ id }: { id: string }) {
  const router = useRouter();
  const [note, setNote] = useState('');

  async function stop() {
    // Every write is declared JSON, which a cross-site form cannot send.
    const res = await fetch(`/api/watches/${id}`, { method: 'DELETE', headers: { 'content-type': 'application/json' } });
    const body = await res.json();
    setNote(res.ok ? `Deleted: ${body.cancelled} queued gates cancelled, ${body.kept} kept.` : body.error);
    router.refresh();
  }

  return (
    <div className="actions">
      <button type="button" className="danger" onClick={stop} title="No more polls; its queued gates are cancelled, its verdicts stay">
        Delete watch
      </button>
      {note && (
        <span className="muted" role="status">
          {note}
        </span>
      )}
    </div>
  );
}
