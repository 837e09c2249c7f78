// A plug-in module as an operator would write one (SCB_PLUGINS): a client language and a target kind
// that no file of the product names. The language drives the Node client under another name; the
// target kind is the fake under another name, with a fixed version of its own to record, and a rule of
// the operator's policy of its own (SCB_TWIN_MAX_LATENCY_MS: /settings shows it, a spec above it is refused).
import { languagePlugins, registerLanguagePlugin, type LanguagePlugin } from '@scb/languages';
import type { LanguageInfo } from '@scb/shared/job';
import { targetPolicy, wholeNumber } from '@scb/shared/policy';
import { registerLanguage, registerTargetKind } from '@scb/shared/registry';
import type { TargetKind, TargetPolicy } from '@scb/shared/targets';
import { z } from 'zod';
import type { TargetPlugin } from '@scb/shared/target-plugin';

const TwinTargetSchema = z.strictObject({ kind: z.literal('twin-fake'), latencyMs: z.number().min(0).max(1000) });
type TwinTarget = z.output<typeof TwinTargetSchema>;

/** The operator's ceiling of the twin's latency. */
const MAX_LATENCY = 'SCB_TWIN_MAX_LATENCY_MS';
const twinPolicy: TargetPolicy<{ maxLatencyMs: number }> = {
  title: 'twin fake Spanner',
  variables: { maxLatency: MAX_LATENCY },
  read(env) {
    const r = wholeNumber(env, MAX_LATENCY);
    return r.ok ? { ok: true, value: { maxLatencyMs: r.value ?? 1000 } } : r;
  },
  settings: (p) => [{ term: `latency, at most (${MAX_LATENCY})`, value: `${p.maxLatencyMs} ms` }],
};

const twinKind: TargetKind<TwinTarget> = {
  name: 'twin-fake',
  title: 'twin fake Spanner',
  schema: TwinTargetSchema,
  policy: twinPolicy,
  policyIssues: (t, policy) => {
    const max = targetPolicy<{ maxLatencyMs: number }>(policy, 'twin-fake')?.maxLatencyMs ?? 1000;
    return t.latencyMs > max ? [{ field: 'latencyMs', message: `must be at most ${max} ms, this server's ceiling (${MAX_LATENCY}; see /settings)` }] : [];
  },
  startedByRunner: () => true,
  modeledLatencyMs: (t, timeScale) => t.latencyMs * timeScale,
  normalize: (t) => t,
  estimate: { setupSeconds: 1, operationMs: 5 },
  streamLimit: () => 100,
  describe: (t) => `twin fake Spanner answering in ${t.latencyMs} ms`,
};

const twinLanguage: LanguageInfo = { name: 'node-twin', title: 'Node twin', packageName: '@google-cloud/spanner', exampleVersion: '9.0.0', cellSeconds: 5 };

const node = languagePlugins().find((p) => p.language === 'node')!;
const twinPlugin: LanguagePlugin = {
  language: 'node-twin',
  packageName: node.packageName,
  listVersions: () => node.listVersions(),
  install: (client, ctx) => node.install({ ...client, language: 'node' }, ctx),
  toolchain: async () => `twin of ${await node.toolchain()}`,
};

registerTargetKind(twinKind);
registerLanguage(twinLanguage);
registerLanguagePlugin(twinPlugin);

/** The runner's side of the kind: the fake, started as the runner starts its own. */
export const targetPlugins: TargetPlugin<TwinTarget>[] = [
  {
    kind: 'twin-fake',
    available: () => true,
    version: () => 'twin 1.0',
    async start(target, spec, plan) {
      // Imported here: the web app loads this module too, and needs none of the runner.
      const fake = (await (await import('@scb/targets')).builtInRunners()).find((r) => r.kind === 'fake')!;
      return fake.start({ kind: 'fake', latencyMs: target.latencyMs }, spec, plan);
    },
  },
];
