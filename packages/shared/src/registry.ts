// The registries of the two axes a job varies besides its workload: client languages and target kinds.
// Built-in ones register themselves (job/languages.ts, targets/index.ts); an operator's plug-in
// modules (SCB_PLUGINS, plugins.ts) register theirs at start. The maps live on globalThis because
// Next.js bundles a copy of this package of its own: a plug-in loaded at start registers once for
// every copy in the process.
import type { LanguageInfo } from './job/language-info';
import type { TargetForm, TargetKind } from './targets/kind';

interface Registry {
  languages: Map<string, LanguageInfo>;
  targets: Map<string, TargetKind<any>>;
}

const KEY = Symbol.for('spanner-client-bench.registry');
const registry: Registry = ((globalThis as Record<symbol, unknown>)[KEY] as Registry | undefined) ?? { languages: new Map(), targets: new Map() };
(globalThis as Record<symbol, unknown>)[KEY] = registry;

const NAME = /^[a-z][a-z0-9-]{0,30}$/;

function checkName(what: string, name: string): void {
  if (!NAME.test(name)) throw new Error(`a ${what} is named with lower-case letters, digits and hyphens (up to 31), not "${name}"`);
}

/** Adds (or replaces: a second copy of this package registers the built-ins again) a client language. */
export function registerLanguage(info: LanguageInfo): void {
  checkName('client language', info.name);
  registry.languages.set(info.name, info);
}

/** Adds (or replaces) a target kind. */
export function registerTargetKind(kind: TargetKind<any>): void {
  checkName('target kind', kind.name);
  registry.targets.set(kind.name, kind);
}

/** Every registered client language, built-ins first. */
export function languageInfos(): LanguageInfo[] {
  return [...registry.languages.values()];
}

export function languageInfo(name: string): LanguageInfo | undefined {
  return registry.languages.get(name);
}

/** Every registered target kind, built-ins first. */
export function targetKinds(): TargetKind<any>[] {
  return [...registry.targets.values()];
}

export function targetKindNamed(name: string): TargetKind<any> | undefined {
  return registry.targets.get(name);
}

/** A registered kind's part of the launch form, with the kind's name. */
export type NamedTargetForm = TargetForm<any> & { kind: string };

/** The registered kinds that have a part in the launch form, built-ins first (the first is the form's default). */
export function targetForms(): NamedTargetForm[] {
  return targetKinds().flatMap((k) => (k.form ? [{ ...k.form, kind: k.name }] : []));
}

export function targetForm(kind: string): NamedTargetForm | undefined {
  return targetForms().find((f) => f.kind === kind);
}
