// Which process limited a cell, judged from what was measured while it measured. A harness-bound
// cell's numbers are not about the client and must not be compared; a client-bound cell's qps is a
// property of the client on this machine; a configuration-bound one was held at a ceiling its own
// configuration sets (results/ceiling.ts). Thresholds are justified in docs/verdicts.md.
import { CPU_BOUND_SHARE, cpuShare } from './channels';

/** In the order of their indexes in stored chart data; SEVERITY orders them. */
export const VERDICTS = ['clean', 'client-bound', 'harness-bound', 'configuration-bound'] as const;
export type VerdictKind = (typeof VERDICTS)[number];
/** From the least to the most in the way of comparing the cell's numbers. */
const SEVERITY: VerdictKind[] = ['clean', 'configuration-bound', 'client-bound', 'harness-bound'];

/** The figures a verdict reads: a stored cell result's columns (null where not measured) and the machine's cores. */
export interface SaturationFigures {
  cpuMs: number;
  elapsedMs: number;
  /** The client's p50 and p99, against which the fake's added time is weighed. */
  p50Ms: number;
  p99Ms: number;
  driverLoopUtilization?: number | null;
  targetLoopUtilization?: number | null;
  targetAddedP50Ms?: number | null;
  targetAddedP99Ms?: number | null;
  /** The fake's added time as the wire shows it (measureOnWire); weighed instead of its own clock's where present. */
  targetWireAddedP50Ms?: number | null;
  targetWireAddedP99Ms?: number | null;
  /** A target in a process of its own (the emulator): its CPU as a share of all cores. */
  targetCpuShare?: number | null;
  machineBusyShare?: number | null;
  machineRunnerShare?: number | null;
  /** An open loop: how late the driver started operations at p99 (ms), and its language's goal (LanguageInfo.scheduleLagGoalMs). */
  scheduleLagP99Ms?: number | null;
  scheduleLagGoalMs?: number;
  /** A closed loop's agents (its concurrency): fewer agents than cores, each busy in the client, bound the cell before the machine's cores do. */
  agents?: number;
}

export const LIMITS = {
  /** A one-event-loop driver (Node) busy this share of the time has no room for its client. */
  driverLoop: 0.8,
  /** A multi-threaded driver (Java, Go) using this share of all cores. */
  driverCpu: CPU_BOUND_SHARE,
  /** The fake's thread busy this share of the time is at its ceiling (a loop polling I/O never shows 100%). */
  targetLoop: 0.75,
  /**
   * The fake's own added time per RPC beyond the latency it applied, as a share of the client's latency
   * at p50 and at p99: past a tenth, the fake is a large part of the number the client reports.
   */
  targetAddedP50Share: 0.1,
  targetAddedP99Share: 0.1,
  /** The same, measured on the wire (target.measureOnWire). */
  targetWireP50Share: 0.1,
  targetWireP99Share: 0.1,
  /** A target process (the emulator) using this share of all cores: it, not the client, set the pace. */
  targetCpu: 0.25,
  /** Processes other than the driver, the runner (which hosts the fake) and the target using this share of all cores. */
  machineOther: 0.25,
  /** All processes together using this share of all cores: the machine was full. */
  machineBusy: 0.95,
  /** An open loop's driver starting operations later at p99 than its language's goal (this is the default, ms) and a tenth of the cell's p50. */
  driverLag: 1,
  /**
   * A closed loop of fewer agents than cores whose driver used this many cores per agent: each agent ran
   * one operation at a time and spent it in the client (decoding a large result, say), so the client set
   * the pace though the machine had cores to spare.
   */
  driverAgents: 0.8,
} as const;
export type LimitName = keyof typeof LIMITS;

/** One figure past its threshold, and the process it speaks for. */
export interface Limit {
  name: LimitName;
  process: 'driver' | 'fake' | 'target' | 'machine';
  value: number;
  threshold: number;
}

export interface CellVerdict {
  kind: VerdictKind;
  /** Every figure past its threshold; the harness's first. */
  limits: Limit[];
  /** configuration-bound: the limit that held, in words with its figures. */
  held?: string;
}

const PROCESS: Record<LimitName, Limit['process']> = {
  driverLoop: 'driver',
  driverCpu: 'driver',
  targetLoop: 'fake',
  targetAddedP50Share: 'fake',
  targetAddedP99Share: 'fake',
  targetWireP50Share: 'fake',
  targetWireP99Share: 'fake',
  targetCpu: 'target',
  machineOther: 'machine',
  machineBusy: 'machine',
  driverLag: 'driver',
  driverAgents: 'driver',
};

/**
 * The harness (the fake, the machine) is judged first: when it was saturated, the client's figures are
 * not about the client even if the client was busy too. A full machine that the client itself filled
 * (a multi-threaded driver past its CPU limit) is the client's doing, not the harness's.
 */
export function judgeCell(f: SaturationFigures, cores: number): CellVerdict {
  const over = (name: LimitName, value: number | null | undefined, threshold: number = LIMITS[name]): Limit[] =>
    value != null && Number.isFinite(value) && value > threshold ? [{ name, process: PROCESS[name], value, threshold }] : [];
  const driverShare = cpuShare(f.cpuMs, f.elapsedMs, cores);
  const driverCores = driverShare * cores;
  const driver = [
    ...over('driverLoop', f.driverLoopUtilization),
    ...over('driverCpu', driverShare),
    ...(f.agents !== undefined && f.agents < cores ? over('driverAgents', driverCores / f.agents) : []),
  ];
  const other = f.machineBusyShare != null && f.machineRunnerShare != null ? f.machineBusyShare - f.machineRunnerShare - driverShare - (f.targetCpuShare ?? 0) : null;
  const harness = [
    ...over('targetLoop', f.targetLoopUtilization),
    ...(f.targetWireAddedP50Ms != null
      ? [
          // The wire sees everything the fake spends on an RPC; its own clock misses its HTTP/2 layer.
          ...over('targetWireP50Share', f.p50Ms > 0 ? f.targetWireAddedP50Ms / f.p50Ms : null),
          ...over('targetWireP99Share', f.targetWireAddedP99Ms != null && f.p99Ms > 0 ? f.targetWireAddedP99Ms / f.p99Ms : null),
        ]
      : [
          ...over('targetAddedP50Share', f.targetAddedP50Ms != null && f.p50Ms > 0 ? f.targetAddedP50Ms / f.p50Ms : null),
          ...over('targetAddedP99Share', f.targetAddedP99Ms != null && f.p99Ms > 0 ? f.targetAddedP99Ms / f.p99Ms : null),
        ]),
    ...over('targetCpu', f.targetCpuShare),
    ...over('machineOther', other),
    ...(driverShare > LIMITS.driverCpu ? [] : over('machineBusy', f.machineBusyShare)),
    // Arrivals the driver started late were not the load asked for, whatever made it late: past its
    // language's goal, and past a tenth of the cell's p50 (as the fake's added time is weighed).
    ...over('driverLag', f.scheduleLagP99Ms, Math.max(f.scheduleLagGoalMs ?? LIMITS.driverLag, LIMITS.targetAddedP50Share * f.p50Ms)),
  ];
  return { kind: harness.length ? 'harness-bound' : driver.length ? 'client-bound' : 'clean', limits: [...harness, ...driver] };
}

const LIMIT_WORDS: Record<LimitName, (l: Limit) => string> = {
  driverLoop: (l) => `driver's event loop busy ${pct(l.value)} (over ${pct(l.threshold)})`,
  driverCpu: (l) => `driver used ${pct(l.value)} of the machine's cores (over ${pct(l.threshold)})`,
  targetLoop: (l) => `fake's thread busy ${pct(l.value)} (over ${pct(l.threshold)})`,
  targetAddedP50Share: (l) => `fake added ${pct(l.value)} of the client's p50 (over ${pct(l.threshold)})`,
  targetAddedP99Share: (l) => `fake added ${pct(l.value)} of the client's p99 (over ${pct(l.threshold)})`,
  targetWireP50Share: (l) => `fake added ${pct(l.value)} of the client's p50 on the wire (over ${pct(l.threshold)})`,
  targetWireP99Share: (l) => `fake added ${pct(l.value)} of the client's p99 on the wire (over ${pct(l.threshold)})`,
  targetCpu: (l) => `the target's process used ${pct(l.value)} of the machine (over ${pct(l.threshold)})`,
  machineOther: (l) => `other processes used ${pct(l.value)} of the machine (over ${pct(l.threshold)})`,
  machineBusy: (l) => `machine ${pct(l.value)} busy (over ${pct(l.threshold)})`,
  driverAgents: (l) => `driver used ${l.value.toFixed(2)} cores per agent (over ${l.threshold}): each agent was busy in the client`,
  driverLag: (l) => `driver started operations ${l.value.toFixed(1)} ms late at p99 (over ${+l.threshold.toFixed(1)} ms: its goal, or a tenth of the p50)`,
};
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** A clean verdict becomes configuration-bound when a limit of the cell's configuration held it (configurationLimit). */
export function withConfigurationLimit(v: CellVerdict, held: string | null): CellVerdict {
  return v.kind === 'clean' && held ? { kind: 'configuration-bound', limits: [], held } : v;
}

/** "fake's thread busy 93% (over 80%); …": why a cell got its verdict. */
export function verdictReasons(v: CellVerdict): string {
  return [...v.limits.map((l) => LIMIT_WORDS[l.name](l)), ...(v.held ? [v.held] : [])].join('; ');
}

/** What each verdict means for the numbers, in one sentence. */
export const VERDICT_MEANING: Record<VerdictKind, string> = {
  clean: 'neither the client nor the harness was saturated',
  'client-bound': "the client's own process was saturated: its qps is a property of the client on this machine",
  'harness-bound': 'the fake or the machine limited the cell: its numbers are not about the client and must not be compared',
  'configuration-bound': "a limit of the cell's own configuration (streams per connection, think time) held it at its ceiling: the client's real behaviour, compared like clean",
};

/** The worst of several cells' verdicts (repeats of one entry): harness-bound over client-bound over configuration-bound over clean. */
export function worstVerdict(kinds: (VerdictKind | null | undefined)[]): VerdictKind {
  return kinds.reduce<VerdictKind>((w, k) => (k && SEVERITY.indexOf(k) > SEVERITY.indexOf(w) ? k : w), 'clean');
}

/** The mark tables put after a number: `*` client-bound, `!` harness-bound, `~` configuration-bound. */
export const VERDICT_MARK: Record<VerdictKind, string> = { clean: '', 'client-bound': '*', 'harness-bound': '!', 'configuration-bound': '~' };

/** The legend line for the marks present, for tables and Markdown. */
export function verdictLegend(kinds: VerdictKind[]): string {
  return (['configuration-bound', 'client-bound', 'harness-bound'] as const)
    .filter((k) => kinds.includes(k))
    .map((k) => `\`${VERDICT_MARK[k]}\` ${k}: ${VERDICT_MEANING[k]}.`)
    .join(' ');
}
