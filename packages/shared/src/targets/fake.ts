import { z } from 'zod';
import { formatMs } from '../format';
import { FakeConfigSchema } from '../job/fake-config';
import type { TargetKind } from './kind';
import { describeNetwork, NetworkSchema } from './network';

/** The fake's behaviour besides the query latency; unset fields take the fake's defaults. */
export const FakeServerSchema = FakeConfigSchema.omit({ timeScale: true })
  .partial()
  .refine((s) => s.latency?.query === undefined, { message: 'set the query latency with target.latencyMs', path: ['latency', 'query'] });

export const FakeTargetSchema = z.strictObject({
  kind: z.literal('fake'),
  /** Server-side latency of every data RPC, before the time scale. */
  latencyMs: z.number().min(0).max(10_000).default(65),
  /**
   * The rest of the fake's behaviour: latency of other RPC kinds (session, commit...), faults,
   * schedules, connection age, accept delay, stream limit. The job's time scale applies to all of it.
   */
  server: FakeServerSchema.optional(),
  /**
   * Relay the cell through the connection tap, which times every RPC on the wire (request's last
   * frame to the answer's first): the fake's added time as the network sees it, its HTTP/2 framing and
   * socket reads and writes included, which the verdict then weighs instead of the fake's own clock.
   * The relay adds a fraction of a millisecond to every RPC.
   */
  measureOnWire: z.boolean().optional(),
  /** A network in front of the fake, played by the connection tap (targets/network.ts): for what a server cannot do to its own connections, such as a blackhole. */
  network: NetworkSchema.optional(),
});
export type FakeTarget = z.output<typeof FakeTargetSchema>;

const DEFAULT_SERVER = FakeServerSchema.parse({});

export const fakeTarget: TargetKind<FakeTarget> = {
  name: 'fake',
  title: 'fake Spanner',
  schema: FakeTargetSchema,
  // Every runner has it: it is part of the product.
  startedByRunner: () => true,
  modeledLatencyMs: (t, timeScale) => t.latencyMs * timeScale,
  // The fake starts on a worker thread in well under a second.
  estimate: { setupSeconds: 1, operationMs: 65 },
  // A target without `server` runs the fake's defaults: spell them out so both compare equal.
  normalize: (t) => ({ ...t, server: t.server ?? DEFAULT_SERVER }),
  streamLimit: (t) => t.server?.maxConcurrentStreams ?? DEFAULT_SERVER.maxConcurrentStreams ?? 100,
  describe: (t, timeScale) => {
    const faults = t.server?.faults?.length ? `, ${t.server.faults.length} fault rule(s)` : '';
    const network = describeNetwork(t.network);
    return `fake Spanner, ${formatMs(t.latencyMs)} ms × time scale ${timeScale}${faults}${network ? `, behind a network of ${network}` : ''}`;
  },
};
