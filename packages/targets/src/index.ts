// The built-in target kinds, one folder each (src/<kind>/: kind.ts its spec part, runner.ts how a runner
// starts and stops it, form.tsx its launch-form fields), and the runner's registry of their runner side.
// Server-only: the browser imports @scb/targets/forms, @scb/shared the kinds (@scb/targets/kinds).
import type { TargetPlugin } from '@scb/shared/target-plugin';
import { emulator } from './emulator/runner';
import { fake } from './fake/runner';
import { spanner } from './spanner/runner';

/** The runner side of each built-in kind, one line per kind; plug-ins add theirs at start (SCB_PLUGINS). */
export const BUILT_IN_RUNNERS: TargetPlugin<any>[] = [fake, emulator, spanner];
