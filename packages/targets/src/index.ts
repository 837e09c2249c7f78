// The built-in target kinds, one folder each (src/<kind>/: kind.ts its spec part and launch-form fields,
// runner.ts how a runner starts and stops it), registered once in kinds.ts. Server-only: the browser and
// @scb/shared import the kinds (@scb/targets/kinds), never a runner side.
import type { TargetPlugin } from '@scb/shared/target-plugin';
import { BUILT_IN_KINDS } from './kinds';

/**
 * The runner side of each built-in kind, found by the folder's convention (`<kind>/runner.ts` exports
 * `runner`), so registering a kind in kinds.ts is the only list a new one joins; plug-ins add theirs at
 * start (SCB_PLUGINS).
 */
export async function builtInRunners(): Promise<TargetPlugin<any>[]> {
  return Promise.all(
    BUILT_IN_KINDS.map(async ({ name }) => {
      const { runner } = (await import(`./${name}/runner.ts`)) as { runner?: TargetPlugin<any> };
      if (runner?.kind !== name) throw new Error(`packages/targets/src/${name}/runner.ts must export the kind's runner side as \`runner\` (kind "${name}")`);
      return runner;
    }),
  );
}
