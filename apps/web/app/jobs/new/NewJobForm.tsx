'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { cellCount, estimateJobSeconds, LANGUAGE_INFO, LANGUAGES, OPERATIONS, parseJobSpec, refusedOption, type FieldIssue, type JobSpecInput, type Language, type Operation } from '@scb/shared/spec';
import { PRESETS, type Preset } from '@scb/shared/presets';
import { canonicalJson } from '@scb/shared/canonical-json';

type Ops = number | { min: number; perConcurrency: number };
type ConfigKey = 'on' | 'off' | 'default' | 'dynamic';

interface FormState {
  name: string;
  language: Language;
  versions: string[];
  concurrency: string;
  configs: Record<ConfigKey, boolean>;
  numChannels: string;
  targetKind: 'fake' | 'emulator' | 'spanner';
  /** Emulator only: host:port of one already running; empty starts a fresh one per cell. */
  emulatorHost: string;
  /** Cloud Spanner only: the database, an optional endpoint and the cost caps per cell. */
  spanner: { projectId: string; instanceId: string; databaseId: string; endpoint: string; maxOpsPerCell: number; maxSecondsPerCell: number };
  latencyMs: number;
  timeScale: number;
  warmup: Ops;
  measure: { kind: 'seconds'; seconds: number } | { kind: 'ops'; ops: Ops };
  /** Each operation's weight in the agents' mix, as typed; empty or 0 leaves it out. */
  weights: Record<Operation, string>;
  think: { ms: number; distribution: 'fixed' | 'exponential' };
  repeats: number;
  /** What the runner that takes the job must have; empty fields ask nothing. */
  runner: { minCores: string; minMemoryGiB: string; labels: string };
}

const CONFIGS: { key: ConfigKey; label: string; hint?: string }[] = [
  { key: 'on', label: 'grpc-gcp on' },
  { key: 'off', label: 'grpc-gcp off' },
  { key: 'default', label: 'client default' },
  { key: 'dynamic', label: 'dynamic channel pool', hint: 'Java only; it takes effect only when numChannels is not set, so numChannels is not applied to it.' },
];

const INITIAL: FormState = {
  name: '',
  language: 'node',
  versions: ['9.0.0'],
  concurrency: '10, 50, 100',
  configs: { on: true, off: true, default: false, dynamic: false },
  numChannels: '',
  targetKind: 'fake',
  emulatorHost: '',
  spanner: { projectId: '', instanceId: '', databaseId: '', endpoint: '', maxOpsPerCell: 20_000, maxSecondsPerCell: 60 },
  latencyMs: 65,
  timeScale: 1,
  warmup: 200,
  measure: { kind: 'seconds', seconds: 5 },
  weights: { select1: '1', readOnlyTxn: '', readWriteTxn: '', pointRead: '' },
  think: { ms: 0, distribution: 'fixed' },
  repeats: 1,
  runner: { minCores: '', minMemoryGiB: '', labels: '' },
};

/** The form's state as a JobSpec (the API and this form validate it with the same schema). */
function toSpec(f: FormState): JobSpecInput {
  const numChannels = f.numChannels.trim() === '' ? undefined : Number(f.numChannels);
  const configurations = CONFIGS.filter((c) => f.configs[c.key]).map((c) =>
    c.key === 'dynamic' ? { label: c.label, grpcGcp: 'on' as const, dynamicChannelPool: true } : { label: c.label, grpcGcp: c.key, ...(numChannels !== undefined ? { numChannels } : {}) },
  );
  return {
    ...(f.name.trim() ? { name: f.name.trim() } : {}),
    clients: f.versions.map((version) => ({ language: f.language, version })),
    configurations,
    concurrency: f.concurrency
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number),
    target: targetOf(f),
    workload: {
      ...operationsOf(f),
      warmupOps: f.warmup,
      ...(f.measure.kind === 'seconds' ? { durationSeconds: f.measure.seconds } : { measuredOps: f.measure.ops }),
    },
    repeats: f.repeats,
    timeScale: f.timeScale,
    ...requirementsOf(f.runner),
  };
}

/**
 * The weights as the workload's operation: one kind alone is `operation`, several a `mix`; none is
 * an empty mix, which the schema names. Think time only when set.
 */
function operationsOf(f: FormState): Pick<JobSpecInput['workload'], 'operation' | 'mix' | 'thinkTime'> {
  const mix = OPERATIONS.filter((o) => f.weights[o].trim() !== '' && Number(f.weights[o]) !== 0).map((operation) => ({ operation, weight: Number(f.weights[operation]) }));
  const think = f.think.ms !== 0 ? { thinkTime: f.think } : {};
  return mix.length === 1 ? { operation: mix[0]!.operation, ...think } : { mix, ...think };
}

/** The runner fields as `requirements` (left out when all are empty); bad numbers are the schema's to name. */
function requirementsOf(r: FormState['runner']): Pick<JobSpecInput, 'requirements'> {
  const labels = r.labels.split(/[\s,]+/).filter(Boolean);
  const requirements = {
    ...(r.minCores.trim() ? { minCores: Number(r.minCores) } : {}),
    ...(r.minMemoryGiB.trim() ? { minMemoryGiB: Number(r.minMemoryGiB) } : {}),
    ...(labels.length ? { labels } : {}),
  };
  return Object.keys(requirements).length ? { requirements } : {};
}

function targetOf(f: FormState): JobSpecInput['target'] {
  if (f.targetKind === 'emulator') return { kind: 'emulator', ...(f.emulatorHost.trim() ? { emulatorHost: f.emulatorHost.trim() } : {}) };
  if (f.targetKind === 'fake') return { kind: 'fake', latencyMs: f.latencyMs };
  const { endpoint, ...s } = f.spanner;
  return { kind: 'spanner', ...s, projectId: s.projectId.trim(), instanceId: s.instanceId.trim(), databaseId: s.databaseId.trim(), ...(endpoint.trim() ? { endpoint: endpoint.trim() } : {}) };
}

/** Whether the fields above show all of a preset (a scenario's mix, faults or pool need the JSON). */
function fitsFields(p: Preset): boolean {
  const direct = parseJobSpec(p.spec);
  const viaFields = parseJobSpec(toSpec(fromSpec(p.spec)));
  return direct.ok && viaFields.ok && canonicalJson(direct.value) === canonicalJson(viaFields.value);
}

/** A preset's spec as form state (what the fields can show of it). */
function fromSpec(spec: JobSpecInput): FormState {
  const cfgs = spec.configurations;
  const w = spec.workload;
  return {
    name: spec.name ?? '',
    language: spec.clients[0].language,
    versions: spec.clients.map((c) => c.version),
    concurrency: spec.concurrency.join(', '),
    configs: {
      on: cfgs.some((c) => c.grpcGcp === 'on' && !c.dynamicChannelPool),
      off: cfgs.some((c) => c.grpcGcp === 'off'),
      default: cfgs.some((c) => (c.grpcGcp ?? 'default') === 'default'),
      dynamic: cfgs.some((c) => c.dynamicChannelPool),
    },
    numChannels: String(cfgs.find((c) => c.numChannels !== undefined)?.numChannels ?? ''),
    targetKind: spec.target?.kind ?? 'fake',
    emulatorHost: spec.target?.kind === 'emulator' ? (spec.target.emulatorHost ?? '') : '',
    spanner: spec.target?.kind === 'spanner' ? { ...spec.target, endpoint: spec.target.endpoint ?? '' } : INITIAL.spanner,
    latencyMs: spec.target?.kind === 'fake' ? (spec.target.latencyMs ?? 65) : 65,
    timeScale: spec.timeScale ?? 1,
    warmup: w.warmupOps ?? 200,
    measure: w.durationSeconds !== undefined ? { kind: 'seconds', seconds: w.durationSeconds } : { kind: 'ops', ops: w.measuredOps ?? 1000 },
    weights: Object.fromEntries(
      OPERATIONS.map((o) => [o, String((w.mix ?? [{ operation: w.operation ?? 'select1', weight: 1 }]).find((m) => m.operation === o)?.weight ?? '')]),
    ) as FormState['weights'],
    think: { ms: w.thinkTime?.ms ?? 0, distribution: w.thinkTime?.distribution ?? 'fixed' },
    repeats: spec.repeats ?? 1,
    runner: {
      minCores: String(spec.requirements?.minCores ?? ''),
      minMemoryGiB: String(spec.requirements?.minMemoryGiB ?? ''),
      labels: (spec.requirements?.labels ?? []).join(', '),
    },
  };
}

interface VersionInfo {
  version: string;
  status: 'installed' | 'failed' | 'unknown';
  message: string | null;
}

function OpsInput({ id, value, onChange }: { id: string; value: Ops; onChange: (v: Ops) => void }) {
  const scaled = typeof value !== 'number';
  return (
    <span>
      {scaled ? (
        <>
          max(
          <input
            type="number"
            id={`${id}-min`}
            aria-label={`${id} minimum`}
            value={value.min}
            min={0}
            onChange={(e) => onChange({ ...value, min: Number(e.target.value) })}
            style={{ minWidth: '6rem', width: '6rem' }}
          />
          ,{' '}
          <input
            type="number"
            id={`${id}-per`}
            aria-label={`${id} per concurrency`}
            value={value.perConcurrency}
            min={0}
            step="any"
            onChange={(e) => onChange({ ...value, perConcurrency: Number(e.target.value) })}
            style={{ minWidth: '5rem', width: '5rem' }}
          />{' '}
          × C)
        </>
      ) : (
        <input type="number" id={id} value={value} min={0} onChange={(e) => onChange(Number(e.target.value))} />
      )}{' '}
      <label>
        <input
          type="checkbox"
          checked={scaled}
          onChange={(e) => onChange(e.target.checked ? { min: typeof value === 'number' ? value : 0, perConcurrency: 4 } : typeof value === 'number' ? value : value.min)}
        />{' '}
        scale with concurrency
      </label>
    </span>
  );
}

/** The launch form: presets, registry versions, configurations; posts a JobSpec to /api/jobs. */
/** The database on Cloud Spanner and the cost caps every cell's driver enforces. */
function SpannerFields({ value, cells, onChange }: { value: FormState['spanner']; cells: number; onChange: (v: FormState['spanner']) => void }) {
  const text = (key: 'projectId' | 'instanceId' | 'databaseId' | 'endpoint', label: string, placeholder = '') => (
    <>
      <label className="field" htmlFor={`spanner-${key}`}>
        {label}
      </label>
      <div>
        <input type="text" id={`spanner-${key}`} value={value[key]} placeholder={placeholder} onChange={(e) => onChange({ ...value, [key]: e.target.value })} />
      </div>
    </>
  );
  return (
    <>
      {text('projectId', 'Project id')}
      {text('instanceId', 'Instance id')}
      {text('databaseId', 'Database id')}
      {text('endpoint', 'Endpoint host:port', 'spanner.googleapis.com:443')}
      <label className="field" htmlFor="spanner-maxOpsPerCell">
        Cost cap: operations per cell
      </label>
      <div>
        <input type="number" id="spanner-maxOpsPerCell" value={value.maxOpsPerCell} min={1} onChange={(e) => onChange({ ...value, maxOpsPerCell: Number(e.target.value) })} />
      </div>
      <label className="field" htmlFor="spanner-maxSecondsPerCell">
        Cost cap: seconds per cell
      </label>
      <div>
        <input type="number" id="spanner-maxSecondsPerCell" value={value.maxSecondsPerCell} min={1} onChange={(e) => onChange({ ...value, maxSecondsPerCell: Number(e.target.value) })} />
        <span className="hint" id="spanner-cost">
          Cost bound: {cells} cell(s), at most {(cells * value.maxOpsPerCell).toLocaleString('en-US')} operations and {Math.ceil((cells * value.maxSecondsPerCell) / 60)} minutes of traffic in all. The
          driver starts no operation past either cap (warm-up included); a capped cell says so.
        </span>
      </div>
    </>
  );
}

/** A small number field of the Runner row; empty asks nothing. */
function RunnerNumber({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return <input type="number" id={id} aria-label={label} value={value} min={1} style={{ width: '5em' }} onChange={(e) => onChange(e.target.value)} />;
}

/** The estimate before submit: the operator's limit refuses a job estimated above it. */
function Estimate({ spec, limitMinutes }: { spec: unknown; limitMinutes: number }) {
  const parsed = parseJobSpec(spec);
  if (!parsed.ok) return null;
  const minutes = estimateJobSeconds(parsed.value) / 60;
  const over = minutes > limitMinutes;
  return (
    <p className={over ? 'issues' : 'hint'} data-testid="estimate">
      Estimated run time: {minutes < 1 ? 'under a minute' : `about ${Math.ceil(minutes)} minutes`} for {cellCount(parsed.value)} cell(s), client installs not counted
      {over ? `: more than this server's limit of ${limitMinutes} minutes (see /settings)` : ` (this server's limit: ${limitMinutes} minutes)`}.
    </p>
  );
}

export function NewJobForm({ limitMinutes }: { limitMinutes: number }) {
  const router = useRouter();
  const [form, setForm] = useState<FormState>(INITIAL);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const [versions, setVersions] = useState<{ language: Language; list?: VersionInfo[]; error?: string }>({ language: 'node' });
  const [json, setJson] = useState<string | null>(null);
  const [jsonOpen, setJsonOpen] = useState(false);
  /** A preset the fields cannot show: the form runs its JSON. */
  const [jsonOnly, setJsonOnly] = useState<Preset | null>(null);
  const spec = useMemo(() => toSpec(form), [form]);
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
    if (!local.ok) return setIssues(local.issues);
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
            // Options a language cannot run at all (grpc-gcp on for Go) are unticked, not refused later.
            const configs = { ...form.configs };
            if (refusedOption(language, { grpcGcp: 'on' })) Object.assign(configs, { on: false, dynamic: false, default: configs.default || ((configs.on || configs.dynamic) && !configs.off) });
            set({ language, versions: [LANGUAGE_INFO[language].exampleVersion], configs });
          }}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_INFO[l].title} ({LANGUAGE_INFO[l].packageName})
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

      <label className="field" htmlFor="concurrency">
        Concurrency
      </label>
      <div>
        <input type="text" id="concurrency" value={form.concurrency} onChange={(e) => set({ concurrency: e.target.value })} />
        <span className="hint">Operations in flight, comma separated, 1..2000 each.</span>
      </div>

      <span className="field">Configurations</span>
      <div>
        {CONFIGS.map((c) => (
          <label key={c.key} style={{ marginRight: '1rem' }} title={c.hint}>
            <input
              type="checkbox"
              name={`config-${c.key}`}
              checked={form.configs[c.key]}
              disabled={c.key !== 'off' && c.key !== 'default' && refusedOption(form.language, { grpcGcp: 'on' }) !== null}
              onChange={(e) => set({ configs: { ...form.configs, [c.key]: e.target.checked } })}
            />{' '}
            {c.label}
          </label>
        ))}
        <span className="hint">
          Node with grpc-gcp off uses one HTTP/2 connection (100 streams). The dynamic channel pool is a Java option and only applies when numChannels is unset. Go has no grpc-gcp.
        </span>
      </div>

      <label className="field" htmlFor="numChannels">
        numChannels
      </label>
      <div>
        <input type="number" id="numChannels" value={form.numChannels} min={1} placeholder="client default" onChange={(e) => set({ numChannels: e.target.value })} />
        <span className="hint">Java: SpannerOptions numChannels. Node: the grpc-gcp pool&apos;s maximum size (needs grpc-gcp). Go: the gRPC connection pool size.</span>
      </div>

      <label className="field" htmlFor="targetKind">
        Target
      </label>
      <div>
        <select id="targetKind" value={form.targetKind} onChange={(e) => set({ targetKind: e.target.value as FormState['targetKind'] })}>
          <option value="fake">fake Spanner (bundled, latency model)</option>
          <option value="emulator">Cloud Spanner emulator</option>
          <option value="spanner">Cloud Spanner (real; costs money)</option>
        </select>
        {form.targetKind === 'emulator' && (
          <span className="hint">
            A fresh emulator per cell, provisioned by the runner; it is CPU-bound (about 3 ms of CPU per query: near 300 queries per second on a 2-core machine), not a latency model. Node cells run
            with regular sessions.
          </span>
        )}
        {form.targetKind === 'spanner' && (
          <span className="hint">
            Runs only on a runner started with SCB_ALLOW_SPANNER=1; it uses that runner&apos;s Application Default Credentials, which are never entered, stored or shown here. Nothing is created in the
            database: the workload&apos;s tables must exist.
          </span>
        )}
      </div>

      {form.targetKind === 'fake' ? (
        <>
          <label className="field" htmlFor="latencyMs">
            Fake server latency (ms)
          </label>
          <div>
            <input type="number" id="latencyMs" value={form.latencyMs} min={0} step="any" onChange={(e) => set({ latencyMs: Number(e.target.value) })} />
          </div>
        </>
      ) : form.targetKind === 'spanner' ? (
        <SpannerFields value={form.spanner} cells={spec.clients.length * spec.configurations.length * spec.concurrency.length * (spec.repeats ?? 1)} onChange={(spanner) => set({ spanner })} />
      ) : (
        <>
          <label className="field" htmlFor="emulatorHost">
            Emulator host:port
          </label>
          <div>
            <input type="text" id="emulatorHost" value={form.emulatorHost} placeholder="empty: a fresh emulator per cell" onChange={(e) => set({ emulatorHost: e.target.value })} />
          </div>
        </>
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
          read-only transaction, readWriteTxn reads a player and inserts a score with the commit timestamp, pointRead reads a player by key.
        </span>
      </div>

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
        <span className="hint">Each agent pauses this long before every operation (scaled by the time scale); 0 is a closed loop.</span>
      </div>

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
