// The launch form's small fields: operations that may scale with concurrency, the Cloud Spanner
// database and cost caps, the runner's numbers, and the run-time estimate.
import { cellCount, estimateJobSeconds, parseJobSpec } from '@scb/shared/job';
import type { Ops } from './form-state';

export function OpsInput({ id, value, onChange }: { id: string; value: Ops; onChange: (v: Ops) => void }) {
  const scaled = typeof value !== 'number';
  return (
    <span>
      {scaled ? (
        <>
          max(
          <input
            type="number"
            id={`${id}-min`}
            aria-label={`${id} minimum`}
            value={value.min}
            min={0}
            onChange={(e) => onChange({ ...value, min: Number(e.target.value) })}
            style={{ minWidth: '6rem', width: '6rem' }}
          />
          ,{' '}
          <input
            type="number"
            id={`${id}-per`}
            aria-label={`${id} per concurrency`}
            value={value.perConcurrency}
            min={0}
            step="any"
            onChange={(e) => onChange({ ...value, perConcurrency: Number(e.target.value) })}
            style={{ minWidth: '5rem', width: '5rem' }}
          />{' '}
          × C)
        </>
      ) : (
        <input type="number" id={id} value={value} min={0} onChange={(e) => onChange(Number(e.target.value))} />
      )}{' '}
      <label>
        <input
          type="checkbox"
          checked={scaled}
          onChange={(e) => onChange(e.target.checked ? { min: typeof value === 'number' ? value : 0, perConcurrency: 4 } : typeof value === 'number' ? value : value.min)}
        />{' '}
        scale with concurrency
      </label>
    </span>
  );
}

/** A small number field of the Runner row; empty asks nothing. */
export function RunnerNumber({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  return <input type="number" id={id} aria-label={label} value={value} min={1} style={{ width: '5em' }} onChange={(e) => onChange(e.target.value)} />;
}

/** The estimate before submit: the operator's limit refuses a job estimated above it. */
export function Estimate({ spec, limitMinutes }: { spec: unknown; limitMinutes: number }) {
  const parsed = parseJobSpec(spec);
  if (!parsed.ok) return null;
  const minutes = estimateJobSeconds(parsed.value) / 60;
  const over = minutes > limitMinutes;
  return (
    <p className={over ? 'issues' : 'hint'} data-testid="estimate">
      Estimated run time: {minutes < 1 ? 'under a minute' : `about ${Math.ceil(minutes)} minutes`} for {cellCount(parsed.value)} cell(s), client installs not counted
      {over ? `: more than this server's limit of ${limitMinutes} minutes (see /settings)` : ` (this server's limit: ${limitMinutes} minutes)`}.
    </p>
  );
}
