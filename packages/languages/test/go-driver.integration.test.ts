// The Go client end to end: versions from the Go module proxy, one build per client version (and
// per grpc-go pin) into the client cache, one driver process per cell against the bundled fake.
// Needs the go command and the Go module proxy; cold builds take one to three minutes each.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startFakeSpanner } from '@scb/fake-spanner';
import { decodeHistogram, type Client, type Configuration, type DriverCell } from '@scb/shared';
import { CellError, runDriver } from '../../../apps/runner/src/cell';
import { CACHE_DIR } from '../../../apps/runner/src/paths';
import { ClientInstallError, installContext, publishedVersions } from '../src/index';
import { ensureGoClient, goEnv } from '../src/go/install';

const run = promisify(execFile);
const TIMEOUT = { timeout: 15 * 60_000 };
const LATENCY_MS = 5;

const ensure = (client: Omit<Client, 'language'>, cacheDir = CACHE_DIR) => ensureGoClient({ language: 'go', ...client }, installContext('go', { cacheDir }));

async function runCellOn(client: Omit<Client, 'language'>, configuration: Partial<Configuration> = {}, concurrency = 10) {
  const launch = await ensure(client);
  const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
  try {
    const cell: DriverCell = {
      endpoint: { host: fake.host, port: fake.port, security: 'plaintext' },
      database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
      client: { language: 'go', ...client },
      configuration: { label: 'x', grpcGcp: 'default', ...configuration },
      load: { shape: 'closed', concurrency, warmupOps: 50, measuredOps: 300 },
      operations: [{ kind: 'select1', weight: 1 }],
      deadlineMs: 60_000,
    };
    const result = await runDriver(cell, launch);
    return { result, stats: fake.stats(), launch };
  } finally {
    await fake.stop();
  }
}

test('versions come from the Go module proxy: both modules, semver order', async () => {
  const versions = await publishedVersions('go');
  assert.ok(versions.includes('1.96.1') && versions.includes('0.37.0'), versions.join(' '));
  assert.ok(!versions.some((v) => v.startsWith('0.') && Number(v.split('.')[1]) > 45), 'no monorepo release without the spanner package');
});

test('bad go clients are refused before anything is built, each with its reason', TIMEOUT, async () => {
  const refused = async (client: Omit<Client, 'language'>, re: RegExp, cacheDir?: string) =>
    assert.rejects(ensure(client, cacheDir), (e: Error) => e instanceof ClientInstallError && re.test(e.message), `${JSON.stringify(client)}: ${re}`);
  await refused({ version: '1.96.1; rm -rf /' }, /version "1\.96\.1; rm -rf \/" is not a plain semver/);
  await refused({ version: '1.96.1', grpcVersion: 'latest' }, /grpcVersion "latest" is not a plain semver/);
  await refused({ version: '0.46.3' }, /cloud\.google\.com\/go v0\.46\.3 no longer holds the spanner package \(the last that does is v0\.45\.1/);
  await refused({ version: '1.999.0' }, /cloud\.google\.com\/go\/spanner v1\.999\.0 is not published on the Go module proxy/);
  await refused({ version: '1.96.1', grpcVersion: '1.999.0' }, /google\.golang\.org\/grpc v1\.999\.0 is not published/);
  // Without the toolchain: one sentence saying what to install (a fresh cache, so nothing is reused).
  const path0 = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    await refused({ version: '1.96.1' }, /Go clients need the Go toolchain \(the go command.*\) on the PATH/, mkdtempSync(path.join(os.tmpdir(), 'scb-go-')));
  } finally {
    process.env.PATH = path0;
  }
});

test('go 1.96.1: a cell against the fake; numChannels opens that many connections; Java-only options fail the cell by name', TIMEOUT, async (t) => {
  const { result, stats } = await runCellOn({ version: '1.96.1' }, { numChannels: 3 });
  t.diagnostic(`1.96.1: ${result.count} ops, ${stats.connections.length} connections, rpcs ${JSON.stringify(stats.rpcsByMethod)}`);
  assert.equal(result.count, 300);
  assert.deepEqual(result.errors, {});
  assert.equal(decodeHistogram(result.histogram).totalCount, 300);
  assert.equal(stats.rpcsByMethod.ExecuteStreamingSql, 350, 'warm-up and measured ops, one RPC each');
  assert.equal(stats.connections.length, 3, 'numChannels 3: three connections');

  await assert.rejects(
    runCellOn({ version: '1.96.1' }, { dynamicChannelPool: true }),
    (e: Error) => e instanceof CellError && /option dynamicChannelPool is not supported by go 1\.96\.1/.test(e.message),
  );
});

test('go 1.33.0 keeps its session pool defaults; sessionPool options reach the pool; multiplexedSessions is refused', TIMEOUT, async () => {
  // Defaults: MinOpened 100 (four BatchCreateSessions of 25) and WriteSessions 0.2 (20 prepared with BeginTransaction).
  const defaults = await runCellOn({ version: '1.33.0' });
  assert.equal(defaults.result.count, 300);
  assert.equal(defaults.stats.rpcsByMethod.BatchCreateSessions, 4, JSON.stringify(defaults.stats.rpcsByMethod));
  assert.equal(defaults.stats.rpcsByMethod.BeginTransaction, 20);
  // No sessions up front and no write sessions: sessions are made on demand, none is prepared.
  const lazy = await runCellOn({ version: '1.33.0' }, { sessionPool: { minSessions: 0, maxSessions: 100, maxIdle: 5, writeSessionsFraction: 0 } });
  assert.equal(lazy.result.count, 300);
  assert.equal(lazy.stats.rpcsByMethod.BeginTransaction ?? 0, 0, JSON.stringify(lazy.stats.rpcsByMethod));
  await assert.rejects(
    runCellOn({ version: '1.33.0' }, { multiplexedSessions: true }),
    (e: Error) => e instanceof CellError && /option multiplexedSessions is not supported by go 1\.33\.0/.test(e.message),
  );
});

test('go 0.37.0, the monorepo: builds from cloud.google.com/go and runs; a grpc-go pin is built in', TIMEOUT, async (t) => {
  const { result, stats } = await runCellOn({ version: '0.37.0' });
  assert.equal(result.count, 300);
  assert.equal(stats.rpcsByMethod.ExecuteStreamingSql, 350);

  // Mercari's pair: the client's own grpc-go 1.19.0 replaced by 1.17.0.
  const pinned = await runCellOn({ version: '0.37.0', grpcVersion: '1.17.0' });
  assert.equal(pinned.result.count, 300);
  const { stdout } = await run('go', ['version', '-m', pinned.launch.command], { env: goEnv(CACHE_DIR) });
  // "dep google.golang.org/grpc v1.19.0" followed by "=> google.golang.org/grpc v1.17.0 h1:...".
  const lines = stdout.split('\n').map((l) => l.trim().split(/\s+/).join(' '));
  const dep = lines.findIndex((l) => l.startsWith('dep google.golang.org/grpc '));
  t.diagnostic(lines.slice(dep, dep + 2).join(' | '));
  assert.equal(lines[dep], 'dep google.golang.org/grpc v1.19.0', "the client's own requirement");
  assert.match(lines[dep + 1] ?? '', /^=> google\.golang\.org\/grpc v1\.17\.0 /, 'replaced by the pinned grpc-go');
  const mono = stdout.split('\n').find((l) => /\bcloud\.google\.com\/go\s+v0\.37\.0\b/.test(l));
  assert.ok(mono, `built against cloud.google.com/go v0.37.0:\n${stdout}`);
});

test('a client and grpc-go pair that does not build fails naming the pair and the compiler', TIMEOUT, async () => {
  await assert.rejects(
    ensure({ version: '1.33.0', grpcVersion: '1.18.0' }),
    (e: Error) => e instanceof ClientInstallError && /^cloud\.google\.com\/go\/spanner v1\.33\.0 with google\.golang\.org\/grpc v1\.18\.0 does not build here: ./.test(e.message),
  );
});
