import type { TargetForm } from './kind';

/** The fake's latency per query; the rest of its behaviour is a preset's or the JSON's. */
export const fakeForm: TargetForm<{ latencyMs: number }> = {
  kind: 'fake',
  option: 'fake Spanner (bundled, latency model)',
  initial: { latencyMs: 65 },
  read: (t) => ({ latencyMs: typeof t.latencyMs === 'number' ? t.latencyMs : 65 }),
  write: (s) => ({ kind: 'fake', latencyMs: s.latencyMs }),
};
