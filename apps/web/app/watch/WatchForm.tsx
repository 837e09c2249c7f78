'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { IssueList } from '@/components/IssueList';
import { LanguageSelect } from '@/components/LanguageSelect';
import { postJson, type Issue } from '@/components/post-json';
import { languageNames } from '@scb/shared/job';
import { languageInfo } from '@scb/shared/registry';

/** Creates a watch through POST /api/watches; bad fields come back named. */
export function WatchForm({ scenarios, webhooks }: { scenarios: { id: string; title: string; language?: string }[]; webhooks: string[] }) {
  const router = useRouter();
  const [form, setForm] = useState({ name: '', language: languageNames()[0] ?? '', since: '', until: '', repeats: '', prereleases: false, settings: '' });
  const [picked, setPicked] = useState<string[]>([scenarios[0]?.id ?? '']);
  const [hooks, setHooks] = useState<string[]>([]);
  const [issues, setIssues] = useState<Issue[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (k: 'name' | 'language' | 'since' | 'until' | 'repeats' | 'settings') => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  // Reproductions run one client: only the watched language's are offered.
  const languageOf = (id: string) => scenarios.find((s) => s.id === id)?.language;
  const shown = scenarios.filter((s) => !s.language || s.language === form.language);

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
    const res = await postJson('/api/watches', {
      ...(form.name.trim() && { name: form.name.trim() }),
      language: form.language,
      // A reproduction is its own spec: the settings are the comparison scenarios'.
      scenarios: picked.filter((id) => shown.some((s) => s.id === id)).map((scenario) => (settings && !languageOf(scenario) ? { ...settings, scenario } : scenario)),
      ...(form.since.trim() && { since: form.since.trim() }),
      ...(form.until.trim() && { until: form.until.trim() }),
      ...(form.repeats.trim() && { repeats: Number(form.repeats) }),
      prereleases: form.prereleases,
      webhooks: hooks,
    });
    setBusy(false);
    if (res.ok) router.push(`/watch/${res.body.id}`);
    else setIssues(res.issues);
  }

  return (
    <form onSubmit={submit} className="gate-form" aria-label="new watch">
      <LanguageSelect value={form.language} onChange={set('language')} />{' '}
      <label>
        Since{' '}
        <input
          value={form.since}
          onChange={set('since')}
          name="since"
          size={9}
          placeholder={languageInfo(form.language)?.exampleVersion}
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
      <Choices legend="Scenarios" name="scenario" choices={shown.map((s) => ({ value: s.id, title: s.title }))} picked={picked} onChange={setPicked} />
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
      {webhooks.length > 0 && <Choices legend="Webhooks" name="webhook" choices={webhooks.map((w) => ({ value: w, title: w }))} picked={hooks} onChange={setHooks} />}
      <button type="submit" disabled={busy}>
        Watch
      </button>
      <IssueList issues={issues} />
    </form>
  );
}

/** Checkboxes, one per choice; `picked` in the order they were ticked. */
function Choices({ legend, name, choices, picked, onChange }: { legend: string; name: string; choices: { value: string; title: string }[]; picked: string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset className={`${name}s`}>
      <legend>{legend}</legend>
      {choices.map((c) => (
        <label key={c.value}>
          <input
            type="checkbox"
            name={name}
            value={c.value}
            checked={picked.includes(c.value)}
            onChange={(e) => onChange(e.target.checked ? [...picked, c.value] : picked.filter((x) => x !== c.value))}
          />{' '}
          {c.title}{' '}
        </label>
      ))}
    </fieldset>
  );
}
