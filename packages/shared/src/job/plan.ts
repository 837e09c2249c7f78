import { configurationOn } from '../targets/index';
import { loadLevels, type Arm, type Client, type Configuration, type JobSpec } from './spec';

export interface CellPlan {
  index: number;
  client: Client;
  configuration: Configuration;
  /** The cell's load level: agents of a closed loop, or operations per second of an open one (the spec's arrivalRates). */
  concurrency: number;
  repeat: number;
  /** The gate arm, in a gate's job. */
  arm?: Arm;
}

/**
 * The cross product client x configuration x concurrency x repeat. Repeats are the outer loop so
 * that machine drift during a job spreads over every combination instead of hitting one.
 */
/** How many cells planCells makes, without making them: a limit is checked before any planning. */
export function cellCount(spec: {
  pairing?: JobSpec['pairing'];
  clients: readonly unknown[];
  configurations: readonly unknown[];
  concurrency?: number[];
  arrivalRates?: number[];
  repeats: number;
}): number {
  const perRepeat = spec.clients.length * loadLevels(spec).length * (spec.pairing === 'zip' ? 1 : spec.configurations.length);
  return perRepeat * spec.repeats;
}

export function planCells(spec: JobSpec): CellPlan[] {
  const cells: CellPlan[] = [];
  if (spec.pairing === 'zip') {
    // Arms alternate within each repeat and concurrency: baseline, candidate, baseline, candidate...
    for (let repeat = 1; repeat <= spec.repeats; repeat++)
      for (const concurrency of loadLevels(spec))
        spec.clients.forEach((client, i) =>
          cells.push({ index: cells.length, client, configuration: configurationOn(spec.target, client, spec.configurations[i]!), concurrency, repeat, arm: spec.arms?.[i] }),
        );
    return cells;
  }
  for (let repeat = 1; repeat <= spec.repeats; repeat++)
    for (const client of spec.clients)
      for (const concurrency of loadLevels(spec))
        for (const configuration of spec.configurations) cells.push({ index: cells.length, client, configuration: configurationOn(spec.target, client, configuration), concurrency, repeat });
  return cells;
}
