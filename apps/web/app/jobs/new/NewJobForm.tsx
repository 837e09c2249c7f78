'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { parseJobSpec, type FieldIssue } from '@scb/shared/spec';

const CONFIGS = [
  { key: 'on', label: 'grpc-gcp on' },
  { key: 'off', label: 'grpc-gcp off' },
  { key: 'default', label: 'client default' },
] as const;

function numberList(text: string): number[] {
  return text.split(/[\s,]+/).filter(Boolean).map(Number);
}

/** The launch form: builds a JobSpec, checks it with the same zod schema as the API, posts it. */
export function NewJobForm() {
  const router = useRouter();
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const byDuration = f.get('measureMode') === 'duration';
    const input = {
      name: String(f.get('name') || '') || undefined,
      clients: [{ language: String(f.get('language')), version: String(f.get('version')).trim() }],
      configurations: CONFIGS.filter((c) => f.get(`config-${c.key}`)).map((c) => ({ label: c.label, grpcGcp: c.key })),
      concurrency: numberList(String(f.get('concurrency'))),
      target: { kind: 'fake', latencyMs: Number(f.get('latencyMs')) },
      workload: {
        operation: 'select1',
        warmupOps: Number(f.get('warmupOps')),
        ...(byDuration ? { durationSeconds: Number(f.get('measureValue')) } : { measuredOps: Number(f.get('measureValue')) }),
      },
      repeats: Number(f.get('repeats')),
      timeScale: Number(f.get('timeScale')),
    };
    const local = parseJobSpec(input);
    if (!local.ok) return setIssues(local.issues);
    setBusy(true);
    setIssues([]);
    try {
      const res = await fetch('/api/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const body = await res.json();
      if (res.status !== 201) {
        setIssues(body.issues ?? [{ path: '(request)', message: body.error ?? `HTTP ${res.status}` }]);
        setBusy(false);
        return;
      }
      router.push(`/jobs/${body.id}`);
    } catch (err) {
      setIssues([{ path: '(request)', message: (err as Error).message }]);
      setBusy(false);
    }
  }

  return (
    <form className="spec" onSubmit={submit} aria-label="new job">
      <label className="field" htmlFor="name">Name</label>
      <div><input type="text" id="name" name="name" placeholder="optional" /></div>

      <label className="field" htmlFor="language">Client</label>
      <div>
        <select id="language" name="language" defaultValue="node">
          <option value="node">Node (@google-cloud/spanner)</option>
        </select>
      </div>

      <label className="field" htmlFor="version">Client version</label>
      <div>
        <input type="text" id="version" name="version" defaultValue="9.0.0" />
        <span className="hint">An exact published version, e.g. 9.0.0 or 8.13.0. Installed on first use.</span>
      </div>

      <label className="field" htmlFor="concurrency">Concurrency</label>
      <div>
        <input type="text" id="concurrency" name="concurrency" defaultValue="10, 50, 100" />
        <span className="hint">Operations in flight, comma separated, 1..2000 each.</span>
      </div>

      <span className="field">Configurations</span>
      <div>
        {CONFIGS.map((c) => (
          <label key={c.key} style={{ marginRight: '1rem' }}>
            <input type="checkbox" name={`config-${c.key}`} defaultChecked={c.key !== 'default'} /> {c.label}
          </label>
        ))}
        <span className="hint">grpc-gcp off means one HTTP/2 connection, capped at 100 streams.</span>
      </div>

      <label className="field" htmlFor="latencyMs">Fake server latency (ms)</label>
      <div><input type="number" id="latencyMs" name="latencyMs" defaultValue={65} min={0} step="any" /></div>

      <label className="field" htmlFor="warmupOps">Warm-up operations</label>
      <div>
        <input type="number" id="warmupOps" name="warmupOps" defaultValue={200} min={0} />
        <span className="hint">Run at the target concurrency before measuring.</span>
      </div>

      <span className="field">Measure</span>
      <div>
        <label style={{ marginRight: '1rem' }}><input type="radio" name="measureMode" value="duration" defaultChecked /> seconds</label>
        <label><input type="radio" name="measureMode" value="ops" /> operations</label>
        <div style={{ marginTop: '.3rem' }}><input type="number" id="measureValue" name="measureValue" aria-label="measure amount" defaultValue={5} min={0} step="any" /></div>
      </div>

      <label className="field" htmlFor="repeats">Repeats</label>
      <div><input type="number" id="repeats" name="repeats" defaultValue={1} min={1} /></div>

      <label className="field" htmlFor="timeScale">Time scale</label>
      <div>
        <input type="number" id="timeScale" name="timeScale" defaultValue={1} min={0.1} step="any" />
        <span className="hint">Multiplies the server latency; ideal qps is concurrency / latency at any scale.</span>
      </div>

      <span />
      <div>
        {issues.length > 0 && (
          <ul className="issues" role="alert">
            {issues.map((i, n) => <li key={n}><code>{i.path}</code>: {i.message}</li>)}
          </ul>
        )}
        <button type="submit" disabled={busy}>{busy ? 'Submitting…' : 'Run benchmark'}</button>
      </div>
    </form>
  );
}
