import { z } from 'zod';
import { commaList, hostPortList, isLoopbackHost, targetPolicy, type Policy } from '@scb/shared/policy-rules';
import type { TargetClient, TargetConfiguration, TargetForm, TargetKind, TargetPolicy } from '@scb/shared/target-kind';
import { describeNetwork, NetworkSchema } from '@scb/shared/network';

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

/** Ports from `from` to `to`, both included. */
export interface PortRange {
  from: number;
  to: number;
}

/** The operator's rules for emulators a spec names (its part of Policy.targets). */
export interface EmulatorPolicy {
  /** host:port of emulators a spec may name besides loopback ones. */
  hosts: string[];
  /** Loopback ports a spec's emulatorHost may name (127.0.0.1:<port>, localhost:<port>); empty: none. */
  ports: PortRange[];
}

/** The variables the emulator rules are read from. */
export const EMULATOR_POLICY_VARIABLES = { hosts: 'SCB_EMULATOR_HOSTS', ports: 'SCB_EMULATOR_PORTS' } as const;
const V = EMULATOR_POLICY_VARIABLES;
const PORTS = /^(\d{1,5})(?:-(\d{1,5}))?$/;

/** The message names the rule and the variables, never the refused host itself. */
export const EMULATOR_HOST_RULE = `an emulator host must be on loopback (127.0.0.1, localhost) at a port this server's operator lists in ${V.ports}, or listed in ${V.hosts} (see /settings)`;

/**
 * Listed in SCB_EMULATOR_HOSTS, or on loopback at a port SCB_EMULATOR_PORTS lists: any loopback port
 * would let a spec probe the runner's own services (its PostgreSQL, a metadata proxy).
 */
export function emulatorHostAllowed(policy: Policy, hostPort: string): boolean {
  const rules = targetPolicy<EmulatorPolicy>(policy, 'emulator') ?? { hosts: [], ports: [] };
  const at = hostPort.lastIndexOf(':');
  const port = Number(hostPort.slice(at + 1));
  if (rules.hosts.includes(hostPort.toLowerCase())) return true;
  return isLoopbackHost(hostPort.slice(0, at)) && rules.ports.some((r) => port >= r.from && port <= r.to);
}

const emulatorPolicy: TargetPolicy<EmulatorPolicy> = {
  title: 'Cloud Spanner emulator',
  variables: EMULATOR_POLICY_VARIABLES,
  read(env) {
    const hosts = hostPortList(env, V.hosts);
    if (!hosts.ok) return hosts;
    if (hosts.entries.some((e) => e.includes('*'))) return { ok: false, error: `${V.hosts}: list exact host:port entries, without *` };
    const ports: PortRange[] = [];
    for (const entry of commaList(env[V.ports])) {
      const m = PORTS.exec(entry);
      const from = Number(m?.[1]);
      const to = Number(m?.[2] ?? m?.[1]);
      if (!m || from < 1 || to > 65_535 || from > to) return { ok: false, error: `${V.ports}: "${entry}" is not a port or a range of ports (9010, 9010-9020; 1 to 65535)` };
      ports.push({ from, to });
    }
    return { ok: true, value: { hosts: hosts.entries, ports } };
  },
  settings: (p) => [
    { term: `emulator hosts (${V.hosts})`, value: p.hosts.length ? p.hosts.join(', ') : 'none' },
    {
      term: `loopback ports (${V.ports})`,
      value: p.ports.length
        ? `127.0.0.1 and localhost at ${p.ports.map((r) => (r.from === r.to ? r.from : `${r.from}-${r.to}`)).join(', ')}`
        : 'none: a loopback emulator is refused (a fresh emulator per cell needs no emulatorHost)',
    },
  ],
};

// The emulator answers a multiplexed CreateSession with a regular session; Node clients in
// multiplexed mode then fail every query with "Unable to release unknown resource".
const NODE_MULTIPLEXED = 'the Cloud Spanner emulator hands out no multiplexed session and Node clients in multiplexed mode fail on it: leave multiplexedSessions unset (it runs false) or false';

/** host:port of an emulator already running; empty starts a fresh one per cell. */
const emulatorForm: TargetForm<{ emulatorHost: string }> = {
  option: 'Cloud Spanner emulator',
  hint: 'A fresh emulator per cell, provisioned by the runner; it is CPU-bound (about 3 ms of CPU per query: near 300 queries per second on a 2-core machine), not a latency model. Node cells run with regular sessions.',
  initial: { emulatorHost: '' },
  read: (t) => ({ emulatorHost: typeof t.emulatorHost === 'string' ? t.emulatorHost : '' }),
  write: (s) => ({ kind: 'emulator', ...(s.emulatorHost.trim() ? { emulatorHost: s.emulatorHost.trim() } : {}) }),
  fields: [{ key: 'emulatorHost', label: 'Emulator host:port', type: 'text', placeholder: 'empty: a fresh emulator per cell' }],
};

export const emulatorTarget: TargetKind<EmulatorTarget> = {
  form: emulatorForm,
  name: 'emulator',
  title: 'Cloud Spanner emulator',
  schema: EmulatorTargetSchema,
  // The user's own emulator (emulatorHost) needs no binary on the runner.
  startedByRunner: (t) => !t.emulatorHost,
  policy: emulatorPolicy,
  policyIssues: (t, policy) => (t.emulatorHost && !emulatorHostAllowed(policy, t.emulatorHost) ? [{ field: 'emulatorHost', message: EMULATOR_HOST_RULE }] : []),
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
