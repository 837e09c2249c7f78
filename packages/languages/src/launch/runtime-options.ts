// The options an operator gives every driver of a language's runtime (its JVM, its Node), from the
// runner's environment only (never a spec): SCB_JAVA_DRIVER_OPTIONS, SCB_NODE_DRIVER_OPTIONS. Each option
// must be one the language's plug-in allows (a collector, the JIT's tiers, heap sizes: nothing that runs,
// loads, opens or writes anything), so the variable cannot make a driver do more than measure another
// way. Each language's launch puts them before the driver's own arguments, and a job records them with its environment: a
// result measured with them is not one of the runtime's defaults (docs/configuration.md).
import type { LanguagePlugin, RuntimeOptionsRule } from '../plugin';

export type { RuntimeOptionsRule };

/** A variable holding an option its language does not allow: the runner refuses to start with this sentence. */
export class RuntimeOptionsError extends Error {}

/** The options `rule`'s variable holds in `env`, checked; [] when it is unset or empty. Throws RuntimeOptionsError. */
export function runtimeOptionsOf(rule: RuntimeOptionsRule, env: NodeJS.ProcessEnv = process.env): string[] {
  const options = (env[rule.variable] ?? '').trim().split(/\s+/).filter(Boolean);
  for (const option of options) {
    if (!rule.allowed.some((r) => new RegExp(`^(?:${r.source})$`).test(option)))
      throw new RuntimeOptionsError(`${rule.variable}: ${JSON.stringify(option.slice(0, 80))} is not an option drivers take here (allowed: ${rule.allowedText})`);
  }
  return options;
}

/** The runtime options set for each language that has any, as a job records them; throws RuntimeOptionsError for a refused one. */
export function runtimeOptionsByLanguage(plugins: readonly LanguagePlugin[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const set: Record<string, string> = {};
  for (const p of plugins) {
    const options = p.runtimeOptions ? runtimeOptionsOf(p.runtimeOptions, env) : [];
    if (options.length) set[p.language] = options.join(' ');
  }
  return set;
}

/**
 * The options that cost a short cell the least CPU (`npm run bench:driver-start` measures them beside the
 * defaults): C1 only and the serial collector for a JVM (0.68 of a 200-operation cell's CPU, 0.51 of a
 * 3,000-operation one's). Node's drivers keep V8's defaults: its collector on the main thread saved 4%.
 * `npm test` gives them to its drivers; nothing else sets them.
 */
export const SHORT_CELL_OPTIONS = {
  SCB_JAVA_DRIVER_OPTIONS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC',
} as const;
