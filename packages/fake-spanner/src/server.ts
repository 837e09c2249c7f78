import type http2 from 'node:http2';
import type net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { FakeConfigSchema, type FakeBehaviour, type FakeConfig, type FakeConfigInput } from '@scb/shared';
import { Accounting, type FakeStats } from './accounting';
import { Behaviour } from './behaviour';
import { spannerService } from './proto';
import { spannerHandlers } from './service';
import { defaultStatements, type StatementRegistry } from './statements';
import { leaderboardStore, type Store } from './store';
import { ResultSets } from './result-sets';
import { ResultSetSchema, type ResultSet } from '@scb/shared/result-set';
import { StatementParamError } from './statements';

type ResultSetInput = Parameters<typeof ResultSetSchema.parse>[0] & Partial<ResultSet>;

/** A scan's query asked for in one message (ExecuteSql): clients stream queries, so the fake answers only that way. */
const streamedOnly = (): never => {
  throw new StatementParamError('fake-spanner: a scan result is answered by ExecuteStreamingSql only');
};

export interface FakeSpannerOptions extends FakeConfigInput {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Shorthand for `latency.query`, which reads, begins, commits and batch DML also take unless set. */
  latencyMs?: number;
  /** Serve TLS with this certificate chain and key (PEM) instead of plaintext: real Spanner's path. */
  tls?: { certChain: string; privateKey: string };
  /** Credentials mode: refuse (UNAUTHENTICATED) and count every RPC without a valid token issued under this secret. */
  tokenSecret?: string;
  /** The `scan` results it answers (a job's workload.resultSet): each by its query, streamed in chunks (result-sets.ts). */
  resultSets?: ResultSetInput[];
}

export interface FakeSpanner {
  host: string;
  port: number;
  config(): FakeConfig;
  /** Changes latency, faults, schedule, accept delay or time scale while running. */
  update(next: FakeBehaviour): void;
  statements: StatementRegistry;
  store: Store;
  stats(): FakeStats;
  /** Forgets the stats and restarts the schedule's clock. */
  resetStats(): void;
  /** The measured phase begins: the server's time per operation counts from here. */
  markMeasuring(): void;
  stop(): Promise<void>;
}

/** Starts a fake google.spanner.v1.Spanner server on plaintext HTTP/2, or TLS with `tls`. */
export async function startFakeSpanner(opts: FakeSpannerOptions = {}): Promise<FakeSpanner> {
  const { host = '127.0.0.1', port: wantedPort = 0, latencyMs, tls, tokenSecret, resultSets: shapes = [], ...input } = opts;
  let config = FakeConfigSchema.parse(latencyMs === undefined ? input : { ...input, latency: { query: latencyMs, ...input.latency } });
  const accounting = new Accounting();
  const behaviour = new Behaviour(config);
  const statements = defaultStatements();
  const store = leaderboardStore(config.seedPlayers);
  const resultSets = new ResultSets(config.corruptResultSetPart);
  for (const shape of shapes) statements.put(resultSets.add(ResultSetSchema.parse(shape)), streamedOnly, 'scan');

  const scale = config.timeScale;
  const server = new grpc.Server({
    'grpc.max_concurrent_streams': config.maxConcurrentStreams,
    ...(config.maxConnectionAgeMs !== undefined ? { 'grpc.max_connection_age_ms': Math.round(config.maxConnectionAgeMs * scale) } : {}),
    ...(config.maxConnectionAgeGraceMs !== undefined ? { 'grpc.max_connection_age_grace_ms': Math.round(config.maxConnectionAgeGraceMs * scale) } : {}),
  });
  server.addService(spannerService(), spannerHandlers({ accounting, behaviour, statements, store, resultSets, tokenSecret }));
  const credentials = tls ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(tls.certChain), private_key: Buffer.from(tls.privateKey) }]) : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(`${host}:${wantedPort}`, credentials, (err, p) => (err ? reject(err) : resolve(p))));
  for (const h2 of http2ServersOf(server)) watchConnections(h2, accounting, () => behaviour.settings.acceptDelayMs * behaviour.settings.timeScale);

  return {
    host,
    port,
    config: () => config,
    update(next) {
      // The behaviour in force is replaced whole, its optional settings included.
      const { holdTrailersMs: _held, ...rest } = config;
      config = { ...rest, ...next };
      behaviour.replace(config);
    },
    statements,
    store,
    stats() {
      const s = accounting.snapshot();
      return { ...s, schedule: behaviour.scheduleChanges().map((c) => ({ atMs: c.atEpochMs - s.since, text: c.text })) };
    },
    resetStats() {
      accounting.reset();
      behaviour.restartClock();
    },
    markMeasuring: () => accounting.markMeasuring(),
    stop: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

// grpc-js keeps its HTTP/2 servers private; connection events and the accept delay need them.
function http2ServersOf(server: grpc.Server): http2.Http2Server[] {
  const map = (server as unknown as { http2Servers?: Map<http2.Http2Server, unknown> }).http2Servers;
  if (!(map instanceof Map)) throw new Error('fake-spanner: this @grpc/grpc-js version hides its HTTP/2 servers; pin the tested version');
  return [...map.keys()];
}

/**
 * Records when client connections open and close, and holds each new connection back for the
 * accept delay before grpc-js sees it (the client waits for the server's HTTP/2 settings meanwhile).
 */
function watchConnections(h2: http2.Http2Server, accounting: Accounting, acceptDelayMs: () => number): void {
  const grpcListeners = h2.listeners('connection') as ((s: net.Socket) => void)[];
  h2.removeAllListeners('connection');
  h2.on('connection', (socket: net.Socket) => {
    // A reply is several small writes (headers, data, trailers): Nagle would hold them back.
    socket.setNoDelay(true);
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    const handOver = () => {
      if (socket.destroyed) return;
      accounting.connectionOpened(peer, socket);
      socket.once('close', () => accounting.connectionClosed(peer, socket));
      for (const l of grpcListeners) l.call(h2, socket);
    };
    const delay = acceptDelayMs();
    if (delay > 0) setTimeout(handOver, delay);
    else handOver();
  });
}
