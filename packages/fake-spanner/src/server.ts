import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Accounting, type FakeStats } from './accounting';
import { spannerService } from './proto';
import { StatementRegistry, toPartialResultSet, toResultSet } from './statements';

export interface FakeSpannerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Server time of data RPCs (queries, reads, commits), in ms. */
  latencyMs?: number;
  /** Server time of session RPCs (CreateSession, BatchCreateSessions), in ms. */
  sessionLatencyMs?: number;
  /** HTTP/2 MAX_CONCURRENT_STREAMS per connection, as Spanner's front end (100). */
  maxConcurrentStreams?: number;
}

export interface FakeSpanner {
  host: string;
  port: number;
  statements: StatementRegistry;
  stats(): FakeStats;
  resetStats(): void;
  stop(): Promise<void>;
}

type Call = grpc.ServerUnaryCall<any, any> | grpc.ServerWritableStream<any, any>;

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

function serverError(code: grpc.status, details: string): grpc.ServiceError {
  return Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
}

/** Starts a fake google.spanner.v1.Spanner server on plaintext HTTP/2. */
export async function startFakeSpanner(opts: FakeSpannerOptions = {}): Promise<FakeSpanner> {
  const host = opts.host ?? '127.0.0.1';
  const latencyMs = opts.latencyMs ?? 0;
  const sessionLatencyMs = opts.sessionLatencyMs ?? 0;
  const accounting = new Accounting();
  const statements = new StatementRegistry();
  let sessionSeq = 0;

  const newSession = (database: string, multiplexed: boolean) => ({
    name: `${database}/sessions/${(++sessionSeq).toString(36)}${randomBytes(6).toString('hex')}`,
    multiplexed,
    createTime: { seconds: String(Math.floor(Date.now() / 1000)), nanos: 0 },
  });

  // server-timing lets a client or the runner split server time from client time.
  function timing(call: Call, ms: number): void {
    const md = new grpc.Metadata();
    md.set('server-timing', `gfet4t7; dur=${Math.round(ms)}`);
    call.sendMetadata(md);
  }

  /** Wraps a unary handler with accounting, latency and error mapping. */
  function unary(method: string, delayMs: number, body: (req: any) => object) {
    return async (call: grpc.ServerUnaryCall<any, any>, cb: grpc.sendUnaryData<any>) => {
      const end = accounting.begin(call.getPeer(), method);
      call.on('cancelled', end);
      try {
        await sleep(delayMs);
        const res = body(call.request);
        timing(call, delayMs);
        cb(null, res);
      } catch (e) {
        cb(e as grpc.ServiceError);
      } finally {
        end();
      }
    };
  }

  function streaming(method: string, delayMs: number, body: (req: any) => object[]) {
    return async (call: grpc.ServerWritableStream<any, any>) => {
      const end = accounting.begin(call.getPeer(), method);
      call.on('cancelled', end);
      try {
        await sleep(delayMs);
        const parts = body(call.request);
        timing(call, delayMs);
        for (const p of parts) call.write(p);
        call.end();
      } catch (e) {
        call.emit('error', e as grpc.ServiceError);
      } finally {
        end();
      }
    };
  }

  function lookup(sql: string) {
    const r = statements.get(sql ?? '');
    if (!r) throw serverError(grpc.status.INVALID_ARGUMENT, `fake-spanner: unknown statement: ${sql}`);
    return r;
  }

  const handlers: grpc.UntypedServiceImplementation = {
    CreateSession: unary('CreateSession', sessionLatencyMs, (req) => newSession(req.database, Boolean(req.session?.multiplexed))),
    BatchCreateSessions: unary('BatchCreateSessions', sessionLatencyMs, (req) => ({
      session: Array.from({ length: Math.max(1, Number(req.sessionCount ?? 1)) }, () => newSession(req.database, false)),
    })),
    GetSession: unary('GetSession', 0, (req) => ({ name: req.name })),
    DeleteSession: unary('DeleteSession', 0, () => ({})),
    ExecuteSql: unary('ExecuteSql', latencyMs, (req) => toResultSet(lookup(req.sql))),
    ExecuteStreamingSql: streaming('ExecuteStreamingSql', latencyMs, (req) => [toPartialResultSet(lookup(req.sql))]),
  };

  const server = new grpc.Server({ 'grpc.max_concurrent_streams': opts.maxConcurrentStreams ?? 100 });
  server.addService(spannerService(), handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${opts.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );

  return {
    host,
    port,
    statements,
    stats: () => accounting.snapshot(),
    resetStats: () => accounting.reset(),
    stop: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => { server.forceShutdown(); resolve(); }, 2000);
        server.tryShutdown(() => { clearTimeout(force); resolve(); });
      }),
  };
}
