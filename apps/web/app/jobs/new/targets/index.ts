import { emulatorForm } from './emulator';
import { fakeForm } from './fake';
import type { TargetForm } from './kind';
import { spannerForm } from './spanner';

export type { TargetFieldsProps, TargetForm } from './kind';

/** The target kinds the launch form has fields for, in the select's order; the first is the default. One entry per kind, its file holding all of its part of the form. */
export const TARGET_FORMS: TargetForm<any>[] = [fakeForm, emulatorForm, spannerForm];

export function targetForm(kind: string): TargetForm<unknown> | undefined {
  return TARGET_FORMS.find((f) => f.kind === kind);
}
