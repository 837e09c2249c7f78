'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** Queues the reproduction's job through POST /api/jobs and opens it. */
export function RunReproduction({ spec, title }: { spec: unknown; title: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    const res = await fetch('/api/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    const body = res.headers.get('content-type')?.includes('json') ? await res.json() : { error: `the server answered HTTP ${res.status}` };
    setBusy(false);
    if (res.ok) router.push(`/jobs/${body.id}`);
    else setError(body.issues?.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`).join('; ') || body.error || `HTTP ${res.status}`);
  }
  return (
    <>
      <button type="button" onClick={run} disabled={busy} aria-label={`run ${title}`}>
        Run it
      </button>
      {error && (
        <span className="error" role="alert">
          {' '}
          {error}
        </span>
      )}
    </>
  );
}
