import type { TargetFieldsProps, TargetForm } from '../form';

/** host:port of an emulator already running; empty starts a fresh one per cell. */
export const emulatorForm: TargetForm<{ emulatorHost: string }> = {
  kind: 'emulator',
  option: 'Cloud Spanner emulator',
  hint: 'A fresh emulator per cell, provisioned by the runner; it is CPU-bound (about 3 ms of CPU per query: near 300 queries per second on a 2-core machine), not a latency model. Node cells run with regular sessions.',
  initial: { emulatorHost: '' },
  read: (t) => ({ emulatorHost: typeof t.emulatorHost === 'string' ? t.emulatorHost : '' }),
  write: (s) => ({ kind: 'emulator', ...(s.emulatorHost.trim() ? { emulatorHost: s.emulatorHost.trim() } : {}) }),
  Fields: EmulatorFields,
};

function EmulatorFields({ value, onChange }: TargetFieldsProps<{ emulatorHost: string }>) {
  return (
    <>
      <label className="field" htmlFor="emulatorHost">
        Emulator host:port
      </label>
      <div>
        <input type="text" id="emulatorHost" value={value.emulatorHost} placeholder="empty: a fresh emulator per cell" onChange={(e) => onChange({ emulatorHost: e.target.value })} />
      </div>
    </>
  );
}
