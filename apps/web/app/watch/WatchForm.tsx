'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { languageNames } from '@scb/shared/job';

interface Issue {
  path: string;
  message: string;
}

/** Creates a watch through POST /api/watches; bad fields come back named. */
export function WatchForm({ scenarios, webhooks }: { scenarios: { id: string; title: string }[]; webhooks: string[] }) {
  const router = useRouter();
  const [form, setForm] = useState({ name: '', language: 'java', since: '', until: '', repeats: '', prereleases: false, settings: '' });
  const [picked, setPicked] = useState<string[]>([scenarios[0]?.id ?? '']);
  const [hooks, setHooks] = useState<string[]>([]);
  const [issues, setIssues] = useState<Issue[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (k: 'name' | 'language' | 'since' | 'until' | 'repeats' | 'settings') => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    // Settings apply to every picked scenario: each becomes a gate spec of the watch's own.
    let settings: Record<string, unknown> | null = null;
    if (form.settings.trim()) {
      try {
        settings = JSON.parse(form.settings) as Record<string, unknown>;
        if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new Error('must be a JSON object, e.g. {"repeats": 3, "timeScale": 2}');
      } catch (err) {
        return setIssues([{ path: 'settings', message: (err as Error).message }]);
      }
    }
    setBusy(true);
    const res = await fetch('/api/watches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...(form.name.trim() && { name: form.name.trim() }),
        language: form.language,
        scenarios: settings ? picked.map((scenario) => ({ ...settings, scenario })) : picked,
        ...(form.since.trim() && { since: form.since.trim() }),
        ...(form.until.trim() && { until: form.until.trim() }),
        ...(form.repeats.trim() && { repeats: Number(form.repeats) }),
        prereleases: form.prereleases,
        webhooks: hooks,
      }),
    });
    const body = res.headers.get('content-type')?.includes('json') ? await res.json() : { error: `the server answered HTTP ${res.status}` };
    setBusy(false);
    if (res.ok) router.push(`/watch/${body.id}`);
    else setIssues(body.issues ?? [{ path: '(root)', message: body.error ?? `HTTP ${res.status}` }]);
  }

  return (
    <form onSubmit={submit} className="gate-form" aria-label="new watch">
      <label>
        Client{' '}
        <select value={form.language} onChange={set('language')} name="language">
          {languageNames().map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        Since{' '}
        <input
          value={form.since}
          onChange={set('since')}
          name="since"
          size={9}
          placeholder="6.105.0"
          title="this release and every later one, each against its predecessor (a backfill); empty: releases from now on"
        />
      </label>{' '}
      <label>
        Until <input value={form.until} onChange={set('until')} name="until" size={9} title="no release after this one (bounds a backfill)" />
      </label>{' '}
      <label>
        Repeats <input value={form.repeats} onChange={set('repeats')} name="repeats" size={3} inputMode="numeric" placeholder="10 / 5" title="empty: each scenario's own" />
      </label>{' '}
      <label>
        <input type="checkbox" checked={form.prereleases} onChange={(e) => setForm({ ...form, prereleases: e.target.checked })} name="prereleases" /> pre-releases
      </label>{' '}
      <label>
        Name <input value={form.name} onChange={set('name')} name="name" size={16} placeholder="optional" />
      </label>
      <fieldset className="scenarios">
        <legend>Scenarios</legend>
        {scenarios.map((s) => (
          <label key={s.id}>
            <input type="checkbox" name="scenario" value={s.id} checked={picked.includes(s.id)} onChange={(e) => setPicked(toggle(picked, s.id, e.target.checked))} /> {s.title}{' '}
          </label>
        ))}
      </fieldset>
      <label className="settings">
        Scenario settings{' '}
        <input
          value={form.settings}
          onChange={set('settings')}
          name="settings"
          size={60}
          placeholder='optional JSON, e.g. {"concurrency": [100], "timeScale": 2}'
          title="a gate spec's fields (concurrency, workload, timeScale, configuration, criteria…) applied to every scenario picked"
        />
      </label>
      {webhooks.length > 0 && (
        <fieldset className="webhooks">
          <legend>Webhooks</legend>
          {webhooks.map((w) => (
            <label key={w}>
              <input type="checkbox" name="webhook" value={w} checked={hooks.includes(w)} onChange={(e) => setHooks(toggle(hooks, w, e.target.checked))} /> {w}{' '}
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" disabled={busy}>
        Watch
      </button>
      {issues.length > 0 && (
        <ul className="error" role="alert">
          {issues.map((i) => (
            <li key={i.path + i.message}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
