import { DEFAULT_TARGET } from '@scb/shared/targets';
import type { TargetForm } from './kind';

/** The fake's latency per query; the rest of its behaviour is a preset's or the JSON's. */
export const fakeForm: TargetForm<{ latencyMs: number }> = {
  kind: 'fake',
  option: 'fake Spanner (bundled, latency model)',
  initial: { latencyMs: DEFAULT_TARGET.latencyMs },
  read: (t) => ({ latencyMs: typeof t.latencyMs === 'number' ? t.latencyMs : DEFAULT_TARGET.latencyMs }),
  write: (s) => ({ kind: 'fake', latencyMs: s.latencyMs }),
};
