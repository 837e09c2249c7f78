import { DEFAULT_TARGET } from './kind';
import type { TargetFieldsProps, TargetForm } from '../form';

/** The fake's latency per query; the rest of its behaviour is a preset's or the JSON's. */
export const fakeForm: TargetForm<{ latencyMs: number }> = {
  kind: 'fake',
  option: 'fake Spanner (bundled, latency model)',
  initial: { latencyMs: DEFAULT_TARGET.latencyMs },
  read: (t) => ({ latencyMs: typeof t.latencyMs === 'number' ? t.latencyMs : DEFAULT_TARGET.latencyMs }),
  write: (s) => ({ kind: 'fake', latencyMs: s.latencyMs }),
  Fields: FakeFields,
};

function FakeFields({ value, onChange }: TargetFieldsProps<{ latencyMs: number }>) {
  return (
    <>
      <label className="field" htmlFor="latencyMs">
        Fake server latency (ms)
      </label>
      <div>
        <input type="number" id="latencyMs" value={value.latencyMs} min={0} step="any" onChange={(e) => onChange({ latencyMs: Number(e.target.value) })} />
      </div>
    </>
  );
}
