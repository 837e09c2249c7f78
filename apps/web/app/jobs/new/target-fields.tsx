'use client';
// A target kind's inputs on the launch form, rendered from its TargetForm (data in the kind's folder,
// packages/targets/src/<kind>/kind.ts): one labelled input per field, then its note.
import { Fragment } from 'react';
import type { NamedTargetForm } from '@scb/shared/registry';

export function TargetFields({ form, value, cells, onChange }: { form: NamedTargetForm; value: unknown; cells: number; onChange: (v: unknown) => void }) {
  const state = (value ?? form.initial) as Record<string, unknown>;
  return (
    <>
      {form.fields.map((f) => {
        const id = f.id ?? f.key;
        const v = state[f.key];
        return (
          <Fragment key={id}>
            <label className="field" htmlFor={id}>
              {f.label}
            </label>
            <div>
              <input
                type={f.type}
                id={id}
                value={typeof v === 'number' || typeof v === 'string' ? v : ''}
                placeholder={f.placeholder}
                min={f.min}
                step={f.step}
                onChange={(e) => onChange({ ...state, [f.key]: f.type === 'number' ? Number(e.target.value) : e.target.value })}
              />
            </div>
          </Fragment>
        );
      })}
      {form.note && (
        <>
          <span />
          <div>
            <span className="hint" id={form.note.id}>
              {form.note.text(state, cells)}
            </span>
          </div>
        </>
      )}
    </>
  );
}
