/**
 * A target kind's part of the launch form, pure (the form and its tests share it): the Target select's
 * option, its hint, its fields' state and how that state maps to and from the spec's `target`. Its
 * fields themselves are a component in ../target-fields.tsx, under the same kind. A kind without
 * one (a plug-in's) is launched from JSON.
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
}
