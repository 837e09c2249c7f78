import type { ReactNode } from 'react';

/** What a kind's fields component is given: its state, the job's cell count (for a cost bound) and a setter. */
export type TargetFieldsProps<S> = { value: S; cells: number; onChange: (v: S) => void };

/**
 * A target kind's part of the launch form, in its kind's folder (src/<kind>/form.tsx): the Target
 * select's option, its hint, its fields' state, how that state maps to and from the spec's `target`
 * (pure: the form's tests use them), and its fields (a component, rendered inside the client form). A
 * kind without one (a plug-in's) is launched from JSON.
 */
export interface TargetForm<S> {
  kind: string;
  /** The Target select's option. */
  option: string;
  /** What the user should know when picking it. */
  hint?: string;
  initial: S;
  /** A target of this kind as the fields' state. */
  read(target: Record<string, unknown>): S;
  /** The fields' state as the spec's target. */
  write(state: S): { kind: string } & Record<string, unknown>;
  /** Its fields on the form. */
  Fields(props: TargetFieldsProps<S>): ReactNode;
}
