// The Python driver's own configurations on the fake: each session pool class with its size, and the
// options a version lacks refused by name before anything connects (exit 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import type { Configuration } from '@scb/shared';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { defaultCellOn } from '../../../../test/helpers/cells';
import { prepareDriver, runDriver } from '../../src/index';
import { pythonToolchain } from '../../src/python/install';

const skip = (await pythonToolchain()) === null && 'no python3 >= 3.9';
/** Before multiplexed sessions (3.55.0) and lazy_decode (3.51.0): every operation takes a pooled session. */
const OLD = '1.17.0';

async function run(version: string, configuration: Partial<Configuration>, concurrency = 4) {
  const client = { language: 'python', version };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  const fake = await startFakeSpanner({ latencyMs: 5 });
  try {
    const base = defaultCellOn(fake, client, { warmupOps: 8, measuredOps: 80 }, concurrency);
    const cell = { ...base, configuration: { ...base.configuration, ...configuration } };
    return { result: await runDriver(cell, launch).catch((e: Error) => e), stats: fake.stats() };
  } finally {
    await fake.stop();
  }
}

test('each Python session pool runs with its size: a fixed or pinging pool creates all its sessions at start, a bursty one as agents need them', { skip, timeout: 10 * 60_000 }, async () => {
  for (const [pool, size] of [
    ['fixed', 6],
    ['pinging', 6],
    ['bursty', 6],
  ] as const) {
    const { result, stats } = await run(OLD, { pythonPool: pool, sessionPool: { maxSessions: size } });
    assert.ok(!(result instanceof Error), `${pool}: ${(result as Error).message}`);
    assert.deepEqual(result.errors, {}, pool);
    assert.equal(result.count, 80, pool);
    // The driver counts what its client's channel saw; the fake counts what it served.
    assert.equal(result.sessionsCreated, stats.sessionsCreated, `${pool}: ${JSON.stringify(stats.rpcsByMethod)}`);
    // Four agents: a bursty pool makes a session per agent waiting (no more than four), the others all six.
    if (pool === 'bursty') assert.ok(result.sessionsCreated! >= 1 && result.sessionsCreated! <= 4, `bursty created ${result.sessionsCreated}`);
    else assert.equal(result.sessionsCreated, size, `${pool} created ${result.sessionsCreated}`);
    // The timeline samples the sessions in use; never more than the agents.
    assert.ok(
      result.timeline.every((p) => p.pool && p.pool.in_use! >= 0 && p.pool.in_use! <= 4),
      JSON.stringify(result.timeline.map((p) => p.pool)),
    );
  }
});

test('options a Python version lacks are refused by name before anything connects (exit 4)', { skip, timeout: 10 * 60_000 }, async () => {
  for (const [configuration, refused] of [
    [{ pythonLazyDecode: true }, /option pythonLazyDecode is not supported by python 1\.17\.0: lazy_decode came in google-cloud-spanner 3\.51\.0/],
    [{ multiplexedSessions: true }, /option multiplexedSessions is not supported by python 1\.17\.0: multiplexed sessions came in google-cloud-spanner 3\.55\.0/],
    [{ numChannels: 4 }, /option numChannels is not supported by python 1\.17\.0: the Python client opens one gRPC channel/],
    [{ sessionPool: { minSessions: 2 } }, /option sessionPool\.minSessions is not supported by python 1\.17\.0/],
  ] as const) {
    const { result, stats } = await run(OLD, configuration as Partial<Configuration>, 1);
    assert.ok(result instanceof Error, JSON.stringify(configuration));
    assert.match(result.message, /driver exited \(code 4\)/);
    assert.match(result.message, refused);
    assert.equal(stats.totalRpcs, 0, 'refused before connecting');
  }
});

test('a Python cell that hangs until its deadline says where its threads wait (exit 3)', { skip, timeout: 5 * 60_000 }, async () => {
  const client = { language: 'python', version: OLD };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  // Queries of 15 s: the two agents are still in their first call when the deadline fires.
  const fake = await startFakeSpanner({ latencyMs: 15_000 });
  try {
    const cell = { ...defaultCellOn(fake, client, { warmupOps: 0, measuredOps: 10 }, 2), deadlineMs: 8000 };
    const result = await runDriver(cell, launch).catch((e: Error) => e);
    assert.ok(result instanceof Error, 'the cell cannot finish');
    assert.match(result.message, /driver exited \(code 3\)/);
    const waiting = /deadline of 8000 ms reached before the cell finished \(threads waiting: (.*)\)/.exec(result.message);
    assert.ok(waiting, result.message);
    // Each agent waits inside the client or gRPC, named by file, line and function.
    assert.match(waiting[1]!, /^\d+× \S+\.py:\d+ \w+/);
    assert.match(waiting[1]!, /(grpc|google)\//);
  } finally {
    await fake.stop();
  }
});
