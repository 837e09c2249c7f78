'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { postJson } from '@/components/post-json';

/** Queues the reproduction's job through POST /api/jobs and opens it. */
export function RunReproduction({ spec, title }: { spec: unknown; title: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    const res = await postJson('/api/jobs', spec);
    setBusy(false);
    if (res.ok) router.push(`/jobs/${res.body.id}`);
    else setError(res.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
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
