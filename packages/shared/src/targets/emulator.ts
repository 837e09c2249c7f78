import { z } from 'zod';
import { emulatorHostAllowed, RULES } from '../policy/rules';
import type { TargetClient, TargetConfiguration, TargetKind } from './kind';
import { describeNetwork, NetworkSchema } from './network';

export const EmulatorTargetSchema = z.strictObject({
  kind: z.literal('emulator'),
  /**
   * host:port of an emulator the user already runs (its instance and database are created if missing
   * and reused). Unset: the runner starts a fresh emulator per cell, so no session of an earlier cell survives.
   */
  emulatorHost: z
    .string()
    .refine((h) => /^[A-Za-z0-9.-]+:\d{1,5}$/.test(h) && Number(h.split(':').pop()) <= 65_535, 'must be host:port with a port up to 65535, e.g. 127.0.0.1:9010')
    .optional(),
  /** What the connection tap adds in front of the emulator: latency, connection resets, accept delay, a stream limit. */
  network: NetworkSchema.optional(),
});
export type EmulatorTarget = z.output<typeof EmulatorTargetSchema>;

// The emulator answers a multiplexed CreateSession with a regular session; Node clients in
// multiplexed mode then fail every query with "Unable to release unknown resource".
const NODE_MULTIPLEXED = 'the Cloud Spanner emulator hands out no multiplexed session and Node clients in multiplexed mode fail on it: leave multiplexedSessions unset (it runs false) or false';

export const emulatorTarget: TargetKind<EmulatorTarget> = {
  name: 'emulator',
  title: 'Cloud Spanner emulator',
  schema: EmulatorTargetSchema,
  // The user's own emulator (emulatorHost) needs no binary on the runner.
  startedByRunner: (t) => !t.emulatorHost,
  policyIssues: (t, policy) => (t.emulatorHost && !emulatorHostAllowed(policy, t.emulatorHost) ? [{ field: 'emulatorHost', message: RULES.emulatorHost }] : []),
  // The emulator is CPU-bound, not a latency model: there is no ideal line.
  modeledLatencyMs: () => null,
  // A fresh emulator per cell: its start and the instance, database and table it is given.
  estimate: { setupSeconds: 10, operationMs: 5 },
  normalize: (t) => t,
  // The emulator advertises no MAX_CONCURRENT_STREAMS; the tap can.
  streamLimit: (t) => t.network?.maxConcurrentStreams ?? null,
  describe: (t, timeScale) => {
    const where = t.emulatorHost ? `Cloud Spanner emulator at ${t.emulatorHost}` : 'Cloud Spanner emulator, fresh per cell';
    const network = describeNetwork(t.network);
    return network ? `${where}, behind a network of ${network}${timeScale !== 1 ? ` × time scale ${timeScale}` : ''}` : where;
  },
  refuse: (client: TargetClient, configuration: TargetConfiguration) =>
    client.language === 'node' && configuration.multiplexedSessions === true ? { option: 'multiplexedSessions', message: NODE_MULTIPLEXED } : null,
  adjust: (client, configuration) => (client.language === 'node' && configuration.multiplexedSessions === undefined ? { ...configuration, multiplexedSessions: false } : configuration),
};
