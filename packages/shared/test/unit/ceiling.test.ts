import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellCeilingFigures, configurationLimit, modeledCeiling, serverMsPerOperation, type CeilingFigures } from '../../src/results/ceiling';
import '../../src/job/languages';
import { verdictLegend, verdictReasons, withConfigurationLimit, worstVerdict } from '../../src/results/verdict';
import type { OperationSummary } from '../../src/stored';

const op = (count: number, rpcsPerOp: number, p50Ms: number) => ({ count, server: { rpcsPerOp, p50Ms, p99Ms: p50Ms, rpcs: count * rpcsPerOp } }) as unknown as OperationSummary;

test("Node with grpc-gcp off at C=300 and 65 ms: one connection's 100 streams set the ceiling, and held the cell there", () => {
  const f: CeilingFigures = { concurrency: 300, thinkMs: 0, serverMsPerOp: 65, connections: 1, streamLimit: 100, poolMax: null, poolFullShare: null };
  const c = modeledCeiling(f)!;
  assert.equal(c.limit, 'streams');
  assert.equal(Math.round(c.qps), Math.round(100_000 / 65));
  assert.equal(Math.round(c.noLimitsQps), Math.round(300_000 / 65), 'C / L stays as the no-limits line');
  // The landed product's figures: 1,266 qps, peak 100 in flight.
  const held = configurationLimit(c, { ...f, qps: 1266, peakInFlight: 100 });
  assert.match(held ?? '', /^held at the stream limit: 1 connection × 100 streams \(at most 1538 ops\/s, 82% reached\)$/);
  const v = withConfigurationLimit({ kind: 'clean', limits: [] }, held);
  assert.equal(v.kind, 'configuration-bound');
  assert.match(verdictReasons(v), /held at the stream limit/);
  // Below the limit in flight, the streams did not hold it, whatever the model says.
  assert.equal(configurationLimit(c, { ...f, qps: 1266, peakInFlight: 80 }), null);
  // Far under the ceiling, something else held it.
  assert.equal(configurationLimit(c, { ...f, qps: 500, peakInFlight: 100 }), null);
});

test("a think-time cell's ceiling is agents / (think + server time); held there, it says so", () => {
  const f: CeilingFigures = { concurrency: 10, thinkMs: 100, serverMsPerOp: 20, connections: 2, streamLimit: 100, poolMax: null, poolFullShare: null };
  const c = modeledCeiling(f)!;
  assert.equal(c.limit, 'think');
  assert.equal(c.qps, 10_000 / 120);
  assert.match(configurationLimit(c, { ...f, qps: 80, peakInFlight: 3 }) ?? '', /^think time: 10 agents thinking 100 ms \(at most 83 ops\/s, 96% reached\)$/);
});

test('a closed loop with no think time and streams to spare has the no-limits ceiling and no configuration limit', () => {
  const f: CeilingFigures = { concurrency: 50, thinkMs: 0, serverMsPerOp: 65, connections: 4, streamLimit: 100, poolMax: null, poolFullShare: null };
  const c = modeledCeiling(f)!;
  assert.equal(c.limit, 'agents');
  assert.equal(c.qps, c.noLimitsQps);
  assert.equal(configurationLimit(c, { ...f, qps: 740, peakInFlight: 14 }), null);
  assert.equal(modeledCeiling({ ...f, serverMsPerOp: null }), null, 'no server time, no model');
  assert.equal(modeledCeiling({ ...f, streamLimit: null })!.limit, 'agents', 'a target whose stream limit is unknown');
});

test("the server's time per operation weighs each kind of a mix by its count", () => {
  assert.equal(serverMsPerOperation({ select1: op(30, 1, 10), readWriteTxn: op(10, 3, 10) }), 15);
  assert.equal(serverMsPerOperation({ select1: { ...op(30, 1, 10), server: undefined } as OperationSummary }), null, 'a kind without the server side');
  assert.equal(serverMsPerOperation(null), null);
});

test('configuration-bound ranks above clean and below client-bound and harness-bound; a saturated cell keeps its verdict', () => {
  assert.equal(worstVerdict(['clean', 'configuration-bound']), 'configuration-bound');
  assert.equal(worstVerdict(['configuration-bound', 'client-bound']), 'client-bound');
  assert.equal(worstVerdict(['harness-bound', 'configuration-bound']), 'harness-bound');
  const harness = { kind: 'harness-bound' as const, limits: [{ name: 'targetLoop' as const, process: 'fake' as const, value: 0.9, threshold: 0.75 }] };
  assert.equal(withConfigurationLimit(harness, 'held at the stream limit').kind, 'harness-bound');
  assert.match(verdictLegend(['configuration-bound']), /^`~` configuration-bound: /);
});

test('session pool exhaustion: 100 sessions, not 400 agents thinking 400 ms, set the ceiling; a pool full most seconds held the cell there', () => {
  // The preset's shape: time scale 4, 140 ms RPCs, a 4:1 mix of read-only (2 RPCs) and read-write (3 RPCs) transactions.
  const operations = { readOnlyTxn: op(400, 2, 140), readWriteTxn: op(100, 3, 140) };
  const cell = {
    concurrency: 400,
    client: { language: 'go' },
    configuration: { sessionPool: { maxSessions: 100 } },
    operations,
    // Go 1.33.0's four connections.
    channels: [1, 2, 3, 4].map(() => ({ rpcs: 225, peakInFlight: 30 })),
    // The last second is partial: the pool empties as the cell ends.
    timeline: [76, 100, 95, 89, 100, 13].map((n) => ({ pool: { num_in_use_sessions: n } })),
  };
  const f = cellCeilingFigures({ workload: { thinkTime: { ms: 100, distribution: 'fixed' } } as never, timeScale: 4, target: { kind: 'fake', latencyMs: 35 } as never }, cell);
  assert.equal(f.thinkMs, 400);
  assert.equal(f.serverMsPerOp, 308);
  assert.equal(f.poolFullShare, 4 / 5, 'four of the five full seconds at 80 or more in use');
  const c = modeledCeiling(f)!;
  assert.equal(c.limit, 'pool');
  assert.equal(Math.round(c.qps), Math.round(100_000 / 308));
  assert.ok(c.qps < (400 * 1000) / (308 + 400), 'below what the agents and their think time allow');
  assert.match(configurationLimit(c, { ...f, qps: 249 }) ?? '', /^session pool at or near its maximum 100 \(80 or more in use\) for 80% of the measured seconds \(at most 325 ops\/s, 77% reached\)$/);
  // A pool that was seldom full did not hold the cell, whatever the model says.
  assert.equal(configurationLimit(c, { ...f, poolFullShare: 0.2, qps: 249 }), null);
  // Without a configured maximum, or on a language without pool figures, there is no pool limit.
  assert.equal(modeledCeiling({ ...f, poolMax: null })!.limit, 'think');
  assert.equal(cellCeilingFigures({ workload: {} as never, timeScale: 1, target: { kind: 'fake', latencyMs: 35 } as never }, { ...cell, client: { language: 'cobol' } }).poolFullShare, null);
});

test("an open loop's ceiling is its offered rate, unless its outstanding cap, streams or pool allow less; held at the cap, it says so", () => {
  const f: CeilingFigures = { concurrency: 20, arrivalRate: 100, thinkMs: 0, serverMsPerOp: 50, connections: 1, streamLimit: 100, poolMax: null, poolFullShare: null };
  const under = modeledCeiling(f)!;
  assert.deepEqual([under.limit, under.qps, under.noLimitsQps], ['rate', 100, 100], 'under every limit: the rate');
  assert.equal(configurationLimit(under, { ...f, qps: 99, peakInFlight: 6, capWaits: 0 }), null, 'the rate held it: clean');
  const capped = modeledCeiling({ ...f, arrivalRate: 1000 })!;
  assert.deepEqual([capped.limit, capped.qps], ['outstanding', 400], '20 at once at 50 ms: 400 ops/s');
  assert.match(
    configurationLimit(capped, { ...f, arrivalRate: 1000, qps: 390, peakInFlight: 20, capWaits: 1500 }) ?? '',
    /^held at the outstanding cap: 20 operations at once, 1500 arrivals waited for it/,
  );
});
