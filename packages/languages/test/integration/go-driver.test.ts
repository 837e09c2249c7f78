// The Go client end to end: versions from the Go module proxy, one build per client version (and
// per grpc-go pin) into the client cache, one driver process per cell against the bundled fake.
// Needs the go command and the Go module proxy; cold builds take one to three minutes each.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startFakeSpanner } from '@scb/fake-spanner';
import { decodeHistogram, DriverMessageSchema, type Client, type Configuration, type DriverCell, type Load, type ResultMessage } from '@scb/shared';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { CellError, runDriver } from '../../src/index';
import { makeTestCredentials } from '../../../../test/helpers/credentials';
import { makeTestCa } from '../../../../test/helpers/tls';
import { ClientInstallError, installContext, publishedVersions, type DriverLaunch } from '../../src/index';
import { ensureGoClient, goEnv } from '../../src/go/install';

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
  assert.equal(result.capped, undefined, 'no cap, no capped');

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

const errorCount = (r: ResultMessage) => Object.values(r.errors).reduce((a, n) => a + n, 0);

test('go 1.96.1: the cost cap counts warm-up and measured operations together, or the time since the first, and says which ended the cell', TIMEOUT, async (t) => {
  const launch = await ensure({ version: '1.96.1' });
  const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
  const cell = (load: Omit<Extract<Load, { shape: 'closed' }>, 'shape' | 'concurrency'>, cap: DriverCell['cap']): DriverCell => ({
    endpoint: { host: fake.host, port: fake.port, security: 'plaintext' },
    database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
    client: { language: 'go', version: '1.96.1' },
    configuration: { label: 'x', grpcGcp: 'default' },
    load: { shape: 'closed', concurrency: 10, ...load },
    operations: [{ kind: 'select1', weight: 1 }],
    cap,
    deadlineMs: 60_000,
  });
  try {
    // 150 in all: the warm-up's 100, then 50 of a measured phase that would have run 5 s.
    const byOps = await runDriver(cell({ warmupOps: 100, durationMs: 5000 }, { ops: 150, ms: 60_000 }), launch);
    assert.equal(byOps.capped, 'ops');
    assert.ok(byOps.count + errorCount(byOps) <= 50, `${byOps.count} ${JSON.stringify(byOps.errors)}`);
    assert.equal(byOps.count, 50, 'the operations in flight at the cap finish and count');
    assert.ok(byOps.elapsedMs < 5000, `${byOps.elapsedMs} ms: the cap, not the 5 s phase, ended it`);
    assert.equal(fake.stats().rpcsByMethod.ExecuteStreamingSql, 150, 'not one operation started past the cap');

    const byTime = await runDriver(cell({ warmupOps: 0, durationMs: 10_000 }, { ops: 1_000_000, ms: 1500 }), launch);
    t.diagnostic(`ops cap: ${byOps.count} measured in ${Math.round(byOps.elapsedMs)} ms; time cap: ${byTime.count} in ${Math.round(byTime.elapsedMs)} ms`);
    assert.equal(byTime.capped, 'time');
    assert.ok(byTime.elapsedMs > 1400 && byTime.elapsedMs < 10_000, `${byTime.elapsedMs} ms: not before the 1.5 s cap, and the cap, not the 10 s phase, ended it`);
    // The agents ran until the cap: every second of it, the partial last one too, has operations.
    const perSecond = byTime.timeline.map((p) => p.count);
    assert.ok(perSecond.length >= 2 && perSecond.every((n) => n > 0) && errorCount(byTime) === 0, `${perSecond.join(', ')} ${JSON.stringify(byTime.errors)}`);
  } finally {
    await fake.stop();
  }
});

/** Runs the driver as the runner does (runDriver's environment) plus `env`; every byte it wrote, and its result. */
function spawnDriver(cell: DriverCell, launch: DriverLaunch, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; result?: ResultMessage }> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      env: { ...process.env, METADATA_SERVER_DETECTION: 'none', SPANNER_DISABLE_BUILTIN_METRICS: 'true', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const result = stdout
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => DriverMessageSchema.parse(JSON.parse(l)))
        .find((m) => m.type === 'result');
      resolve({ code, output: stdout + stderr, result });
    });
    child.stdin.end(JSON.stringify(cell));
  });
}

test('go over TLS with Application Default Credentials (1.96.1, and 0.37.0 of the monorepo): trusts the test roots, sends credentials on every RPC, prints none', TIMEOUT, async (t) => {
  const ca = makeTestCa();
  const creds = await makeTestCredentials(ca.dir);
  const fake = await startFakeSpanner({ tls: { certChain: ca.certChain, privateKey: ca.privateKey }, latencyMs: LATENCY_MS });
  const cell = (version: string, tlsRootsFile: string | undefined, deadlineMs: number): DriverCell => ({
    // localhost, as the server certificate names it.
    endpoint: { host: 'localhost', port: fake.port, security: 'tls', tlsRootsFile },
    database: { projectId: 'bench-project', instanceId: 'i', databaseId: 'd' },
    client: { language: 'go', version },
    configuration: { label: 'x', grpcGcp: 'default' },
    load: { shape: 'closed', concurrency: 10, warmupOps: 20, measuredOps: 200 },
    operations: [{ kind: 'select1', weight: 1 }],
    deadlineMs,
  });
  // The runner's own environment must not decide the outcome.
  const env = { GOOGLE_APPLICATION_CREDENTIALS: creds.file, SPANNER_EMULATOR_HOST: '', SSL_CERT_FILE: '', SSL_CERT_DIR: '' };
  const noSecrets = (output: string) => {
    for (const secret of creds.secrets) assert.ok(!output.includes(secret), 'a credential in the driver output');
  };
  try {
    for (const version of ['1.96.1', '0.37.0']) {
      const launch = await ensure({ version });
      const before = fake.stats();
      const tokens = creds.tokenRequests();
      const { code, output, result } = await spawnDriver(cell(version, ca.caFile, 60_000), launch, env);
      const stats = fake.stats();
      const rpcs = stats.totalRpcs - before.totalRpcs;
      t.diagnostic(
        `${version}: exit ${code}; ${result?.count} ops; rpcs ${JSON.stringify(stats.rpcsByMethod)} in all, ${rpcs} of this cell, ${stats.rpcsWithCredentials - before.rpcsWithCredentials} with credentials; token requests ${creds.tokenRequests() - tokens}`,
      );
      assert.equal(code, 0, output.slice(-2000));
      assert.equal(result?.count, 200, output.slice(-2000));
      assert.deepEqual(result.errors, {});
      assert.equal(stats.rpcsByMethod.ExecuteStreamingSql! - (before.rpcsByMethod.ExecuteStreamingSql ?? 0), 220, 'served by the TLS fake');
      assert.equal(stats.rpcsWithCredentials - before.rpcsWithCredentials, rpcs, 'every RPC carried the credentials of the environment');
      noSecrets(output);
    }

    // Without the test roots the server certificate is not trusted: no RPC gets through, and the
    // failure says nothing secret either.
    const before = fake.stats().totalRpcs;
    const untrusted = await spawnDriver(cell('1.96.1', undefined, 5000), await ensure({ version: '1.96.1' }), env);
    t.diagnostic(`untrusted: exit ${untrusted.code}; ${untrusted.output.trim().split('\n').slice(-1)[0]}`);
    assert.equal(untrusted.result?.count, 0, untrusted.output.slice(-2000));
    assert.ok(untrusted.result?.errors.UNAVAILABLE, JSON.stringify(untrusted.result?.errors));
    assert.match(untrusted.output, /certificate signed by unknown authority/);
    assert.equal(fake.stats().totalRpcs, before);
    noSecrets(untrusted.output);
  } finally {
    await fake.stop();
    await creds.stop();
    rmSync(ca.dir, { recursive: true, force: true });
  }
});
