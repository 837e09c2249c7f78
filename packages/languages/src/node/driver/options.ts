import { compareSemver, GRPC_JS_DNS_AUTHORITY, type DriverCell } from '@scb/shared';

/** A configuration option this client or version does not have: the cell fails with this message. */
export class UnsupportedOption extends Error {
  constructor(option: string, cell: DriverCell, why = '') {
    super(`option ${option} is not supported by ${cell.client.language} ${cell.client.version}${why ? ` (${why})` : ''}`);
  }
}

/** What the Node driver loads from the client version's own dependency tree. */
export interface NodeClientDeps {
  grpc: { credentials: { createInsecure(): unknown } };
  /** The version of that grpc-js, where its package.json could be read. */
  grpcVersion?: string;
  /** grpc-gcp bound to that grpc, and the client's bundled spanner_grpc_config.json. */
  grpcGcp?: { createGcpApiConfig(config: object): unknown };
  gcpConfig?: { channelPool?: { maxSize?: number } };
}

export interface NodeClientSetup {
  clientOptions: Record<string, unknown>;
  /** Second argument of instance.database(): the session pool options. */
  poolOptions?: { min?: number; max?: number; maxIdle?: number };
  /** Read by the client when the database object is made (multiplexed session switches). */
  env: Record<string, string>;
}

/** Maps one configuration onto @google-cloud/spanner's options; throws UnsupportedOption. */
export function nodeClientSetup(cell: DriverCell, deps: NodeClientDeps): NodeClientSetup {
  const c = cell.configuration;
  const { resolver } = cell.endpoint;
  if (resolver && (!deps.grpcVersion || compareSemver(deps.grpcVersion, GRPC_JS_DNS_AUTHORITY) < 0))
    throw new UnsupportedOption(
      'target.dns',
      cell,
      `its grpc-js ${deps.grpcVersion ?? '(version unknown)'} asks the system's resolver; it follows the DNS server of a dns:// target from ${GRPC_JS_DNS_AUTHORITY} on`,
    );
  const clientOptions: Record<string, unknown> = {
    projectId: cell.database.projectId,
    // google-gax appends ":port": grpc-js then parses dns://<server>/<name>:<port>.
    servicePath: resolver ? `dns://${resolver.server}/${resolver.name}` : cell.endpoint.host,
    port: cell.endpoint.port,
  };
  // Plaintext goes without credentials; TLS takes the Application Default Credentials (google-gax's
  // own path when no sslCreds are given).
  if (cell.endpoint.security === 'plaintext') clientOptions.sslCreds = deps.grpc.credentials.createInsecure();
  // grpc-gcp is always on in the Node client; these three options set to undefined turn it off
  // (then the client uses a single HTTP/2 connection).
  if (c.grpcGcp === 'off') {
    clientOptions['grpc.callInvocationTransformer'] = undefined;
    clientOptions['grpc.channelFactoryOverride'] = undefined;
    clientOptions['grpc.gcpApiConfig'] = undefined;
  }
  if (c.numChannels !== undefined) {
    if (c.grpcGcp === 'off') throw new UnsupportedOption('numChannels', cell, "the channel pool is grpc-gcp's: turn grpc-gcp on or leave numChannels unset");
    if (!deps.grpcGcp || !deps.gcpConfig?.channelPool) throw new UnsupportedOption('numChannels', cell, 'no grpc-gcp channel pool config found');
    const config = structuredClone(deps.gcpConfig);
    config.channelPool!.maxSize = c.numChannels;
    clientOptions['grpc.gcpApiConfig'] = deps.grpcGcp.createGcpApiConfig(config);
  }
  if (c.dynamicChannelPool !== undefined) throw new UnsupportedOption('dynamicChannelPool', cell, 'a Java client option');
  if (c.decodeMode !== undefined) throw new UnsupportedOption('decodeMode', cell, 'a Java client option');
  if (c.goJsonUseNumber !== undefined) throw new UnsupportedOption('goJsonUseNumber', cell, 'a Go client option');

  const env: Record<string, string> = {};
  if (c.multiplexedSessions !== undefined) {
    // Environment switches only: 7.x turns them on with 'true', 8.x+ off with 'false'.
    const v = String(c.multiplexedSessions);
    env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS = v;
    env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_PARTITIONED_OPS = v;
    env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW = v;
  }
  let poolOptions: NodeClientSetup['poolOptions'];
  if (c.sessionPool) {
    if (c.sessionPool.writeSessionsFraction !== undefined) throw new UnsupportedOption('sessionPool.writeSessionsFraction', cell, 'the Node pool ignores its "writes" option');
    // Only what is set: the pool merges its options over its defaults, an undefined would win.
    const { minSessions: min, maxSessions: max, maxIdle } = c.sessionPool;
    poolOptions = Object.fromEntries(Object.entries({ min, max, maxIdle }).filter(([, v]) => v !== undefined));
    if (poolOptions.min !== undefined && poolOptions.max !== undefined && poolOptions.min > poolOptions.max) {
      throw new UnsupportedOption('sessionPool', cell, 'minSessions is larger than maxSessions');
    }
  }
  return { clientOptions, poolOptions, env };
}
