// Each target kind's fields on the launch form, under its kind (the pure part is targets/<kind>.ts).
import type { ReactNode } from 'react';
import type { SpannerFormState } from './targets/spanner';

export type TargetFieldsProps<S> = { value: S; cells: number; onChange: (v: S) => void };

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

/** The database on Cloud Spanner and the cost caps every cell's driver enforces. */
function SpannerFields({ value, cells, onChange }: { value: SpannerFormState; cells: number; onChange: (v: SpannerFormState) => void }) {
  const text = (key: 'projectId' | 'instanceId' | 'databaseId' | 'endpoint', label: string, placeholder = '') => (
    <>
      <label className="field" htmlFor={`spanner-${key}`}>
        {label}
      </label>
      <div>
        <input type="text" id={`spanner-${key}`} value={value[key]} placeholder={placeholder} onChange={(e) => onChange({ ...value, [key]: e.target.value })} />
      </div>
    </>
  );
  return (
    <>
      {text('projectId', 'Project id')}
      {text('instanceId', 'Instance id')}
      {text('databaseId', 'Database id')}
      {text('endpoint', 'Endpoint host:port', 'spanner.googleapis.com:443')}
      <label className="field" htmlFor="spanner-maxOpsPerCell">
        Cost cap: operations per cell
      </label>
      <div>
        <input type="number" id="spanner-maxOpsPerCell" value={value.maxOpsPerCell} min={1} onChange={(e) => onChange({ ...value, maxOpsPerCell: Number(e.target.value) })} />
      </div>
      <label className="field" htmlFor="spanner-maxSecondsPerCell">
        Cost cap: seconds per cell
      </label>
      <div>
        <input type="number" id="spanner-maxSecondsPerCell" value={value.maxSecondsPerCell} min={1} onChange={(e) => onChange({ ...value, maxSecondsPerCell: Number(e.target.value) })} />
        <span className="hint" id="spanner-cost">
          Cost bound: {cells} cell(s), at most {(cells * value.maxOpsPerCell).toLocaleString('en-US')} operations and {Math.ceil((cells * value.maxSecondsPerCell) / 60)} minutes of traffic in all. The
          driver starts no operation past either cap (warm-up included); a capped cell says so.
        </span>
      </div>
    </>
  );
}

/** The fields of each kind of TARGET_FORMS. */
export const TARGET_FIELDS: Record<string, (props: TargetFieldsProps<any>) => ReactNode> = { fake: FakeFields, emulator: EmulatorFields, spanner: SpannerFields };
