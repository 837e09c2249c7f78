import { type EmulatorTarget, PLAYERS } from '@scb/shared';
import { emulatorVersion, findEmulatorBinary, missingEmulatorMessage } from './binary';
import { startEmulatorProcess } from './process';
import { provision } from './provision';
import { watchProcessCpu } from '../process-cpu';
import { startTap, tapBehaviour, type TapBehaviour } from '../tap';
import { TargetError, type StartedTarget, type TargetPlugin } from '@scb/shared/target-plugin';

const NAMES = { projectId: 'bench-project', instanceId: 'bench-instance', databaseId: 'bench-db' };

/**
 * The official Cloud Spanner emulator: a fresh process per cell (no session of an earlier cell
 * survives), or the user's own at `emulatorHost`, provisioned through the admin API before the driver runs
 * (a `scan` workload's table too, filled with the generated rows: seconds for 100,000 rows).
 * The driver reaches it through the connection tap, which counts its RPCs per connection.
 */
export const runner: TargetPlugin<EmulatorTarget> = {
  kind: 'emulator',
  available: () => findEmulatorBinary() !== null,
  version: () => emulatorVersion(),
  async start(target, spec) {
    const behaviour = tapBehaviour(target.network, spec.timeScale);
    if (target.emulatorHost) {
      const at = target.emulatorHost.lastIndexOf(':');
      const host = target.emulatorHost.slice(0, at);
      const port = Number(target.emulatorHost.slice(at + 1));
      await provision(host, port, NAMES, PLAYERS, spec.workload.resultSet).catch((e: Error) => {
        throw new TargetError(`the emulator at ${target.emulatorHost} could not be provisioned: ${e.message}`);
      });
      return tapped(host, port, behaviour, undefined, async () => {});
    }
    const binary = findEmulatorBinary();
    if (!binary) throw new TargetError(missingEmulatorMessage());
    const proc = await startEmulatorProcess(binary);
    try {
      await provision('127.0.0.1', proc.port, NAMES, PLAYERS, spec.workload.resultSet);
    } catch (e) {
      await proc.stop();
      throw new TargetError(`the emulator could not be provisioned: ${(e as Error).message}`);
    }
    return tapped('127.0.0.1', proc.port, behaviour, proc.pid, proc.stop);
  },
};

/** The emulator behind the tap; where it is our child (`pid`), its CPU while the cell measures. */
async function tapped(host: string, port: number, behaviour: TapBehaviour, pid: number | undefined, stopUpstream: () => Promise<void>): Promise<StartedTarget> {
  const tap = await startTap({ host, port }, behaviour);
  let cpu: ReturnType<typeof watchProcessCpu> | undefined;
  return {
    endpoint: { host: tap.host, port: tap.port, security: 'plaintext' },
    database: NAMES,
    markMeasuring: async () => {
      tap.markMeasuring();
      if (pid !== undefined) cpu = watchProcessCpu(pid);
    },
    stats: async () => ({ channels: tap.stats(), added: null, load: null, cpuShare: cpu?.end() ?? null, events: tap.events(), wireBytes: tap.wireBytes() }),
    async stop() {
      await tap.stop();
      await stopUpstream();
    },
  };
}
