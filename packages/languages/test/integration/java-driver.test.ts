// The Java driver end to end: Maven resolution per version, javac, one JVM per cell against the
// bundled fake. Needs mvn, a JDK 17+ and Maven Central (or a warm ~/.m2); the first run per
// version resolves jars (10-20 s), later runs reuse .cache/clients/java/<version>, and the driver's class
// data sharing archive made there after its first start (java/class-sharing.ts).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startFakeSpanner } from '@scb/fake-spanner';
import { ClientInstallError, installContext } from '@scb/languages';
import { decodeHistogram, idealQps, ProgressMessageSchema, ResultMessageSchema, type DriverCell, type Load, type ResultMessage } from '@scb/shared';

type ClosedLoad = Extract<Load, { shape: 'closed' }>;
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { makeTestCredentials } from '../../../../test/helpers/credentials';
import { makeTestCa } from '../../../../test/helpers/tls';
import { ensureJavaClient as ensure, type JavaClient } from '../../src/java/install';

const LATENCY_MS = 50;
const TIMEOUT = { timeout: 10 * 60_000 };

function ensureJavaClient(version: string, log?: (line: string) => void): Promise<JavaClient> {
  return ensure(version, installContext('java', { cacheDir: CACHE_DIR, log: log ?? (() => {}) }));
}

/** A closed-loop select1 cell against the fake on `port`; `load` overrides fields of the default load. */
function cellFor(port: number, version: string, extra: Partial<Omit<DriverCell, 'load'>> = {}, load: Partial<ClosedLoad> = {}): DriverCell & { load: ClosedLoad } {
  return {
    endpoint: { host: '127.0.0.1', port, security: 'plaintext' },
    database: { projectId: 'p', instanceId: 'i', databaseId: 'd' },
    client: { language: 'java', version },
    configuration: { label: 'default', grpcGcp: 'default' },
    load: { shape: 'closed', concurrency: 20, warmupOps: 100, durationMs: 2000, ...load },
    operations: [{ kind: 'select1', weight: 1 }],
    deadlineMs: 60_000,
    ...extra,
  };
}

interface DriverRun {
  code: number | null;
  messages: unknown[];
  /** Every byte the driver wrote, stdout then stderr. */
  output: string;
  stderr: string;
  lastStderrLine: string;
}

/**
 * Starts the driver as the runner does: one process, the cell on stdin, JSON lines on stdout. `env`
 * adds to the runner's environment; a variable set to undefined is removed.
 */
function runDriver(client: JavaClient, cell: DriverCell, env: NodeJS.ProcessEnv = {}): Promise<DriverRun> {
  return new Promise((resolve, reject) => {
    const full: NodeJS.ProcessEnv = { ...process.env, METADATA_SERVER_DETECTION: 'none', SPANNER_DISABLE_BUILTIN_METRICS: 'true', ...env };
    for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
    const p = spawn(client.command, client.args, { env: full });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const lines = stderr.trim().split('\n');
      resolve({
        code,
        messages: stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
        output: stdout + stderr,
        stderr,
        lastStderrLine: lines.at(-1) ?? '',
      });
    });
    p.stdin.end(JSON.stringify(cell));
  });
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await f();
  return [v, Math.round(performance.now() - t0)];
}

function onlyResult(run: DriverRun): ResultMessage {
  const results = run.messages.filter((m) => (m as { type: string }).type === 'result');
  assert.equal(results.length, 1, `one result line (stderr: ${run.stderr.slice(-500)})`);
  return ResultMessageSchema.parse(results[0]);
}

for (const version of ['6.104.0', '6.123.0']) {
  test(`java ${version}: a measured cell against the fake`, TIMEOUT, async (t) => {
    const [client, firstMs] = await timed(() => ensureJavaClient(version, (l) => t.diagnostic(l)));
    const [again, cachedMs] = await timed(() => ensureJavaClient(version));
    t.diagnostic(`ensureJavaClient(${version}): ${firstMs} ms, then ${cachedMs} ms from the cache`);
    assert.deepEqual(again, client);
    assert.equal(client.version, version);
    // The JVM options the operator gave every Java driver (npm test gives some) come first, and only they.
    const given = (process.env.SCB_JAVA_DRIVER_OPTIONS ?? '').trim().split(/\s+/).filter(Boolean);
    assert.deepEqual(client.args.slice(0, given.length), given);
    assert.ok(
      client.args[given.length]?.startsWith('-XX:SharedArchiveFile=') || client.args[given.length]?.startsWith('-XX:DumpLoadedClassList=') || client.args[given.length] === '-cp',
      client.args.join(' '),
    );

    const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
    try {
      // Five agents: the closed loop's figures (Little's law, the histogram, the timeline, the counts) hold
      // at any level; at 20 a cold JVM was CPU-bound (264 of the ideal 400 qps) and its 550 measured
      // operations cost 1.3 s of CPU, about 2.4 ms each.
      const cell = cellFor(fake.port, version, {}, { concurrency: 5 });
      const [run, wallMs] = await timed(() => runDriver(client, cell));
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const progress = run.messages.filter((m) => (m as { type: string }).type === 'progress').map((m) => ProgressMessageSchema.parse(m));
      for (const phase of ['connecting', 'warmup', 'measure'])
        assert.ok(
          progress.some((p) => p.phase === phase),
          `a ${phase} progress line`,
        );

      const r = onlyResult(run);
      const qps = (r.count * 1000) / r.elapsedMs;
      const ideal = idealQps(cell.load.concurrency, LATENCY_MS);
      const h = decodeHistogram(r.histogram);
      const p50Ms = h.getValueAtPercentile(50) / 1000;
      const stats = fake.stats();
      const used = stats.connections.filter((c) => c.rpcs > 0).length;
      t.diagnostic(
        `${version}: ${r.count} ops in ${r.elapsedMs} ms = ${qps.toFixed(0)} qps (ideal ${ideal}), p50 ${p50Ms} ms, ` +
          `cpu ${r.cpuMs} ms, ${used} of ${stats.connections.length} connections used, process ${wallMs} ms`,
      );
      assert.ok(r.count > 0);
      assert.deepEqual(r.errors, {});
      assert.equal(r.capped, undefined, 'no cap, no capped');
      // Never above the ideal C/L; and, by Little's law for the closed loop, near C / mean latency, the
      // mean bounded by this run's percentiles (as test/helpers/jobs.ts assertThroughput): idle agents fall far below.
      const meanAtMostMs = (0.99 * h.getValueAtPercentile(99) + 0.01 * h.maxValue) / 1000;
      const busy = (cell.load.concurrency * 1000) / meanAtMostMs;
      assert.ok(qps <= 1.05 * ideal && qps >= 0.85 * busy, `qps ${qps} vs ideal ${ideal}, ${busy.toFixed(0)} by C / mean latency at most ${meanAtMostMs.toFixed(1)} ms`);
      assert.equal(h.totalCount, r.count, 'the histogram holds every successful op');
      assert.ok(p50Ms >= LATENCY_MS, `p50 ${p50Ms} ms >= the fake's ${LATENCY_MS} ms`);
      assert.equal(
        r.timeline.reduce((s, p) => s + p.count, 0),
        r.count,
        'the timeline adds up to the count',
      );
      assert.ok(r.timeline.length >= 2);
      assert.equal(
        stats.connections.reduce((s, c) => s + c.rpcs, 0),
        stats.totalRpcs,
      );
      assert.ok(stats.totalRpcs >= r.count + cell.load.warmupOps);
      assert.ok(r.cpuMs > 0);

      // The same per operation kind of the mix: one kind here, so it holds everything.
      assert.deepEqual(Object.keys(r.operations), ['select1']);
      const select1 = r.operations.select1;
      assert.ok(select1, 'operations.select1 is there');
      assert.equal(select1.count, r.count, 'select1 counts every successful op');
      assert.deepEqual(select1.errors, r.errors);
      assert.equal(decodeHistogram(select1.histogram).totalCount, select1.count, "select1's histogram holds every select1 op");
    } finally {
      await fake.stop();
    }

    // Class data sharing: a start listed its classes (or the archive was there already); the next
    // preparation starts the driver with the archive, which the JVM takes (-Xshare:on refuses to start otherwise).
    const next = await ensureJavaClient(version);
    const archive = next.args.find((a) => a.startsWith('-XX:SharedArchiveFile='));
    const folder = path.join(next.dir, 'class-sharing');
    assert.ok(archive, `${version}: no class data sharing archive (${existsSync(folder) ? readdirSync(folder).join(', ') : 'no class-sharing folder'})`);
    await promisify(execFile)('java', ['-Xshare:on', archive, '-cp', next.classpath, '-version']);
  });
}

test('java 6.123.0: grpcGcp off and on with numChannels 4 at concurrency 40', TIMEOUT, async (t) => {
  const client = await ensureJavaClient('6.123.0');
  const used: Record<string, number> = {};
  for (const grpcGcp of ['off', 'on'] as const) {
    const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
    try {
      // By count: a few hundred RPCs show how the pool spreads them (not 2 s of them: the JVM's cost).
      const cell = cellFor(fake.port, '6.123.0', { configuration: { label: grpcGcp, grpcGcp, numChannels: 4 } }, { concurrency: 40, warmupOps: 40, measuredOps: 200, durationMs: undefined });
      const run = await runDriver(client, cell);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const r = onlyResult(run);
      const conns = fake.stats().connections;
      used[grpcGcp] = conns.filter((c) => c.rpcs > 0).length;
      t.diagnostic(`grpcGcp ${grpcGcp}: ${((r.count * 1000) / r.elapsedMs).toFixed(0)} qps, rpcs/peak in flight per connection: ` + conns.map((c) => `${c.rpcs}/${c.peakInFlight}`).join(' '));
      assert.deepEqual(r.errors, {});
    } finally {
      await fake.stop();
    }
  }
  // Without grpc-gcp, gax's pool of numChannels channels is round-robin: all four carry traffic.
  assert.equal(used.off, 4);
  // With grpc-gcp the pool may use fewer (that is what the benchmark measures), never more.
  assert.ok(used.on >= 1 && used.on <= 4, `grpc-gcp on used ${used.on} connections`);
});

test('an option the version lacks fails the cell with exit code 4 and one clear sentence', TIMEOUT, async () => {
  const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
  try {
    const old = await ensureJavaClient('6.104.0');
    const dynamic = { label: 'dyn', grpcGcp: 'default' as const, dynamicChannelPool: true };
    const run = await runDriver(old, cellFor(fake.port, '6.104.0', { configuration: dynamic }));
    assert.equal(run.code, 4);
    assert.equal(run.lastStderrLine, 'option dynamicChannelPool is not supported by java 6.104.0');
    assert.equal(run.messages.filter((m) => (m as { type: string }).type === 'result').length, 0);

    // 6.123.0 has the setter but always uses multiplexed sessions: refusing beats ignoring.
    const nu = await ensureJavaClient('6.123.0');
    const noMux = await runDriver(nu, cellFor(fake.port, '6.123.0', { configuration: { label: 'x', grpcGcp: 'default', multiplexedSessions: false } }));
    assert.equal(noMux.code, 4);
    assert.match(noMux.lastStderrLine, /^option multiplexedSessions=false is not supported by java 6\.123\.0/);
  } finally {
    await fake.stop();
  }
});

test('the driver exits by itself at its deadline', TIMEOUT, async () => {
  const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
  try {
    const client = await ensureJavaClient('6.123.0');
    // One agent: the deadline is under test, not the load.
    const run = await runDriver(client, cellFor(fake.port, '6.123.0', { deadlineMs: 3000 }, { concurrency: 1, durationMs: 60_000 }));
    assert.equal(run.code, 3);
    assert.equal(run.lastStderrLine, 'driver: deadline of 3000 ms reached before the cell finished');
  } finally {
    await fake.stop();
  }
});

test('versions that cannot be resolved fail with a ClientInstallError', TIMEOUT, async () => {
  // 6.109.0 is not even listed by Maven Central's metadata; 6.110.0 is listed, but its jars are missing here.
  await assert.rejects(ensureJavaClient('6.109.0'), (e) => e instanceof ClientInstallError && /6\.109\.0/.test(e.message));
  await assert.rejects(
    ensureJavaClient('6.110.0'),
    (e) => e instanceof ClientInstallError && /^Maven could not resolve .*:6\.110\.0: Could not find artifact /.test(e.message) && !e.message.includes('[ERROR]'),
  );
});

test('a version that is not plain semver never reaches Maven', async () => {
  for (const v of ['1.2.3; rm -rf /', '$(id)', '6.123.0 -Dx=y', '../6.123.0']) {
    await assert.rejects(ensureJavaClient(v), (e) => e instanceof ClientInstallError && /not a plain semver/.test(e.message), v);
    assert.ok(!existsSync(path.join(CACHE_DIR, 'clients', 'java', v)), v);
  }
});

const errorCount = (r: ResultMessage) => Object.values(r.errors).reduce((a, n) => a + n, 0);

for (const version of ['6.123.0', '6.104.0']) {
  test(`java ${version}: the cost cap counts warm-up and measured operations together, or the time since the first, and says which ended the cell`, TIMEOUT, async (t) => {
    const client = await ensureJavaClient(version);
    const fake = await startFakeSpanner({ latencyMs: 5 });
    try {
      // 150 in all: the warm-up's 100, then 50 of a measured phase that would have run 5 s.
      const opsCell = cellFor(fake.port, version, { cap: { ops: 150, ms: 60_000 } }, { concurrency: 10, warmupOps: 100, durationMs: 5000 });
      const opsRun = await runDriver(client, opsCell);
      assert.equal(opsRun.code, 0, opsRun.stderr.slice(-2000));
      const byOps = onlyResult(opsRun);
      const queries = fake.stats().rpcsByMethod.ExecuteStreamingSql;
      assert.equal(byOps.capped, 'ops');
      assert.ok(byOps.count + errorCount(byOps) <= 50, `${byOps.count} ${JSON.stringify(byOps.errors)}`);
      assert.equal(byOps.count, 50, 'the operations in flight at the cap finish and count');
      assert.ok(byOps.elapsedMs < 5000, `${byOps.elapsedMs} ms: the cap, not the 5 s phase, ended it`);
      assert.equal(queries, 150, 'not one operation started past the cap');

      // On a fake at 50 ms with two agents: the time cap is under test, not the operations of a cold JVM
      // (about 50 in the 1.5 s, where ten agents ran 240).
      fake.update({ ...fake.config(), latency: { query: 50 } });
      const timeCell = cellFor(fake.port, version, { cap: { ops: 1_000_000, ms: 1500 } }, { concurrency: 2, warmupOps: 0, durationMs: 10_000 });
      const timeRun = await runDriver(client, timeCell);
      assert.equal(timeRun.code, 0, timeRun.stderr.slice(-2000));
      const byTime = onlyResult(timeRun);
      t.diagnostic(
        `${version}: ops cap: ${byOps.count} measured in ${Math.round(byOps.elapsedMs)} ms, ${queries} queries; time cap: ${byTime.count} in ${Math.round(byTime.elapsedMs)} ms, per bucket ${byTime.timeline.map((p) => `${p.count}/${Math.round(p.ms ?? 1000)}ms`).join(' ')}`,
      );
      assert.equal(byTime.capped, 'time');
      assert.ok(byTime.elapsedMs > 1400 && byTime.elapsedMs < 10_000, `${byTime.elapsedMs} ms: not before the 1.5 s cap, and the cap, not the 10 s phase, ended it`);
      // No warm-up: the JVM is cold and the client starts its sessions in the first second, so few.
      assert.ok(byTime.count > 0 && errorCount(byTime) === 0, `${byTime.count} ${JSON.stringify(byTime.errors)}`);
    } finally {
      await fake.stop();
    }
  });
}

test('java over TLS with Application Default Credentials (6.123.0 and 6.104.0): trusts the test roots, sends credentials on every RPC, prints none', TIMEOUT, async (t) => {
  const ca = makeTestCa();
  const creds = await makeTestCredentials(ca.dir);
  const fake = await startFakeSpanner({ tls: { certChain: ca.certChain, privateKey: ca.privateKey }, latencyMs: 5 });
  const cell = (version: string, tlsRootsFile: string | undefined, deadlineMs: number): DriverCell => ({
    // localhost, as the server certificate names it.
    ...cellFor(fake.port, version, { deadlineMs }),
    load: { shape: 'closed', concurrency: 10, warmupOps: 20, measuredOps: 60 },
    endpoint: { host: 'localhost', port: fake.port, security: 'tls', tlsRootsFile },
    database: { projectId: 'bench-project', instanceId: 'i', databaseId: 'd' },
  });
  // The runner's own environment must not decide the outcome: an empty SPANNER_EMULATOR_HOST would
  // switch the client to plaintext without credentials, were the driver not to override it.
  const env = { GOOGLE_APPLICATION_CREDENTIALS: creds.file, SPANNER_EMULATOR_HOST: '', JAVA_TOOL_OPTIONS: undefined, JDK_JAVA_OPTIONS: undefined };
  const noSecrets = (output: string) => {
    for (const secret of creds.secrets) assert.ok(!output.includes(secret), 'a credential in the driver output');
  };
  try {
    for (const version of ['6.123.0', '6.104.0']) {
      const client = await ensureJavaClient(version);
      const before = fake.stats();
      const tokens = creds.tokenRequests();
      const run = await runDriver(client, cell(version, ca.caFile, 60_000), env);
      const stats = fake.stats();
      const rpcs = stats.totalRpcs - before.totalRpcs;
      // Observed: 6.104.0 fetches a token at the key's token_uri, 6.123.0 signs its own JWT (none).
      const tokenRequests = creds.tokenRequests() - tokens;
      t.diagnostic(
        `${version}: exit ${run.code}; rpcs ${JSON.stringify(stats.rpcsByMethod)} in all, ${rpcs} of this cell, ` +
          `${stats.rpcsWithCredentials - before.rpcsWithCredentials} with credentials; token requests ${tokenRequests}`,
      );
      noSecrets(run.output);
      assert.equal(run.code, 0, run.output.slice(-2000));
      const r = onlyResult(run);
      assert.equal(r.count, 60);
      assert.deepEqual(r.errors, {});
      assert.equal((stats.rpcsByMethod.ExecuteStreamingSql ?? 0) - (before.rpcsByMethod.ExecuteStreamingSql ?? 0), 80, 'served by the TLS fake');
      assert.equal(stats.rpcsWithCredentials - before.rpcsWithCredentials, rpcs, 'every RPC carried the credentials of the environment');
    }

    // Without the test roots the server certificate is not trusted: no RPC gets through, and the
    // failure says nothing secret either. The Java client retries UNAVAILABLE without a word (the
    // handshake failure is not logged at WARNING), so the driver's deadline is what ends the cell.
    const before = fake.stats().totalRpcs;
    const untrusted = await runDriver(await ensureJavaClient('6.123.0'), cell('6.123.0', undefined, 8000), env);
    t.diagnostic(`untrusted: exit ${untrusted.code}; ${untrusted.lastStderrLine}`);
    noSecrets(untrusted.output);
    assert.equal(fake.stats().totalRpcs, before);
    assert.equal(untrusted.code, 3, untrusted.output.slice(-2000));
    assert.equal(untrusted.lastStderrLine, 'driver: deadline of 8000 ms reached before the cell finished');
  } finally {
    await fake.stop();
    await creds.stop();
    rmSync(ca.dir, { recursive: true, force: true });
  }
});
