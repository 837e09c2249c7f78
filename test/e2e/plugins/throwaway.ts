// A plug-in module as an operator would write one (SCB_PLUGINS): a client language and a target kind
// that no file of the product names. The language drives the Node client under another name; the
// target kind is the fake under another name, with a fixed version of its own to record.
import { languagePlugins, registerLanguagePlugin, type LanguagePlugin } from '@scb/languages';
import type { LanguageInfo } from '@scb/shared/job';
import { registerLanguage, registerTargetKind } from '@scb/shared/registry';
import type { TargetKind } from '@scb/shared/targets';
import { z } from 'zod';
import type { TargetPlugin } from '@scb/shared/target-plugin';

const TwinTargetSchema = z.strictObject({ kind: z.literal('twin-fake'), latencyMs: z.number().min(0).max(1000) });
type TwinTarget = z.output<typeof TwinTargetSchema>;

const twinKind: TargetKind<TwinTarget> = {
  name: 'twin-fake',
  title: 'twin fake Spanner',
  schema: TwinTargetSchema,
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
      const { fake } = await import('../../../apps/runner/src/targets/fake');
      return fake.start({ kind: 'fake', latencyMs: target.latencyMs }, spec, plan);
    },
  },
];
