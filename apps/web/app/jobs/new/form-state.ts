// The launch form's state, pure: its defaults, the form as a JobSpec and a spec as the form. The form
// and its tests share it; nothing here renders.
import { infoOf, languageNames, OPERATIONS, parseJobSpec, refusedOption, type JobSpecInput, type Language, type Operation } from '@scb/shared/job';
import type { Preset } from '@scb/shared/presets';
import { canonicalJson } from '@scb/shared/canonical-json';
import { targetForm, targetForms } from '@scb/shared/registry';

/** The kinds the launch form has fields for (every registered kind with a `form`), in the Target select's order. */
export const TARGET_FORMS = targetForms();

export type Ops = number | { min: number; perConcurrency: number };
export type ConfigKey = 'on' | 'off' | 'default' | 'dynamic';

export interface FormState {
  name: string;
  language: Language;
  versions: string[];
  /** closed: agents (`concurrency` lists them); open: arrivals per second (`concurrency` lists the rates). */
  load: 'closed' | 'open';
  /** The load levels as typed: concurrencies, or arrival rates. */
  concurrency: string;
  /** An open loop's arrivals. */
  arrivals: { distribution: 'poisson' | 'uniform'; maxOutstanding: string };
  /** The ticked configuration boxes by key: CONFIGS', or the language's own (configOptions). */
  configs: Record<string, boolean>;
  numChannels: string;
  /** One of TARGET_FORMS' kinds. */
  targetKind: string;
  /** Each kind's fields, kept while another kind is picked (TargetKind.form: packages/targets/src/<kind>/kind.ts). */
  targets: Record<string, unknown>;
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

export const CONFIGS: { key: ConfigKey; label: string; hint?: string }[] = [
  { key: 'on', label: 'grpc-gcp on' },
  { key: 'off', label: 'grpc-gcp off' },
  { key: 'default', label: 'client default' },
  { key: 'dynamic', label: 'dynamic channel pool', hint: 'It takes effect only when numChannels is not set, so numChannels is not applied to it.' },
];

/** A configuration box of the form: grpc-gcp's (CONFIGS) or a language's own, which carries its options. */
export interface ConfigOption {
  key: string;
  label: string;
  hint?: string;
  configuration?: Record<string, unknown>;
}

/** The configuration boxes while `language` is picked: its own (LanguageInfo.formConfigurations) or CONFIGS. */
export function configOptions(language: string): ConfigOption[] {
  return infoOf(language as Language).formConfigurations ?? CONFIGS;
}

/** The boxes ticked when `language` is picked: grpc-gcp's as they were, less what it cannot run; a language's own, its first two. */
export function configsFor(language: string, configs: FormState['configs']): FormState['configs'] {
  const own = infoOf(language as Language).formConfigurations;
  if (own) return Object.fromEntries(own.map((o, i) => [o.key, i < 2]));
  const kept = Object.fromEntries(CONFIGS.map((c) => [c.key, configs[c.key] ?? INITIAL.configs[c.key]!]));
  // Options a language cannot run at all (grpc-gcp on for Go) are unticked, not refused later.
  if (refusedOption(language as Language, { grpcGcp: 'on' })) Object.assign(kept, { on: false, dynamic: false, default: kept.default || ((kept.on || kept.dynamic) && !kept.off) });
  return kept;
}

/** Whether a spec's configuration is exactly a box's options (its label aside). */
function isOption(c: Record<string, unknown>, options: Record<string, unknown>): boolean {
  const keys = Object.keys(c).filter((k) => k !== 'label' && c[k] !== undefined);
  return keys.length === Object.keys(options).length && keys.every((k) => canonicalJson(c[k]) === canonicalJson(options[k]));
}

/** The first registered language, at its example version. */
const FIRST_LANGUAGE = infoOf(languageNames()[0]!);

export const INITIAL: FormState = {
  name: '',
  language: FIRST_LANGUAGE.name,
  versions: [FIRST_LANGUAGE.exampleVersion],
  load: 'closed',
  concurrency: '10, 50, 100',
  arrivals: { distribution: 'poisson', maxOutstanding: '1000' },
  configs: { on: true, off: true, default: false, dynamic: false },
  numChannels: '',
  targetKind: TARGET_FORMS[0]!.kind,
  targets: Object.fromEntries(TARGET_FORMS.map((t) => [t.kind, t.initial])),
  timeScale: 1,
  warmup: 200,
  measure: { kind: 'seconds', seconds: 5 },
  weights: { select1: '1', readOnlyTxn: '', readWriteTxn: '', pointRead: '', scan: '' },
  think: { ms: 0, distribution: 'fixed' },
  repeats: 1,
  runner: { minCores: '', minMemoryGiB: '', labels: '' },
};

/** The form's state as a JobSpec (the API and this form validate it with the same schema). */
export function toSpec(f: FormState): JobSpecInput {
  const numChannels = f.numChannels.trim() === '' ? undefined : Number(f.numChannels);
  const own = infoOf(f.language).formConfigurations;
  const configurations = own
    ? own.filter((c) => f.configs[c.key]).map((c) => ({ label: c.label, ...c.configuration }))
    : CONFIGS.filter((c) => f.configs[c.key]).map((c) =>
        c.key === 'dynamic' ? { label: c.label, grpcGcp: 'on' as const, dynamicChannelPool: true } : { label: c.label, grpcGcp: c.key, ...(numChannels !== undefined ? { numChannels } : {}) },
      );
  return {
    ...(f.name.trim() ? { name: f.name.trim() } : {}),
    clients: f.versions.map((version) => ({ language: f.language, version })),
    configurations,
    [f.load === 'open' ? 'arrivalRates' : 'concurrency']: f.concurrency
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number),
    target: targetOf(f),
    workload: {
      ...operationsOf(f),
      ...(f.load === 'open' ? { arrivals: { distribution: f.arrivals.distribution, maxOutstanding: Number(f.arrivals.maxOutstanding) } } : {}),
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
  const think = f.think.ms !== 0 && f.load === 'closed' ? { thinkTime: f.think } : {};
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
  const form = targetForm(f.targetKind) ?? TARGET_FORMS[0]!;
  return form.write(f.targets[form.kind] ?? form.initial);
}

/** The target as the form's fields; a kind the form has none for (a plug-in's) shows the default kind's, and fitsFields says the JSON is needed. */
function targetFields(target: JobSpecInput['target']): Pick<FormState, 'targetKind' | 'targets'> {
  const form = target ? targetForm(target.kind) : undefined;
  if (!target || !form) return { targetKind: INITIAL.targetKind, targets: INITIAL.targets };
  return { targetKind: form.kind, targets: { ...INITIAL.targets, [form.kind]: form.read(target as Record<string, unknown> & { kind: string }) } };
}

/** Whether the fields above show all of a preset (a scenario's mix, faults or pool need the JSON). */
export function fitsFields(p: Preset): boolean {
  const direct = parseJobSpec(p.spec);
  const viaFields = parseJobSpec(toSpec(fromSpec(p.spec)));
  return direct.ok && viaFields.ok && canonicalJson(direct.value) === canonicalJson(viaFields.value);
}

/** A preset's spec as form state (what the fields can show of it). */
export function fromSpec(spec: JobSpecInput): FormState {
  const cfgs = spec.configurations;
  const own = infoOf(spec.clients[0].language as Language).formConfigurations;
  const w = spec.workload;
  return {
    name: spec.name ?? '',
    language: spec.clients[0].language,
    versions: spec.clients.map((c) => c.version),
    load: spec.arrivalRates ? 'open' : 'closed',
    concurrency: (spec.arrivalRates ?? spec.concurrency ?? []).join(', '),
    arrivals: { distribution: w.arrivals?.distribution ?? 'poisson', maxOutstanding: String(w.arrivals?.maxOutstanding ?? 1000) },
    configs: own
      ? Object.fromEntries(own.map((o) => [o.key, cfgs.some((c) => isOption(c, o.configuration))]))
      : {
          on: cfgs.some((c) => c.grpcGcp === 'on' && !c.dynamicChannelPool),
          off: cfgs.some((c) => c.grpcGcp === 'off'),
          default: cfgs.some((c) => (c.grpcGcp ?? 'default') === 'default'),
          dynamic: cfgs.some((c) => c.dynamicChannelPool),
        },
    numChannels: String(cfgs.find((c) => c.numChannels !== undefined)?.numChannels ?? ''),
    ...targetFields(spec.target),
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
