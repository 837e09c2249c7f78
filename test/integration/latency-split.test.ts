// test: alone — the gap it checks is the client's time beyond the fake's, which a busy machine widens.
// The client/server latency split, end to end through the runner: the fake's own time per operation
// kind beside what the driver measured. With a known latency and nothing in the client's way the gap is
// small; with the server allowing two streams per connection, the client queues and the gap is the
// queueing, while the server's time stays the latency it applies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OperationSummarySchema, latencySplit } from '@scb/shared';
import { useRunner } from '../helpers/jobs';

const { runSpec } = useRunner();
const LATENCY_MS = 20;
/**
 * The split's own cells: at 20 ms, Node 9.0.0's own time per query at C=10 on a slower machine was
 * 12-22 ms at p50 (CI runs 32-35), half the operation's time once; at 40 ms the client adds about as
 * much to an operation twice as long.
 */
const SPLIT_LATENCY_MS = 40;

const spec = (maxConcurrentStreams: number) => ({
  clients: [{ language: 'node', version: '9.0.0' }],
  configurations: [{ label: 'grpc-gcp off', grpcGcp: 'off' }],
  concurrency: [10],
  target: { kind: 'fake', latencyMs: SPLIT_LATENCY_MS, server: { maxConcurrentStreams } },
  workload: {
    mix: [
      { operation: 'select1', weight: 3 },
      { operation: 'readWriteTxn', weight: 1 },
    ],
    warmupOps: 100,
    durationSeconds: 3,
  },
});

async function operationsOf(maxConcurrentStreams: number) {
  const job = await runSpec(spec(maxConcurrentStreams), 300_000);
  assert.equal(job.status, 'succeeded', job.error ?? '');
  const result = job.cells[0]!.result!;
  const ops = result.operations as Record<string, unknown>;
  return {
    select1: OperationSummarySchema.parse(ops.select1),
    readWriteTxn: OperationSummarySchema.parse(ops.readWriteTxn),
    /** The fake's own time per RPC beyond the latency it applied, p99 over the cell: its share of a slow machine. */
    addedP99Ms: result.targetAddedP99Ms!,
  };
}

test('the server side of each operation kind is the latency the fake applied; the gap is what the client adds', { timeout: 600_000 }, async () => {
  const free = await operationsOf(100);
  // select1 is one RPC; a read-write transaction is a query, an insert and a commit (a begin too where the client does not inline it).
  assert.ok(Math.abs(free.select1.server!.rpcsPerOp - 1) < 0.1, `select1: ${free.select1.server!.rpcsPerOp} RPCs per operation`);
  assert.ok(free.readWriteTxn.server!.rpcsPerOp >= 2.9 && free.readWriteTxn.server!.rpcsPerOp <= 4.1, `readWriteTxn: ${free.readWriteTxn.server!.rpcsPerOp} RPCs per operation`);
  // The server's time per RPC is the latency it applied plus its own time, which this cell measured
  // (0.5 ms: the histograms' rounding); per operation, not per RPC, a transaction would be 3 × the latency.
  const perRpc = (o: { server?: { p50Ms: number } }, addedP99Ms: number) => o.server!.p50Ms >= SPLIT_LATENCY_MS && o.server!.p50Ms <= SPLIT_LATENCY_MS + addedP99Ms + 0.5;
  for (const o of [free.select1, free.readWriteTxn]) {
    assert.ok(perRpc(o, free.addedP99Ms), `the server's p50 per RPC is its latency: ${o.server!.p50Ms} ms (the fake added up to ${free.addedP99Ms} ms at p99)`);
    const split = latencySplit(o)!;
    assert.ok(o.p50Ms >= split.serverP50Ms, `the client sees at least the server's time: ${o.p50Ms} vs ${split.serverP50Ms}`);
  }
  const freeGap = latencySplit(free.select1)!;
  assert.ok(freeGap.gapShare < 0.5, `nothing in the client's way: gap ${freeGap.gapP50Ms} ms of ${free.select1.p50Ms} ms`);
  console.log(`# 100 streams: select1 client p50 ${free.select1.p50Ms} ms, server ${freeGap.serverP50Ms} ms, gap ${freeGap.gapP50Ms.toFixed(1)} ms`);

  // Two streams on the one connection: 10 agents queue in the client; the server's time does not move.
  const queued = await operationsOf(2);
  const q = latencySplit(queued.select1)!;
  assert.ok(perRpc(queued.select1, queued.addedP99Ms), `the server's time per RPC stays its latency: ${queued.select1.server!.p50Ms} ms (the fake added up to ${queued.addedP99Ms} ms at p99)`);
  assert.ok(q.gapShare > 0.6 && q.gapP50Ms > 3 * freeGap.gapP50Ms, `queued for streams: gap ${q.gapP50Ms} ms of ${queued.select1.p50Ms} ms (free: ${freeGap.gapP50Ms} ms)`);
  console.log(`# 2 streams: select1 client p50 ${queued.select1.p50Ms} ms, server ${q.serverP50Ms} ms, gap ${q.gapP50Ms.toFixed(1)} ms (${(q.gapShare * 100).toFixed(0)}%)`);
});

test('each driver reads the server-timing header of its operations: per RPC the latency the fake applied, background RPCs left out', { timeout: 900_000 }, async () => {
  const job = await runSpec(
    {
      clients: [
        { language: 'node', version: '9.0.0' },
        { language: 'java', version: '6.123.0' },
        { language: 'go', version: '1.96.1' },
        // A session pool that prepares write sessions in the background (WriteSessions 0.2 by default).
        { language: 'go', version: '1.33.0' },
      ],
      configurations: [{ label: 'client default' }],
      concurrency: [4],
      target: { kind: 'fake', latencyMs: LATENCY_MS },
      // What is read here is the header's value per RPC (the fake's latency, rounded) and RPCs per
      // operation, neither of which needs time: 120 measured operations (about 30 of them transactions)
      // after the warm-up in which the clients create their sessions, not 2 s of them (about 260 at C = 4,
      // a transaction three RPCs of 20 ms).
      workload: { mix: spec(100).workload.mix, warmupOps: 50, measuredOps: 120 },
    },
    900_000,
  );
  assert.equal(job.status, 'succeeded', job.error ?? '');
  for (const c of job.cells) {
    const name = `${c.clientLanguage} ${c.clientVersion}`;
    assert.equal(c.status, 'succeeded', `${name}: ${c.error}`);
    const ops = c.result!.operations as Record<string, unknown>;
    const select1 = OperationSummarySchema.parse(ops.select1);
    const rw = OperationSummarySchema.parse(ops.readWriteTxn);
    console.log(`# ${name}: header select1 ${JSON.stringify(select1.serverTiming)}, readWriteTxn ${JSON.stringify(rw.serverTiming)}; fake's own ${JSON.stringify(rw.server)}`);
    for (const o of [select1, rw]) {
      assert.ok(o.serverTiming, `${name}: the header was read`);
      // The fake sends the latency it applied, rounded to the ms.
      assert.ok(Math.abs(o.serverTiming.p50Ms - LATENCY_MS) <= 1, `${name}: header p50 per RPC ${o.serverTiming.p50Ms} ms`);
    }
    assert.ok(Math.abs(select1.serverTiming!.rpcsPerOp - 1) < 0.1, `${name}: select1 ${select1.serverTiming!.rpcsPerOp} RPCs per operation`);
    assert.ok(rw.serverTiming!.rpcsPerOp >= 2.9 && rw.serverTiming!.rpcsPerOp <= 4.1, `${name}: readWriteTxn ${rw.serverTiming!.rpcsPerOp} RPCs per operation`);
    // What the fake attributes by statement includes what the client does on its own; the header does not.
    assert.ok(rw.serverTiming!.rpcsPerOp <= rw.server!.rpcsPerOp + 0.01, `${name}: header ${rw.serverTiming!.rpcsPerOp} vs the fake's ${rw.server!.rpcsPerOp} RPCs per operation`);
  }
});
