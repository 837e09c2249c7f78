// The built-in languages' entries live in their folders (packages/languages/src/<language>/info.ts)
// and are registered from there: importing this module registers them.
import '@scb/languages/info';
import { languageInfo, languageInfos } from '../registry';
import type { LanguageInfo, RefusableConfiguration, RefusalContext } from './language-info';

export { versionRefusal, type LanguageInfo, type RefusableConfiguration, type RefusalContext } from './language-info';

/** The names of every registered language, built-ins first. */
export function languageNames(): string[] {
  return languageInfos().map((l) => l.name);
}

/** The language's info; throws for a name no plug-in registered (specs are parsed before they get here). */
export function infoOf(language: string): LanguageInfo {
  const info = languageInfo(language);
  if (!info) throw new Error(`no client language "${language}" is registered`);
  return info;
}

/** The client as its users name it: google-cloud-spanner (a Maven artifact without its group), @google-cloud/spanner, cloud.google.com/go/spanner. */
export function clientName(language: string): string {
  return languageInfo(language)?.packageName.split(':').pop() ?? language;
}

/**
 * Why a configuration cannot run on a language, before anything is installed; null when it can. With
 * a context it also weighs the client version and the workload (a job spec's pairs); without, only
 * what no version of the language could run.
 */
export function refusedOption(language: string, configuration: RefusableConfiguration, context?: RefusalContext): { option: string; message: string } | null {
  const info = languageInfo(language);
  if (!info) return null;
  // Another language's own options first (the latest registered first), then the language's own rules.
  for (const other of languageInfos().reverse()) {
    if (other.name === language) continue;
    const refused = other.refuseForeign?.(configuration, language);
    if (refused) return refused;
  }
  return info.refuse?.(configuration, context) ?? null;
}
