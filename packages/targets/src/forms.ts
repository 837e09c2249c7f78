// The built-in kinds' launch-form parts (src/<kind>/form.tsx), one line per kind: the web app's form
// imports only this (no runner code reaches the browser).
import { emulatorForm } from './emulator/form';
import { fakeForm } from './fake/form';
import type { TargetForm } from './form';
import { spannerForm } from './spanner/form';

export type { TargetFieldsProps, TargetForm } from './form';

/** The target kinds the launch form has fields for, in the select's order; the first is the default. One entry per kind, its file holding all of its part of the form. */
export const TARGET_FORMS: TargetForm<any>[] = [fakeForm, emulatorForm, spannerForm];

export function targetForm(kind: string): TargetForm<unknown> | undefined {
  return TARGET_FORMS.find((f) => f.kind === kind);
}
