/**
 * What pages, statistics and the runner know of a target kind without running it. Each kind has
 * its schema and one of these in its own file (targets/<kind>.ts); index.ts lists them.
 */
export interface TargetKind<T> {
  /** Server time of one data RPC after the time scale where the target models it (the fake); null where it does not. */
  modeledLatencyMs(target: T, timeScale: number): number | null;
  /** The target with its defaults spelled out, so that equal scenarios have equal keys. */
  normalize(target: T): T;
  /** The target in words, for setup lines. */
  describe(target: T, timeScale: number): string;
}
