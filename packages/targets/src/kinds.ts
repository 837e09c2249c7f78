// The one registration of a built-in target kind: its folder's spec part (schema, words, policy, launch-form
// fields; no runner code, safe in the browser), one line each. @scb/shared registers them (targets/index.ts),
// so every spec parse and the launch form know them; the runner finds each folder's runner.ts by its name.
import { emulatorTarget } from './emulator/kind';
import { fakeTarget } from './fake/kind';
import { spannerTarget } from './spanner/kind';

/** In the launch form's order: the first is its default. */
export const BUILT_IN_KINDS = [fakeTarget, emulatorTarget, spannerTarget];

export { DEFAULT_TARGET, FakeServerSchema, FakeTargetSchema, GRPC_JS_DNS_AUTHORITY, type FakeTarget } from './fake/kind';
export { EMULATOR_HOST_RULE, EMULATOR_POLICY_VARIABLES, emulatorHostAllowed, EmulatorTargetSchema, type EmulatorPolicy, type EmulatorTarget, type PortRange } from './emulator/kind';
export {
  DEFAULT_SPANNER_CEILINGS,
  DEFAULT_SPANNER_ENDPOINT,
  GOOGLE_SPANNER_ENDPOINTS,
  SPANNER_POLICY_VARIABLES,
  SPANNER_RULES,
  spannerDatabaseAllowed,
  spannerEndpointAllowed,
  SpannerTargetSchema,
  type DatabaseRule,
  type SpannerPolicy,
  type SpannerTarget,
} from './spanner/kind';
