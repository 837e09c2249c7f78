import type { TargetFieldsProps, TargetForm } from '../form';

export interface SpannerFormState {
  projectId: string;
  instanceId: string;
  databaseId: string;
  endpoint: string;
  maxOpsPerCell: number;
  maxSecondsPerCell: number;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The database, an optional endpoint and the cost caps per cell. */
export const spannerForm: TargetForm<SpannerFormState> = {
  kind: 'spanner',
  option: 'Cloud Spanner (real; costs money)',
  hint: "Runs only on a runner started with SCB_ALLOW_SPANNER=1; it uses that runner's Application Default Credentials, which are never entered, stored or shown here. Nothing is created in the database: the workload's tables must exist.",
  initial: { projectId: '', instanceId: '', databaseId: '', endpoint: '', maxOpsPerCell: 20_000, maxSecondsPerCell: 60 },
  read: (t) => ({
    ...spannerForm.initial,
    ...t,
    projectId: text(t.projectId),
    instanceId: text(t.instanceId),
    databaseId: text(t.databaseId),
    endpoint: text(t.endpoint),
  }),
  write: ({ endpoint, ...s }) => ({
    kind: 'spanner',
    ...s,
    projectId: s.projectId.trim(),
    instanceId: s.instanceId.trim(),
    databaseId: s.databaseId.trim(),
    ...(endpoint.trim() ? { endpoint: endpoint.trim() } : {}),
  }),
  Fields: SpannerFields,
};

/** The database on Cloud Spanner and the cost caps every cell's driver enforces. */
function SpannerFields({ value, cells, onChange }: TargetFieldsProps<SpannerFormState>) {
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
