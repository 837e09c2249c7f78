// test: alone — it compares per-second p99 inside and outside a slow window: files beside it made the seconds outside slow (CI runs D and F).
// Event marks end to end: a schedule entry of the fake that slows queries and injects faults for two
// seconds shows in the cell's events (where it began and ended, and the faults per second), and the
// per-second p99 moves with it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CellEventsSchema, CellTimelineSchema } from '@scb/shared';
import { useRunner } from '../helpers/jobs';

const { runSpec } = useRunner();
const LATENCY_MS = 20;

test('a schedule change and the faults it injects are marked where they happened, and the per-second p99 follows them', { timeout: 300_000 }, async () => {
  const job = await runSpec(
    {
      clients: [{ language: 'node', version: '9.0.0' }],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      // Schedule times count from the fake's start: the driver starts and warms up before it (a few
      // seconds when CI runs two files at once), so the slow window falls inside the 10 measured seconds.
      target: {
        kind: 'fake',
        // 20 ms, not 5: at 2,000 queries a second the Node driver's own CPU on a busy CI machine made the
        // seconds outside the window slow too (median p99 117 ms in one run).
        latencyMs: LATENCY_MS,
        server: { schedule: [{ fromSeconds: 6, untilSeconds: 8, latency: { query: 150 }, faults: [{ kind: 'query', code: 'UNAVAILABLE', ratio: 0.05 }] }] },
      },
      workload: { operation: 'select1', warmupOps: 50, durationSeconds: 10 },
    },
    300_000,
  );
  assert.equal(job.status, 'succeeded', job.error ?? '');
  const result = job.cells[0]!.result!;
  const events = CellEventsSchema.parse(result.events)!;
  const timeline = CellTimelineSchema.parse(result.timeline);
  console.log(`# events: ${JSON.stringify(events)}`);
  console.log(`# per-second p99 (ms): ${timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')}`);
  const schedule = events.flatMap((e) => (e.kind === 'schedule-change' ? [e] : []));
  assert.deepEqual(
    schedule.map((e) => e.text),
    ['schedule 1 begins: query 150 ms, UNAVAILABLE on query 5%', 'schedule 1 ends'],
  );
  const [begins, ends] = schedule.map((e) => e.atMs) as [number, number];
  assert.ok(Math.abs(ends - begins - 2000) < 50, `two seconds apart: ${begins} .. ${ends}`);
  // Whole seconds inside the window are slow; the seconds outside it are not: their median p99 is more
  // than half what the entry adds (150 ms against LATENCY_MS) below the slow seconds' (same run, same overheads; a median, as
  // one second of a cold client on a busy machine may be slow by itself).
  const second = (ms: number) => Math.floor(ms / 1000) + 1;
  const inside = timeline.filter((t) => t.second > second(begins) && t.second < second(ends));
  assert.ok(inside.length >= 1 && inside.every((t) => t.p99Ms >= 140), `inside the window: ${inside.map((t) => t.p99Ms).join(', ')}`);
  const outside = timeline
    .filter((t) => t.second < second(begins) || t.second > second(ends))
    .map((t) => t.p99Ms)
    .sort((a, b) => a - b);
  assert.ok(outside.length >= 3, `seconds outside the window: ${outside.length}`);
  const median = outside[Math.floor(outside.length / 2)]!;
  assert.ok(median < Math.min(...inside.map((t) => t.p99Ms)) - (150 - LATENCY_MS) / 2, `outside the window: median p99 ${median} of ${outside.join(', ')}`);
  // Faults only while the entry held, counted per second.
  const faults = events.flatMap((e) => (e.kind === 'faults-injected' ? [e] : []));
  assert.ok(faults.length >= 1 && faults.every((f) => f.rpc === 'query' && f.code === 'UNAVAILABLE' && f.count > 0));
  for (const f of faults) assert.ok(f.atMs >= Math.floor(begins / 1000) * 1000 && f.atMs <= ends, `fault second at ${f.atMs} ms, window ${begins} .. ${ends}`);
});
