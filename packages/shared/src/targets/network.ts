import { z } from 'zod';
import { formatMs } from '../format';

/**
 * The network and front end the connection tap stands for in front of a plaintext target that has
 * neither (the emulator): what the fake does itself. Milliseconds before the job's time scale.
 */
export const NetworkSchema = z.strictObject({
  /** Added in each direction: a round trip gains twice this. */
  oneWayLatencyMs: z.number().min(0).max(10_000).optional(),
  /** Each connection is reset at this age (the Mercari write-up's hourly reconnects, time-scaled). */
  maxConnectionAgeMs: z.number().min(100).max(86_400_000).optional(),
  /** A new connection reaches the target only after this long (a slow reconnect). */
  acceptDelayMs: z.number().min(0).max(60_000).optional(),
  /** Announced in the target's SETTINGS, as Spanner's front end announces 100 streams per connection. */
  maxConcurrentStreams: z.number().int().min(1).max(100_000).optional(),
  /**
   * This long after the measured phase begins, every connection open then goes silent: the tap stops
   * forwarding both ways and never closes it (a dropped NAT or load balancer entry). Connections opened
   * later pass. Only a client's keepalive, or an RPC deadline, finds out.
   */
  blackholeAtMs: z.number().min(0).max(86_400_000).optional(),
  /**
   * This long after the measured phase begins, the client of every connection open then is told the
   * server is going away (GOAWAY, no error), in the middle of the streams in flight, which the server
   * still finishes; a client opens a new connection for its next calls.
   */
  goawayAtMs: z.number().min(0).max(86_400_000).optional(),
});
export type Network = z.output<typeof NetworkSchema>;

/** The network in words, e.g. "+5 ms each way, 100 streams per connection"; empty when it does nothing. */
export function describeNetwork(n: Network | undefined): string {
  if (!n) return '';
  const parts = [
    n.oneWayLatencyMs ? `+${formatMs(n.oneWayLatencyMs)} ms each way` : '',
    n.maxConnectionAgeMs ? `connections reset at ${formatMs(n.maxConnectionAgeMs)} ms` : '',
    n.acceptDelayMs ? `${formatMs(n.acceptDelayMs)} ms accept delay` : '',
    n.maxConcurrentStreams ? `${n.maxConcurrentStreams} streams per connection` : '',
    n.blackholeAtMs !== undefined ? `connections silent from ${formatMs(n.blackholeAtMs)} ms into the measurement` : '',
    n.goawayAtMs !== undefined ? `GOAWAY mid-stream ${formatMs(n.goawayAtMs)} ms into the measurement` : '',
  ];
  return parts.filter(Boolean).join(', ');
}
