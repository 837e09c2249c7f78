import type { TargetForm } from './kind';

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
};
