// The fake server as a product, against the real google-cloud-spanner Java client (the Java twin of
// test/integration/fake-node-client.test.ts): bench.FakeConformance (test/harness/java) runs every transaction
// kind, or a read-write transaction whose first commit the fake aborts, and prints what it observed.
// The harness is compiled against the classpath ensureJavaClient resolved for the version (once: the classes
// are kept in the client cache) and runs with the JVM options npm test gives its Java drivers.
// Needs mvn, a JDK 17+ and Maven Central (or a warm ~/.m2), like packages/languages/test/integration/java-driver.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startFakeSpanner, type FakeSpanner } from '@scb/fake-spanner';
import { installContext, runtimeOptionsOf } from '@scb/languages';
import { CACHE_DIR } from '../../apps/runner/src/paths';
import { ensureJavaClient } from '../../packages/languages/src/java/install';
import { compiledOnce } from '../../packages/languages/src/java/javac';
import { JAVA_RUNTIME_OPTIONS } from '../../packages/languages/src/java/runtime-options';

const TIMEOUT = { timeout: 10 * 60_000 };
/** The child's own deadline; the test kills it a little later should it not exit by itself. */
const CHILD_DEADLINE_MS = 60_000;
const HARNESS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'harness', 'java', 'FakeConformance.java');

/**
 * The classpath to run bench.FakeConformance with for `version`: the harness's classes, then the client's.
 * Compiled once per harness source and classpath, kept in the client cache (javac costs seconds of CPU).
 */
const harnesses = new Map<string, Promise<string>>();
function harnessClasspath(version: string, log: (l: string) => void): Promise<string> {
  let p = harnesses.get(version);
  if (!p) {
    p = (async () => {
      const client = await ensureJavaClient(version, installContext('java', { cacheDir: CACHE_DIR, log }));
      try {
        return [await compiledOnce(HARNESS, client.classpath, path.join(CACHE_DIR, 'test-harness', 'fake-conformance')), client.classpath].join(path.delimiter);
      } catch (e) {
        const err = e as { stderr?: string; message: string };
        throw new Error(`FakeConformance.java does not compile against java ${version}: ${(err.stderr ?? err.message).slice(0, 3000)}`);
      }
    })();
    harnesses.set(version, p);
  }
  return p;
}

interface Observed {
  version: string;
  scenario: string;
  elapsedMs: number;
  attempts: number;
  readWriteMs: number;
  commitTimestamp: string;
  select1?: number;
  roQueryName?: string;
  roReadName?: string;
  roReadTimestamp?: string | null;
  updateCount?: number;
  batchUpdateCounts?: number[];
}

interface ConformanceRun {
  code: number | null;
  observed?: Observed;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/** Starts bench.FakeConformance on the classpath ensureJavaClient built for `version`. */
async function startConformance(version: string, fake: FakeSpanner, scenario: 'transactions' | 'abort', log: (l: string) => void) {
  const classpath = await harnessClasspath(version, log);
  const t0 = performance.now();
  // The JVM options npm test gives its Java drivers (SHORT_CELL_OPTIONS: C1 only, the serial collector).
  const p = spawn('java', [...runtimeOptionsOf(JAVA_RUNTIME_OPTIONS), '-cp', classpath, 'bench.FakeConformance'], { env: { ...process.env, SPANNER_DISABLE_BUILTIN_METRICS: 'true' } });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d) => (stdout += d));
  p.stderr.on('data', (d) => (stderr += d));
  const kill = setTimeout(() => p.kill('SIGKILL'), CHILD_DEADLINE_MS + 10_000);
  const done = new Promise<ConformanceRun>((resolve, reject) => {
    p.on('error', (e) => {
      clearTimeout(kill);
      reject(e);
    });
    p.on('close', (code) => {
      clearTimeout(kill);
      const lines = stdout.trim().split('\n').filter(Boolean);
      let observed: Observed | undefined;
      try {
        observed = lines.length === 1 ? (JSON.parse(lines[0]) as Observed) : undefined;
      } catch {
        observed = undefined;
      }
      resolve({ code, observed, stdout, stderr, wallMs: Math.round(performance.now() - t0) });
    });
  });
  p.stdin.end(JSON.stringify({ host: fake.host, port: fake.port, version, scenario, deadlineMs: CHILD_DEADLINE_MS }));
  return done;
}

/** The one JSON line of a run that exited 0; otherwise fails with the child's stderr. */
function observedOf(run: ConformanceRun): Observed {
  assert.equal(run.code, 0, `FakeConformance exited ${run.code}: ${run.stderr.slice(-3000)}`);
  assert.ok(run.observed, `one JSON line on stdout, got: ${run.stdout.slice(0, 1000)}`);
  return run.observed;
}

for (const version of ['6.123.0', '6.104.0']) {
  test(`java ${version}: single-use query, read-only transaction, read, read-write transaction with DML, mutations and batch DML`, TIMEOUT, async (t) => {
    await harnessClasspath(version, (l) => t.diagnostic(l)); // resolution and compilation outside the timing below
    const fake = await startFakeSpanner({ latencyMs: 5 });
    try {
      const run = await startConformance(version, fake, 'transactions', (l) => t.diagnostic(l));
      const o = observedOf(run);
      const methods = fake.stats().rpcsByMethod;
      t.diagnostic(`${version}: process ${run.wallMs} ms, client ${o.elapsedMs} ms, read-write ${o.readWriteMs} ms; rpcs ${JSON.stringify(methods)}`);

      assert.equal(o.select1, 1);
      assert.equal(o.roQueryName, 'Player 7');
      assert.equal(o.roReadName, 'Player 8');
      assert.ok(o.roReadTimestamp, 'the read-only transaction has a read timestamp');
      assert.equal(o.updateCount, 1);
      assert.deepEqual(o.batchUpdateCounts, [1, 1]);
      assert.equal(o.attempts, 1);

      assert.deepEqual(fake.store.read('Players', ['PlayerName'], [['3'], ['4'], ['5']]).rows, [['Renamed'], ['Batch 4'], ['Batch 5']]);
      const scores = fake.store.read('Scores', ['PlayerId', 'Score', 'Timestamp'], 'all').rows;
      assert.deepEqual(
        scores.map((r) => r.slice(0, 2)),
        [['3', '42']],
      );
      // Value.COMMIT_TIMESTAMP became the commit's own time, the one the client was told.
      assert.equal(new Date(String(scores[0][2])).getTime(), new Date(String(o.commitTimestamp)).getTime());

      assert.ok((methods.Commit ?? 0) >= 1, `Commit called: ${JSON.stringify(methods)}`);
      // The fake counts methods, not selectors: an inline begin shows as DML that ran in a
      // transaction (the store above proves its effects were committed), an explicit one as BeginTransaction.
      const begins = (methods.BeginTransaction ?? 0) + (methods.ExecuteSql ?? 0) + (methods.ExecuteBatchDml ?? 0);
      assert.ok(begins >= 1, `a BeginTransaction or an inline begin: ${JSON.stringify(methods)}`);
      assert.ok((methods.ExecuteStreamingSql ?? 0) + (methods.ExecuteSql ?? 0) >= 3, `three statements: ${JSON.stringify(methods)}`);
      assert.ok((methods.StreamingRead ?? 0) + (methods.Read ?? 0) >= 1, `a read: ${JSON.stringify(methods)}`);
      assert.ok((methods.ExecuteBatchDml ?? 0) >= 1, `batch DML: ${JSON.stringify(methods)}`);
    } finally {
      await fake.stop();
    }
  });

  test(`java ${version}: an injected ABORTED on commit is retried by the client and counted by the fake`, TIMEOUT, async (t) => {
    await harnessClasspath(version, (l) => t.diagnostic(l));
    const fake = await startFakeSpanner({ latencyMs: 2, faults: [{ kind: 'commit', code: 'ABORTED', ratio: 1, retryDelayMs: 300 }] });
    try {
      const running = startConformance(version, fake, 'abort', (l) => t.diagnostic(l));
      // Once the first commit was aborted, let the retry through (bounded: a cold JVM takes a few seconds).
      let exited = false;
      running.then(
        () => (exited = true),
        () => (exited = true),
      );
      const waitEnd = Date.now() + CHILD_DEADLINE_MS;
      while (!exited && Date.now() < waitEnd && !fake.stats().faults.commit?.ABORTED) await new Promise((r) => setTimeout(r, 20));
      const abortedBeforeRelease = fake.stats().faults.commit?.ABORTED ?? 0;
      fake.update({ ...fake.config(), faults: [] });
      const run = await running;
      const o = observedOf(run);
      const s = fake.stats();
      t.diagnostic(
        `${version}: process ${run.wallMs} ms, client ${o.elapsedMs} ms, transaction ${o.readWriteMs} ms over ${o.attempts} attempts; ` +
          `aborted ${JSON.stringify(s.faults)}; rpcs ${JSON.stringify(s.rpcsByMethod)}`,
      );
      assert.ok(abortedBeforeRelease >= 1, 'the fake aborted a commit before the fault was lifted');
      assert.ok((s.faults.commit?.ABORTED ?? 0) >= 1);
      assert.ok(o.attempts >= 2, `the transaction ran ${o.attempts} time(s)`);
      // The fake puts RetryInfo (300 ms) on the ABORTED; the Java client waits that long before retrying.
      assert.ok(o.readWriteMs >= 300, `the transaction took ${o.readWriteMs} ms, less than the RetryInfo delay`);
      assert.ok((s.rpcsByMethod.Commit ?? 0) >= 2, `a commit per attempt: ${JSON.stringify(s.rpcsByMethod)}`);
      assert.deepEqual(fake.store.read('Players', ['PlayerName'], [['5001']]).rows, [['Aborted once']]);
    } finally {
      await fake.stop();
    }
  });
}
