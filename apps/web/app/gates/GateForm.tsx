'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { IssueList } from '@/components/IssueList';
import { LanguageSelect } from '@/components/LanguageSelect';
import { postJson, type Issue } from '@/components/post-json';
import { languageNames } from '@scb/shared/job';
import { languageInfo } from '@scb/shared/registry';

/** The version a form starts from for a language: its plug-in's example (LanguageInfo.exampleVersion). */
const exampleVersion = (language: string): string => languageInfo(language)?.exampleVersion ?? '';

/** Launches a gate through POST /api/gates; bad fields come back named. */
export function GateForm({ scenarios }: { scenarios: { id: string; title: string; kinds: string[]; operation?: string; language?: string }[] }) {
  const router = useRouter();
  const firstLanguage = scenarios[0]?.language ?? languageNames()[0] ?? '';
  // The baseline starts at the language's example version; the candidate is the version to judge, typed in.
  const [form, setForm] = useState({ scenario: scenarios[0]?.id ?? '', language: firstLanguage, baseline: exampleVersion(firstLanguage), candidate: '', repeats: '', operation: '' });
  const scenario = scenarios.find((s) => s.id === form.scenario);
  const [issues, setIssues] = useState<Issue[]>([]);
  const [busy, setBusy] = useState(false);
  // Another scenario has another mix: its own default kind again.
  // A reproduction runs one client: picking one picks its language.
  const languageOf = (id: string) => scenarios.find((s) => s.id === id)?.language;
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    const picked = k === 'scenario' ? languageOf(e.target.value) : k === 'language' ? e.target.value : undefined;
    // Another language: its example version, unless the baseline was typed in.
    const baseline = picked && picked !== form.language && form.baseline === exampleVersion(form.language) ? { baseline: exampleVersion(picked) } : {};
    setForm({ ...form, [k]: e.target.value, ...(k === 'scenario' && { operation: '' }), ...(picked && { language: picked }), ...baseline });
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const res = await postJson('/api/gates', {
      scenario: form.scenario,
      language: form.language,
      baseline: form.baseline,
      candidate: form.candidate,
      ...(form.repeats.trim() ? { repeats: Number(form.repeats) } : {}),
      ...(form.operation ? { operation: form.operation } : {}),
    });
    setBusy(false);
    if (res.ok) router.push(`/gates/${res.body.id}`);
    else setIssues(res.issues);
  }

  return (
    <form onSubmit={submit} className="gate-form" aria-label="new gate">
      <label>
        Scenario{' '}
        <select value={form.scenario} onChange={set('scenario')} name="scenario">
          {scenarios.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>{' '}
      <LanguageSelect value={form.language} onChange={set('language')} />{' '}
      <label>
        Baseline <input value={form.baseline} onChange={set('baseline')} name="baseline" size={9} />
      </label>{' '}
      <label>
        Candidate <input value={form.candidate} onChange={set('candidate')} name="candidate" size={9} placeholder="to judge" />
      </label>{' '}
      <label>
        Repeats{' '}
        <input
          value={form.repeats}
          onChange={set('repeats')}
          name="repeats"
          size={3}
          inputMode="numeric"
          placeholder="10 / 5"
          title="empty: the scenario's own (10 for the affinity burst, 5 otherwise)"
        />
      </label>{' '}
      {scenario && scenario.kinds.length > 1 && (
        <>
          <label>
            Judged on{' '}
            <select value={form.operation} onChange={set('operation')} name="operation">
              <option value="">{scenario.operation ? `${scenario.operation} (the scenario's)` : 'all operations'}</option>
              {scenario.kinds.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>{' '}
        </>
      )}
      <button type="submit" disabled={busy}>
        Run gate
      </button>
      <IssueList issues={issues} />
    </form>
  );
}
