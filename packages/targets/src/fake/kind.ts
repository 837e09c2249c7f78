import { z } from 'zod';
import { formatMs } from '@scb/shared/format';
import { FakeConfigSchema } from '@scb/shared/fake-config';
import { compareSemver } from '@scb/shared/semver';
import type { TargetClient, TargetForm, TargetKind } from '@scb/shared/target-kind';
import { describeNetwork, NetworkSchema } from '@scb/shared/network';

/** The fake's behaviour besides the query latency; unset fields take the fake's defaults. */
export const FakeServerSchema = FakeConfigSchema.omit({ timeScale: true })
  .partial()
  .refine((s) => s.latency?.query === undefined, { message: 'set the query latency with target.latencyMs', path: ['latency', 'query'] });

export const FakeTargetSchema = z
  .strictObject({
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
    /**
     * Credentials mode: the fake serves TLS with a certificate from a CA made for the cell, and refuses
     * every RPC without a valid bearer token; tokens come from a GCE metadata server made for the cell,
     * which the client's own credential code finds through GCE_METADATA_HOST. Durations before the time scale.
     */
    credentials: z
      .strictObject({
        /** How long each token lives. */
        tokenLifetimeMs: z.number().min(1000, 'must be at least 1000').max(86_400_000).default(3_600_000),
        /** How long the metadata server takes to answer a token request. */
        tokenDelayMs: z.number().min(0).max(120_000).default(0),
        /** The first N token requests fail (HTTP 500). */
        tokenFailures: z.number().int().min(0).max(1000).default(0),
        /** No metadata server: GCE_METADATA_HOST names a port nothing listens on. */
        unreachable: z.boolean().optional(),
      })
      .optional(),
    /**
     * The fake's host name resolves through a DNS server made for the cell, which answers each lookup
     * after `lookupDelayMs` (before the time scale): the client gets a dns://<server>/<name>:<port> target,
     * so its own gRPC resolver asks that server when it starts and whenever it resolves again. Go and
     * Node (grpc-js 1.11.0 on) follow such a target; grpc-java's resolver ignores the server it names.
     */
    dns: z.strictObject({ lookupDelayMs: z.number().min(0).max(60_000).default(0) }).optional(),
  })
  .superRefine((t, ctx) => {
    // The tap reads HTTP/2 frames, which TLS hides.
    if (t.credentials && (t.network || t.measureOnWire))
      ctx.addIssue({ code: 'custom', path: ['credentials'], message: 'cannot go with a network or measureOnWire: the tap reads HTTP/2 frames, which TLS hides' });
  });
export type FakeTarget = z.output<typeof FakeTargetSchema>;

const DEFAULT_SERVER = FakeServerSchema.parse({});

/** The target of a spec that names none, and the launch form's first: the fake answering every query in 65 ms. */
export const DEFAULT_TARGET = { kind: 'fake', latencyMs: 65 } as const satisfies Pick<FakeTarget, 'kind' | 'latencyMs'>;

/** The fake's latency per query on the launch form; the rest of its behaviour is a preset's or the JSON's. */
const fakeForm: TargetForm<{ latencyMs: number }> = {
  option: 'fake Spanner (bundled, latency model)',
  initial: { latencyMs: DEFAULT_TARGET.latencyMs },
  read: (t) => ({ latencyMs: typeof t.latencyMs === 'number' ? t.latencyMs : DEFAULT_TARGET.latencyMs }),
  write: (s) => ({ kind: 'fake', latencyMs: s.latencyMs }),
  fields: [{ key: 'latencyMs', label: 'Fake server latency (ms)', type: 'number', min: 0, step: 'any' }],
};

export const fakeTarget: TargetKind<FakeTarget> = {
  name: 'fake',
  title: 'fake Spanner',
  form: fakeForm,
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
    const credentials = t.credentials ? `, TLS and tokens living ${formatMs(t.credentials.tokenLifetimeMs)} ms` : '';
    const dns = t.dns ? `, its name resolved through a DNS server answering in ${formatMs(t.dns.lookupDelayMs)} ms` : '';
    return `fake Spanner, ${formatMs(t.latencyMs)} ms × time scale ${timeScale}${faults}${credentials}${dns}${network ? `, behind a network of ${network}` : ''}`;
  },
  refuseClient: (t, client) => (t.dns ? dnsRefusal(client) : null),
};

/** The first grpc-js whose DNS resolver asks the server a dns:// target names (with GRPC_NODE_USE_ALTERNATIVE_RESOLVER=true). */
export const GRPC_JS_DNS_AUTHORITY = '1.11.0';

/** Why a client cannot resolve through the cell's DNS server: its gRPC resolver would ask the system's. */
function dnsRefusal(client: TargetClient): string | null {
  if (client.language === 'java')
    return `java ${client.version} cannot resolve through target.dns: grpc-java's DNS resolver ignores the DNS server a dns:// target names and asks the system's (grpc-java #1140)`;
  if (client.language === 'node' && client.grpcVersion && compareSemver(client.grpcVersion, GRPC_JS_DNS_AUTHORITY) < 0)
    return `node ${client.version} on grpc-js ${client.grpcVersion} cannot resolve through target.dns: grpc-js asks the DNS server a dns:// target names from ${GRPC_JS_DNS_AUTHORITY} on`;
  return null;
}
