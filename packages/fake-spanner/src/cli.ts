// fake-spanner: a fake Cloud Spanner front end for client benchmarks and tests.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FakeConfigSchema, parseDurationMs, toFieldIssues } from '@scb/shared';
import { startAdmin } from './admin';
import { startFakeSpanner } from './server';

const USAGE = `usage: fake-spanner [options]
  --port N                    gRPC port (default 9010; 0 picks a free one)
  --host ADDR                 listen address (default 127.0.0.1)
  --admin-port N              HTTP admin API port (default gRPC port + 1; 0 picks a free one)
  --latency D                 server time of queries, reads, begins and commits (e.g. 65ms)
  --latency-p99 D             with --latency: a lognormal distribution with this p99
  --session-latency D         server time of CreateSession / BatchCreateSessions (e.g. 600ms)
  --commit-latency D          server time of Commit
  --time-scale X              multiplies every latency, schedule time and connection age
  --max-streams N             HTTP/2 MAX_CONCURRENT_STREAMS per connection (default 100)
  --max-connection-age D      send GOAWAY after this connection age (e.g. 60s)
  --max-connection-age-grace D  let calls finish this long after GOAWAY
  --accept-delay D            hold new connections back this long (slow reconnect)
  --abort-commits R           abort this share (0..1) of commits with ABORTED + RetryInfo
  --abort-retry-delay D       the RetryInfo delay for aborts (default 0)
  --config FILE               a JSON fake configuration (docs/fake-spanner.md); flags override it
Durations: 65ms, 1.5s, 2m, or a number of ms.`;

function fail(message: string): never {
  process.stderr.write(`fake-spanner: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function duration(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    return parseDurationMs(text);
  } catch (e) {
    fail(`--${name}: ${(e as Error).message}`);
  }
}

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) fail(`--${name}: "${text}" is not a number`);
  return n;
}

// biome-ignore lint/suspicious/noImplicitAnyLet: typed by parseArgs below; declared outside the try for the code after it
let args;
try {
  args = parseArgs({
    options: {
      ...Object.fromEntries(
        [
          'port',
          'host',
          'admin-port',
          'latency',
          'latency-p99',
          'session-latency',
          'commit-latency',
          'time-scale',
          'max-streams',
          'max-connection-age',
          'max-connection-age-grace',
          'accept-delay',
          'abort-commits',
          'abort-retry-delay',
          'config',
        ].map((k) => [k, { type: 'string' as const }]),
      ),
      help: { type: 'boolean' as const },
    },
    strict: true,
  }).values as Record<string, string | undefined> & { help?: boolean };
} catch (e) {
  fail((e as Error).message);
}
if (args.help) {
  process.stdout.write(USAGE + '\n');
  process.exit(0);
}

let base: Record<string, unknown> = {};
if (args.config) {
  try {
    base = JSON.parse(readFileSync(args.config, 'utf8'));
  } catch (e) {
    fail(`--config: ${(e as Error).message}`);
  }
}
const latency = { ...(base.latency as object) } as Record<string, unknown>;
const query = duration('latency', args.latency);
const p99 = duration('latency-p99', args['latency-p99']);
if (p99 !== undefined && query === undefined) fail('--latency-p99 needs --latency (the p50)');
if (query !== undefined) latency.query = p99 !== undefined ? { p50: query, p99 } : query;
if (args['session-latency']) latency.session = duration('session-latency', args['session-latency']);
if (args['commit-latency']) latency.commit = duration('commit-latency', args['commit-latency']);
const faults = [...((base.faults as object[]) ?? [])];
const abort = number('abort-commits', args['abort-commits']);
if (abort !== undefined) faults.push({ kind: 'commit', code: 'ABORTED', ratio: abort, retryDelayMs: duration('abort-retry-delay', args['abort-retry-delay']) ?? 0 });

const candidate = Object.fromEntries(
  Object.entries({
    ...base,
    latency,
    faults,
    timeScale: number('time-scale', args['time-scale']) ?? base.timeScale,
    maxConcurrentStreams: number('max-streams', args['max-streams']) ?? base.maxConcurrentStreams,
    maxConnectionAgeMs: duration('max-connection-age', args['max-connection-age']) ?? base.maxConnectionAgeMs,
    maxConnectionAgeGraceMs: duration('max-connection-age-grace', args['max-connection-age-grace']) ?? base.maxConnectionAgeGraceMs,
    acceptDelayMs: duration('accept-delay', args['accept-delay']) ?? base.acceptDelayMs,
  }).filter(([, v]) => v !== undefined),
);
const parsed = FakeConfigSchema.safeParse(candidate);
if (!parsed.success)
  fail(
    toFieldIssues(parsed.error)
      .map((i) => `${i.path}: ${i.message}`)
      .join('\n'),
  );

const port = number('port', args.port) ?? 9010;
const host = args.host ?? '127.0.0.1';
const fake = await startFakeSpanner({ ...parsed.data, host, port }).catch((e: Error) => fail(`cannot listen on ${host}:${port}: ${e.message}`));
const adminPort = number('admin-port', args['admin-port']) ?? (port === 0 ? 0 : fake.port + 1);
const admin = await startAdmin(fake, { host, port: adminPort }).catch((e: Error) => fail(`cannot listen on ${host}:${adminPort} for the admin API: ${e.message}`));
process.stdout.write(
  `fake-spanner listening on ${host}:${fake.port} (plaintext gRPC); admin API on http://${host}:${admin.port} (GET /stats, POST /reset, GET|PATCH /config)\n` +
    `  Node: SPANNER_EMULATOR_HOST=${host}:${fake.port}   Java: setEmulatorHost("${host}:${fake.port}")\n`,
);
const stop = async () => {
  await admin.stop();
  await fake.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
