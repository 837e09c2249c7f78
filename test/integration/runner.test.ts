// The whole runner chain, every part real: embedded PostgreSQL, migrations, graphile-worker queue,
// the fake Spanner server, and @google-cloud/spanner 9.0.0 in a driver process per cell.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idealQps } from '@scb/shared';
import { assertThroughput, countedBy, useRunner } from '../helpers/jobs';

const stack = useRunner();
const { logs, runSpec } = stack;

/** What the runner learned installing each version of a language: [version, ok], in version order. */
async function installOutcomes(language: string) {
  return (await stack.db.clientVersion.findMany({ where: { language }, orderBy: { version: 'asc' } })).map((v) => [v.version, v.ok]);
}

test('a Node 9.0.0 job runs through the queue against the fake and stores every cell', { timeout: 300_000 }, async () => {
  const job = await runSpec(
    {
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [
        { label: 'grpc-gcp on', grpcGcp: 'on' },
        { label: 'grpc-gcp off', grpcGcp: 'off' },
      ],
      concurrency: [10, 20],
      target: { kind: 'fake', latencyMs: 65 },
      // Enough to run the measured phase warm for the checks below: max(200, 20 × C). A verdict of
      // "clean" asks more of Node (docs/verdicts.md, "Warm start"); this test reads no verdict.
      workload: { warmupOps: { min: 200, perConcurrency: 20 }, durationSeconds: 3 },
    },
    240_000,
  );

  assert.equal(job.status, 'succeeded', `job error: ${job.error}; log:\n${logs.join('\n')}`);
  assert.equal(job.cells.length, 4);
  const env = job.environment as { cores: number; toolchains: { node: string } };
  assert.ok(env.cores >= 1 && env.toolchains.node.startsWith('v'), 'the job records where it ran');
  // And the runtime options its drivers ran with, where the operator gave any (npm test does).
  const given = Object.fromEntries(Object.entries({ java: process.env.SCB_JAVA_DRIVER_OPTIONS, node: process.env.SCB_NODE_DRIVER_OPTIONS }).filter(([, v]) => v?.trim()));
  assert.deepEqual((job.environment as { driverOptions?: object }).driverOptions ?? {}, given);
  for (const cell of job.cells) {
    assert.equal(cell.status, 'succeeded', `cell ${cell.index}: ${cell.error}`);
    const r = cell.result!;
    assert.ok(r, `cell ${cell.index} has a result`);
    assertThroughput(`C=${cell.concurrency} ${cell.configLabel}`, r, cell.concurrency, idealQps(cell.concurrency, 65));
    // At least the fake's 65 ms, and no more than the mean latency of the closed loop (Little's law:
    // C / qps, in this cell) allows: a p50 in the wrong unit or from another histogram is neither.
    const meanMs = (cell.concurrency * 1000) / r.qps;
    assert.ok(r.p50Ms >= 65 && r.p50Ms <= 1.2 * meanMs, `p50 ${r.p50Ms} ms, mean ${meanMs.toFixed(1)} ms by C / qps`);
    assert.ok(r.p99Ms >= r.p50Ms && r.maxMs >= r.p99Ms);
    assert.equal(r.errorCount, 0);
    // The channel stats account for every RPC the cell's own fake served (the fake counts them all)...
    assert.ok(r.serverRpcs !== null, 'the fake target counts RPCs');
    const fake = countedBy(cell.channels, 'fake');
    assert.equal(fake.rpcs, r.serverRpcs);
    assert.equal(countedBy(cell.channels, 'client').rpcs, r.serverRpcs, 'the client counted the RPCs the fake served');
    // ...which is every query the driver ran (warm-up and measured) plus the session calls.
    const warm = Math.max(200, 20 * cell.concurrency);
    assert.ok(r.serverRpcs >= r.count + warm, `server saw ${r.serverRpcs} RPCs, driver measured ${r.count} + ${warm} warm-up`);
    assert.ok(r.serverRpcs <= r.count + warm + 5, `server saw ${r.serverRpcs} RPCs, more than the driver ran`);
    assert.ok(r.driverLoopUtilization !== null && r.driverLoopUtilization > 0 && r.driverLoopUtilization <= 1, `Node's event loop: ${r.driverLoopUtilization}`);
    // The fake measured its own added time on every RPC it served.
    assert.ok(r.targetAddedP50Ms !== null && r.targetAddedP99Ms !== null && r.targetAddedP99Ms >= r.targetAddedP50Ms && r.targetAddedP50Ms > 0, `${r.targetAddedP50Ms} / ${r.targetAddedP99Ms}`);
    // The fake's thread and the machine were measured while the cell measured: the verdict's figures.
    assert.ok(r.targetLoopUtilization !== null && r.targetLoopUtilization > 0 && r.targetLoopUtilization < 1, `fake's loop: ${r.targetLoopUtilization}`);
    assert.ok(r.machineBusyShare !== null && r.machineRunnerShare !== null && r.machineBusyShare >= r.machineRunnerShare, `machine ${r.machineBusyShare}, runner ${r.machineRunnerShare}`);
    assert.ok(fake.channels.every((c) => c.peakInFlight <= 100));
    assert.ok(fake.channels.some((c) => c.peakInFlight >= 1));
    if (cell.configLabel === 'grpc-gcp off') assert.equal(fake.channels.filter((c) => c.rpcs > 0).length, 1, 'grpc-gcp off is one HTTP/2 connection');
    assert.ok(r.cpuMs > 0, 'the driver reports its CPU time');
    // Per-second buckets add up to the measured count; each knows its length (the last is partial), and
    // the lengths add up to the measured phase.
    const timeline = r.timeline as { count: number; ms: number }[];
    assert.equal(
      timeline.reduce((a, t) => a + t.count, 0),
      r.count,
    );
    const covered = timeline.reduce((a, t) => a + t.ms, 0);
    assert.ok(timeline.length >= 3 && timeline.every((t) => t.ms > 0), JSON.stringify(timeline));
    assert.ok(Math.abs(covered - r.elapsedMs) <= 0.05 * r.elapsedMs, `buckets cover ${covered} ms of ${r.elapsedMs} ms`);
  }
});

/**
 * One job where there were three (each cell is a driver start: about 2 s of CPU for Java, 1 for Node):
 * Go's newest, an old one and one on a pinned grpc-go; an old and a new Java, whose CPU and channels are
 * stored; Node; and a version each registry lacks (npm, Maven, the Go module proxy), which fails only its
 * own cell, a cell of its language beside it running to the end of its measured phase.
 */
test('Go, Java and Node in one job: Go (newest, 1.33.0, 0.37.0 on grpc-go 1.17.0), Java (old and new), Node; a version no registry serves fails only its own cells', {
  timeout: 1_200_000,
}, async () => {
  const job = await runSpec(
    {
      clients: [
        { language: 'go', version: '1.96.1' },
        { language: 'go', version: '1.33.0' },
        { language: 'go', version: '0.37.0', grpcVersion: '1.17.0' },
        { language: 'java', version: '6.104.0' },
        { language: 'java', version: '6.123.0' },
        { language: 'java', version: '6.110.0' },
        { language: 'node', version: '9.0.0' },
        { language: 'node', version: '0.0.1' },
        { language: 'go', version: '1.999.0' },
      ],
      configurations: [{ label: 'client default' }],
      // Ten agents, not 20: what these cells assert is relative to their own C (throughput against C /
      // latency, the warm-up's RPCs), so half the operations ask the same (half the fake's RPCs in this
      // process, and of the JVMs' work). The Node job above keeps C = 20, whose warm-up the per-agent
      // count sets (400; here 200 is both the minimum and 20 per agent).
      concurrency: [10],
      target: { kind: 'fake', latencyMs: 50 },
      // Enough warm-up for the JVM's JIT (20 calls per worker).
      workload: { warmupOps: { min: 200, perConcurrency: 20 }, durationSeconds: 2 },
    },
    1_100_000,
  );
  assert.equal(job.status, 'succeeded', `job error: ${job.error}; log:\n${logs.join('\n')}`);
  const client = (c: (typeof job.cells)[number]) => `${c.clientLanguage} ${c.clientVersion}${c.clientGrpcVersion ? ` grpc ${c.clientGrpcVersion}` : ''}`;
  const unresolvable: Record<string, RegExp> = {
    '0.0.1': /@google-cloud\/spanner@0\.0\.1 is not published on the npm registry/,
    '6.110.0': /Maven could not resolve .*6\.110\.0/,
    '1.999.0': /^cloud\.google\.com\/go\/spanner v1\.999\.0 is not published on the Go module proxy/,
  };
  for (const v of Object.keys(unresolvable))
    assert.ok(
      job.cells.some((c) => c.clientVersion === v),
      `${v} has its cell`,
    );
  for (const cell of job.cells) {
    const refused = unresolvable[cell.clientVersion];
    if (refused) {
      assert.equal(cell.status, 'failed', client(cell));
      assert.match(cell.error!, refused);
      continue;
    }
    assert.equal(cell.status, 'succeeded', `${client(cell)} C=${cell.concurrency}: ${cell.error}`);
    const r = cell.result!;
    assertThroughput(`${client(cell)} C=${cell.concurrency}`, r, cell.concurrency, idealQps(cell.concurrency, 50));
    assert.ok(r.p50Ms >= 50, `${client(cell)}: p50 ${r.p50Ms}`);
    // Each ran its whole measured phase, whatever failed beside it.
    assert.ok(r.elapsedMs >= 2000, `${client(cell)}: measured ${r.elapsedMs} ms of 2000`);
    // A measured phase by time has a timeline whose buckets cover the phase: driver-conformance.test.ts
    // leaves this check of the Go, Java and Node drivers to these cells (its own were a driver start
    // each). Full buckets are closed by a one-second ticker: the k-th ends no earlier than k s into the
    // phase (a late tick ends it later, and fixed-rate tickers then shorten the next, so no per-bucket
    // window); the last is what was left.
    const timeline = r.timeline as { count: number; ms: number }[];
    assert.ok(timeline.length >= 2 && timeline.length <= 4, `${client(cell)}: ${timeline.length} buckets`);
    const covered = timeline.reduce((a, t) => a + t.ms, 0);
    assert.ok(Math.abs(covered - r.elapsedMs) <= 0.05 * r.elapsedMs, `${client(cell)}: buckets cover ${covered} ms of ${r.elapsedMs} ms`);
    let closedAt = 0;
    timeline.slice(0, -1).forEach((t, i) => {
      closedAt += t.ms;
      assert.ok(closedAt > (i + 1) * 1000 - 100, `${client(cell)}: full bucket ${i + 1} closed ${closedAt.toFixed(0)} ms into the phase`);
    });
    assert.equal(
      timeline.reduce((a, t) => a + t.count, 0),
      r.count,
      `${client(cell)}: the timeline adds up to the count`,
    );
    assert.equal((r.operations as Record<string, { count: number }>).select1?.count, r.count, `${client(cell)}: select1 is every operation`);
    assert.ok(r.serverRpcs !== null, 'the fake target counts RPCs');
    assert.equal(countedBy(cell.channels, 'fake').rpcs, r.serverRpcs, `${client(cell)}: channel stats add up to the RPCs served`);
    if (cell.clientLanguage === 'java') {
      assert.ok(r.cpuMs > 0);
      const warm = Math.max(200, 20 * cell.concurrency);
      // The client's count ends with its result; a session pool's DeleteSession calls on close come after.
      const mine = countedBy(cell.channels, 'client').rpcs;
      assert.ok(mine <= r.serverRpcs && mine >= r.count + warm, `${client(cell)}: the client counted ${mine} RPCs, the fake ${r.serverRpcs}, for ${r.count} + ${warm} operations`);
      assert.ok(r.serverRpcs >= r.count + warm);
    }
  }
  assert.equal(job.cells.filter((c) => c.clientGrpcVersion === '1.17.0').length, 1, 'the pinned build is a client of its own');
  assert.deepEqual(await installOutcomes('java'), [
    ['6.104.0', true],
    ['6.110.0', false],
    ['6.123.0', true],
  ]);
  // Builds against a pinned grpc-go are not what the launch form lists as a published version.
  assert.deepEqual(await installOutcomes('go'), [
    ['1.33.0', true],
    ['1.96.1', true],
    ['1.999.0', false],
  ]);
  const env = (await stack.db.job.findUniqueOrThrow({ where: { id: job.id } })).environment as { toolchains: { go?: string } };
  assert.match(env.toolchains.go ?? '', /^go1\.\d+/, 'the job records the Go toolchain it ran with');
});
