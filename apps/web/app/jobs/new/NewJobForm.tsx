'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { infoOf, loadLevels, OPERATIONS, parseJobSpec, refusedOption, type FieldIssue, type Language } from '@scb/shared/job';
import { languageInfo, languageInfos } from '@scb/shared/registry';
import { PRESETS, type Preset } from '@scb/shared/presets';
import { INITIAL, TARGET_FORMS, configOptions, configsFor, toSpec, fromSpec, fitsFields, type FormState } from './form-state';
import { OpsInput, RunnerNumber, Estimate } from './fields';
import { targetForm } from '@scb/shared/registry';
import { TargetFields } from './target-fields';

interface VersionInfo {
  version: string;
  status: 'installed' | 'failed' | 'unknown';
  message: string | null;
}

/** The launch form: presets, registry versions, configurations; posts a JobSpec to /api/jobs. */
export function NewJobForm({ limitMinutes }: { limitMinutes: number }) {
  const router = useRouter();
  const [form, setForm] = useState<FormState>(INITIAL);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const [versions, setVersions] = useState<{ language: Language; list?: VersionInfo[]; error?: string }>({ language: INITIAL.language });
  const [json, setJson] = useState<string | null>(null);
  const [jsonOpen, setJsonOpen] = useState(false);
  /** A preset the fields cannot show: the form runs its JSON. */
  const [jsonOnly, setJsonOnly] = useState<Preset | null>(null);
  const spec = useMemo(() => toSpec(form), [form]);
  const target = targetForm(form.targetKind);
  const set = (patch: Partial<FormState>) => {
    // Editing a field leaves a preset's JSON: the fields are what runs now.
    setJsonOnly(null);
    setForm((f) => ({ ...f, ...patch }));
  };

  useEffect(() => {
    let live = true;
    setVersions({ language: form.language });
    fetch(`/api/versions?language=${form.language}`)
      .then(async (r) => {
        const body = await r.json();
        if (!live) return;
        setVersions(r.ok ? { language: form.language, list: body.versions } : { language: form.language, error: body.error });
      })
      .catch((e) => live && setVersions({ language: form.language, error: (e as Error).message }));
    return () => {
      live = false;
    };
  }, [form.language]);

  async function submit(body: unknown) {
    const local = parseJobSpec(body);
    // The browser knows the built-in languages and target kinds only; the server knows its plug-ins' too.
    const serverMayKnow = (i: FieldIssue) => i.path === 'target.kind' || /^clients\.\d+\.language$/.test(i.path);
    if (!local.ok && !local.issues.every(serverMayKnow)) return setIssues(local.issues);
    setBusy(true);
    setIssues([]);
    try {
      const res = await fetch('/api/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = await res.json();
      if (res.status !== 201) {
        setIssues(answer.issues ?? [{ path: '(request)', message: answer.error ?? `HTTP ${res.status}` }]);
        setBusy(false);
        return;
      }
      router.push(`/jobs/${answer.id}`);
    } catch (err) {
      setIssues([{ path: '(request)', message: (err as Error).message }]);
      setBusy(false);
    }
  }

  function submitJson() {
    try {
      void submit(JSON.parse(json ?? ''));
    } catch (e) {
      setIssues([{ path: '(json)', message: (e as Error).message }]);
    }
  }

  const listed = versions.list ?? [];
  const shown = [...new Set([...form.versions.filter((v) => !listed.some((l) => l.version === v)), ...listed.map((l) => l.version)])];

  return (
    <form
      className="spec"
      aria-label="new job"
      onSubmit={(e) => {
        e.preventDefault();
        if (jsonOnly) submitJson();
        else void submit(spec);
      }}
    >
      <label className="field" htmlFor="preset">
        Preset
      </label>
      <div>
        <select
          id="preset"
          defaultValue=""
          onChange={(e) => {
            const p = PRESETS.find((x) => x.id === e.target.value);
            setForm(p ? fromSpec(p.spec) : INITIAL);
            const only = p && !fitsFields(p) ? p : null;
            setJsonOnly(only);
            setJson(only ? JSON.stringify(only.spec, null, 2) : null);
            setJsonOpen(Boolean(only));
          }}
        >
          <option value="">custom (defaults)</option>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
        <span className="hint">{PRESETS.find((p) => p.spec.name === form.name)?.description ?? 'Start from a ready-made scenario, or fill the fields below.'}</span>
        {jsonOnly && (
          <p className="warn" data-testid="json-only">
            This scenario uses options the fields below do not show (faults, session pool, several languages, pairing): Run benchmark runs its JSON, at the bottom, where it can be edited. Pick
            &quot;custom&quot; to use the fields.
          </p>
        )}
      </div>

      <label className="field" htmlFor="name">
        Name
      </label>
      <div>
        <input type="text" id="name" value={form.name} placeholder="optional" onChange={(e) => set({ name: e.target.value })} />
      </div>

      <label className="field" htmlFor="language">
        Client
      </label>
      <div>
        <select
          id="language"
          value={form.language}
          onChange={(e) => {
            const language = e.target.value as Language;
            set({ language, versions: [infoOf(language).exampleVersion], configs: configsFor(language, form.configs) });
          }}
        >
          {languageInfos().map((l) => (
            <option key={l.name} value={l.name}>
              {l.title} ({l.packageName})
            </option>
          ))}
        </select>
      </div>

      <label className="field" htmlFor="versions">
        Client versions
      </label>
      <div>
        <select id="versions" multiple size={8} value={form.versions} onChange={(e) => set({ versions: [...e.target.selectedOptions].map((o) => o.value) })}>
          {shown.map((v) => {
            const info = listed.find((l) => l.version === v);
            return (
              <option key={v} value={v}>
                {v}
                {info?.status === 'failed' ? ' — failed to resolve here' : info?.status === 'installed' ? ' — installed' : ''}
              </option>
            );
          })}
        </select>
        <span className="hint">
          {versions.error ? (
            <span className="error">Could not list versions: {versions.error}</span>
          ) : versions.list ? (
            `${listed.length} published versions, newest first; Ctrl/Cmd-click to pick several.`
          ) : (
            'Loading the registry…'
          )}
        </span>
      </div>

      <label className="field" htmlFor="load">
        Load
      </label>
      <div>
        <select id="load" value={form.load} onChange={(e) => set({ load: e.target.value as FormState['load'] })}>
          <option value="closed">closed loop: agents wait for each answer</option>
          <option value="open">open loop: operations arrive at a rate</option>
        </select>
        <span className="hint">
          {form.load === 'open'
            ? 'Latency counts from when each operation should have started, so queueing shows (the uncorrected figure is kept beside it).'
            : 'Agents issue their next operation when the last one answered.'}
        </span>
      </div>

      <label className="field" htmlFor="concurrency">
        {form.load === 'open' ? 'Arrival rates' : 'Concurrency'}
      </label>
      <div>
        <input type="text" id="concurrency" value={form.concurrency} onChange={(e) => set({ concurrency: e.target.value })} />
        <span className="hint">{form.load === 'open' ? 'Operations per second, comma separated, 1..20000 each.' : 'Operations in flight, comma separated, 1..2000 each.'}</span>
      </div>

      {form.load === 'open' && (
        <>
          <label className="field" htmlFor="arrivals-distribution">
            Arrivals
          </label>
          <div>
            <select id="arrivals-distribution" value={form.arrivals.distribution} onChange={(e) => set({ arrivals: { ...form.arrivals, distribution: e.target.value as 'poisson' | 'uniform' } })}>
              <option value="poisson">Poisson (independent users)</option>
              <option value="uniform">uniform gaps</option>
            </select>{' '}
            <label htmlFor="max-outstanding">at most</label>{' '}
            <input type="text" id="max-outstanding" size={6} value={form.arrivals.maxOutstanding} onChange={(e) => set({ arrivals: { ...form.arrivals, maxOutstanding: e.target.value } })} />{' '}
            <span className="hint">operations at once; later arrivals wait in line (counted, never dropped).</span>
          </div>
        </>
      )}

      <span className="field">Configurations</span>
      <div>
        {configOptions(form.language).map((c) => (
          <label key={c.key} style={{ marginRight: '1rem' }} title={c.hint}>
            <input
              type="checkbox"
              name={`config-${c.key}`}
              checked={form.configs[c.key] ?? false}
              disabled={!c.configuration && c.key !== 'off' && c.key !== 'default' && refusedOption(form.language, { grpcGcp: 'on' }) !== null}
              onChange={(e) => set({ configs: { ...form.configs, [c.key]: e.target.checked } })}
            />{' '}
            {c.label}
          </label>
        ))}
        <span className="hint">{languageInfo(form.language)?.hints?.configurations}</span>
      </div>

      <label className="field" htmlFor="numChannels">
        numChannels
      </label>
      <div>
        <input type="number" id="numChannels" value={form.numChannels} min={1} placeholder="client default" onChange={(e) => set({ numChannels: e.target.value })} />
        <span className="hint">{languageInfo(form.language)?.hints?.numChannels}</span>
      </div>

      <label className="field" htmlFor="targetKind">
        Target
      </label>
      <div>
        <select id="targetKind" value={form.targetKind} onChange={(e) => set({ targetKind: e.target.value })}>
          {TARGET_FORMS.map((t) => (
            <option key={t.kind} value={t.kind}>
              {t.option}
            </option>
          ))}
        </select>
        {target?.hint && <span className="hint">{target.hint}</span>}
      </div>

      {target && (
        <TargetFields
          form={target}
          value={form.targets[form.targetKind]}
          cells={spec.clients.length * spec.configurations.length * loadLevels(spec).length * (spec.repeats ?? 1)}
          onChange={(v) => set({ targets: { ...form.targets, [form.targetKind]: v } })}
        />
      )}

      <label className="field" htmlFor="timeScale">
        Time scale
      </label>
      <div>
        <input type="number" id="timeScale" value={form.timeScale} min={0.1} step="any" onChange={(e) => set({ timeScale: Number(e.target.value) })} />
        <span className="hint">Multiplies the server latency; the ideal qps is concurrency / latency at any scale.</span>
      </div>

      <label className="field" htmlFor="warmupOps">
        Warm-up operations
      </label>
      <div>
        <OpsInput id="warmupOps" value={form.warmup} onChange={(warmup) => set({ warmup })} />
        <span className="hint">Run at the target concurrency before measuring: a cold client&apos;s first burst.</span>
      </div>

      <span className="field">Measure</span>
      <div>
        <label style={{ marginRight: '1rem' }}>
          <input type="radio" name="measureMode" value="duration" checked={form.measure.kind === 'seconds'} onChange={() => set({ measure: { kind: 'seconds', seconds: 5 } })} /> seconds
        </label>
        <label>
          <input type="radio" name="measureMode" value="ops" checked={form.measure.kind === 'ops'} onChange={() => set({ measure: { kind: 'ops', ops: 1000 } })} /> operations
        </label>
        <div style={{ marginTop: '.3rem' }}>
          {form.measure.kind === 'seconds' ? (
            <input
              type="number"
              id="measureValue"
              aria-label="measured seconds"
              value={form.measure.seconds}
              min={0}
              step="any"
              onChange={(e) => set({ measure: { kind: 'seconds', seconds: Number(e.target.value) } })}
            />
          ) : (
            <OpsInput id="measureValue" value={form.measure.ops} onChange={(ops) => set({ measure: { kind: 'ops', ops } })} />
          )}
        </div>
      </div>

      <span className="field">Operations</span>
      <div data-testid="operation-weights">
        <div className="pairs">
          {OPERATIONS.map((o) => (
            <label key={o}>
              {o}
              <input
                type="number"
                id={`weight-${o}`}
                aria-label={`${o} weight`}
                value={form.weights[o]}
                min={0}
                step="any"
                placeholder="0"
                style={{ width: '4.5em' }}
                onChange={(e) => set({ weights: { ...form.weights, [o]: e.target.value } })}
              />
            </label>
          ))}
        </div>
        <span className="hint">
          Each agent picks an operation with probability weight / sum of weights; empty or 0 leaves it out. select1 alone is the classic closed loop. readOnlyTxn runs the leaderboard join in a
          read-only transaction, readWriteTxn reads a player and inserts a score with the commit timestamp, pointRead reads a player by key. scan queries a result of the shape in the spec's{' '}
          <code>workload.resultSet</code> (rows, columns of every Spanner type) and checks every value decoded: start from a result-set preset.
        </span>
      </div>

      {form.load === 'closed' && (
        <>
          <label className="field" htmlFor="thinkMs">
            Think time (ms)
          </label>
          <div>
            <input type="number" id="thinkMs" value={form.think.ms} min={0} step="any" onChange={(e) => set({ think: { ...form.think, ms: Number(e.target.value) } })} />{' '}
            <select
              id="thinkDistribution"
              aria-label="think time distribution"
              value={form.think.distribution}
              onChange={(e) => set({ think: { ...form.think, distribution: e.target.value as 'fixed' | 'exponential' } })}
            >
              <option value="fixed">fixed</option>
              <option value="exponential">exponential (that mean)</option>
            </select>
            <span className="hint">Each agent pauses this long before every operation (scaled by the time scale); 0 is none.</span>
          </div>
        </>
      )}

      <label className="field" htmlFor="repeats">
        Repeats
      </label>
      <div>
        <input type="number" id="repeats" value={form.repeats} min={1} onChange={(e) => set({ repeats: Number(e.target.value) })} />
        <span className="hint">Each repeat is a fresh process with a fresh client; probabilistic regressions need several.</span>
      </div>

      <label className="field" htmlFor="minCores">
        Runner
      </label>
      <div data-testid="runner-requirements">
        <div className="pairs">
          <label htmlFor="minCores">
            at least this many cores
            <RunnerNumber id="minCores" label="minimum cores" value={form.runner.minCores} onChange={(minCores) => set({ runner: { ...form.runner, minCores } })} />
          </label>
          <label htmlFor="minMemoryGiB">
            at least this much memory, GiB
            <RunnerNumber id="minMemoryGiB" label="minimum memory GiB" value={form.runner.minMemoryGiB} onChange={(minMemoryGiB) => set({ runner: { ...form.runner, minMemoryGiB } })} />
          </label>
          <label>
            labels, comma separated
            <input
              type="text"
              id="runnerLabels"
              aria-label="runner labels"
              value={form.runner.labels}
              placeholder="perf-lab"
              onChange={(e) => set({ runner: { ...form.runner, labels: e.target.value } })}
            />
          </label>
        </div>
        <span className="hint">
          Only a runner with all of these takes the job (labels are its <code>SCB_RUNNER_LABELS</code>); empty asks nothing. The job page says when no live runner can take it. See{' '}
          <a href="/runners">runners</a>.
        </span>
      </div>

      <span />
      <div>
        {issues.length > 0 && (
          <ul className="issues" role="alert">
            {issues.map((i, n) => (
              <li key={n}>
                <code>{i.path}</code>: {i.message}
              </li>
            ))}
          </ul>
        )}
        <Estimate spec={jsonOnly?.spec ?? spec} limitMinutes={limitMinutes} />
        <button type="submit" disabled={busy}>
          {busy ? 'Submitting…' : 'Run benchmark'}
        </button>
        <details
          style={{ marginTop: '1rem' }}
          open={jsonOpen}
          onToggle={(e) => {
            const open = e.currentTarget.open;
            setJsonOpen(open);
            if (open && json === null) setJson(JSON.stringify(spec, null, 2));
          }}
        >
          <summary>Edit the job spec as JSON (every option: faults, schedules, session pool…)</summary>
          <textarea id="spec-json" aria-label="job spec JSON" value={json ?? ''} onChange={(e) => setJson(e.target.value)} rows={24} style={{ width: '100%', fontFamily: 'monospace' }} />
          <div>
            <button type="button" onClick={submitJson} disabled={busy}>
              Run this JSON
            </button>
          </div>
        </details>
      </div>
    </form>
  );
}
