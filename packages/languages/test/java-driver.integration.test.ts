// The Java driver end to end: Maven resolution per version, javac, one JVM per cell against the
// bundled fake. Needs mvn, a JDK 17+ and Maven Central (or a warm ~/.m2); the first run per
// version resolves jars (10-20 s), later runs reuse .cache/clients/java/<version>.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import { ClientInstallError, installContext } from '@scb/languages';
import { decodeHistogram, idealQps, ProgressMessageSchema, ResultMessageSchema, type DriverCell, type Load, type ResultMessage } from '@scb/shared';
import { CACHE_DIR } from '../../../apps/runner/src/paths';
import { ensureJavaClient as ensure, type JavaClient } from '../src/java/install';

const LATENCY_MS = 50;
const TIMEOUT = { timeout: 10 * 60_000 };

function ensureJavaClient(version: string, log?: (line: string) => void): Promise<JavaClient> {
  return ensure(version, installContext('java', { cacheDir: CACHE_DIR, log: log ?? (() => {}) }));
}

/** A closed-loop select1 cell against the fake on `port`; `load` overrides fields of the default load. */
function cellFor(port: number, version: string, extra: Partial<Omit<DriverCell, 'load'>> = {}, load: Partial<Load> = {}): DriverCell {
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
  stderr: string;
  lastStderrLine: string;
}

/** Starts the driver as the runner does: one process, the cell on stdin, JSON lines on stdout. */
function runDriver(client: JavaClient, cell: DriverCell): Promise<DriverRun> {
  return new Promise((resolve, reject) => {
    const p = spawn(client.command, client.args, { env: { ...process.env, SPANNER_DISABLE_BUILTIN_METRICS: 'true' } });
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

    const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
    try {
      const cell = cellFor(fake.port, version);
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
      assert.ok(qps >= 0.4 * ideal && qps <= 1.05 * ideal, `qps ${qps} vs ideal ${ideal}`);
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
  });
}

test('java 6.123.0: grpcGcp off and on with numChannels 4 at concurrency 40', TIMEOUT, async (t) => {
  const client = await ensureJavaClient('6.123.0');
  const used: Record<string, number> = {};
  for (const grpcGcp of ['off', 'on'] as const) {
    const fake = await startFakeSpanner({ latencyMs: LATENCY_MS });
    try {
      const cell = cellFor(fake.port, '6.123.0', { configuration: { label: grpcGcp, grpcGcp, numChannels: 4 } }, { concurrency: 40 });
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
    const run = await runDriver(client, cellFor(fake.port, '6.123.0', { deadlineMs: 3000 }, { durationMs: 60_000 }));
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
