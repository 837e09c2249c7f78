// The field scenario presets, each run end to end in a small form (fewer clients, cells and seconds,
// a short warm-up, fewer agents where the effect does not need many) through the runner against the
// fake, showing the effect it is named for. Each preset's full form (every client, level and second the
// launch form offers) runs with `npm run bench:preset -- <preset id>`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CellEventsSchema,
  CellTimelineSchema,
  CellTokensSchema,
  CellUncorrectedSchema,
  OperationSummarySchema,
  SCENARIO_PRESETS,
  cellCeilingFigures,
  configurationLimit,
  latencySplit,
  modeledCeiling,
  parseJobSpec,
  type CeilingCell,
  type FakeTarget,
  type JobSpecInput,
} from '@scb/shared';
import { useRunner } from '../helpers/jobs';

const { runSpec, logs } = useRunner();

function preset(id: string): JobSpecInput {
  const p = SCENARIO_PRESETS.find((x) => x.id === id);
  assert.ok(p, id);
  return structuredClone(p.spec);
}

type Job = Awaited<ReturnType<typeof runSpec>>;
const summary = (cell: Job['cells'][number], kind: string) => OperationSummarySchema.parse((cell.result!.operations as Record<string, unknown>)[kind]);

/** The preset with some of its client/configuration pairs only (presets that pair them). */
function only(spec: JobSpecInput, ...pairs: number[]): JobSpecInput {
  return { ...spec, clients: pairs.map((i) => spec.clients[i]!), configurations: pairs.map((i) => spec.configurations![i]!) };
}

async function run(spec: JobSpecInput): Promise<Job> {
  const job = await runSpec(spec, 900_000);
  assert.equal(job.status, 'succeeded', `${job.error}\n${logs.slice(-30).join('\n')}`);
  for (const c of job.cells) assert.equal(c.status, 'succeeded', `${c.clientLanguage} ${c.clientVersion} ${c.configLabel}: ${c.error}`);
  return job;
}

/** The session-pool-exhaustion test's time scale (the preset's is 4). */
const POOL_TIME_SCALE = 6;

test('session-pool-exhaustion: past what 100 sessions serve, qps stops growing and the gap climbs while the server stays flat', { timeout: 900_000 }, async () => {
  const spec = only(preset('session-pool-exhaustion'), 0);
  spec.concurrency = [20, 400];
  spec.workload.durationSeconds = 5;
  // Time scale 6, not the preset's 4 (RPCs of 210 ms): the client's and the fake's own time per
  // transaction, which the pool's modeled ceiling leaves out, weigh a third less beside it. At 4, a run
  // on the slower 2-core machine was held at 199 ops/s of a 285 ceiling twice (70% is the rule), with 86
  // to 95 sessions in use.
  spec.timeScale = POOL_TIME_SCALE;
  // The preset's two transactions an agent at C=400 (the pool full and the client steady, so that the
  // measured qps reaches the pool's ceiling), 40 at C=20 (the preset's 200 there take 9 s).
  spec.workload.warmupOps = { min: 40, perConcurrency: 2 };
  // The pool held the cell only if it reached 70% of the pool's ceiling (HELD_SHARE) with 80 or more
  // sessions in use for half its seconds: at time scale 4 this small form reached about 70% (a CI run: 199
  // of 284 ops/s, just under, with 93, 94, 91, 87, 87 in use; the next run 70% of 289). A job not held
  // is run once more; the next one must be held.
  let held = await poolExhaustion(spec);
  if (held === null) {
    console.log('# C=400: not held by the pool (under 70% of its ceiling, or not full for half the seconds); run again');
    held = await poolExhaustion(spec);
  }
  assert.match(held ?? '', /^session pool at or near its maximum 100 /);
});

/** One session-pool-exhaustion job at C=20 and 400, its figures checked: the sentence that says the C=400 cell's pool held it, or null. */
async function poolExhaustion(spec: JobSpecInput): Promise<string | null> {
  const job = await run(spec);
  const [low, high] = job.cells.map((c) => ({ c: c.concurrency, qps: c.result!.qps, ro: summary(c, 'readOnlyTxn'), addedP99Ms: c.result!.targetAddedP99Ms! }));
  const lowSplit = latencySplit(low!.ro)!;
  const highSplit = latencySplit(high!.ro)!;
  console.log(
    `# C=20: ${low!.qps.toFixed(0)} qps, readOnlyTxn client p50 ${low!.ro.p50Ms.toFixed(0)} ms, server ${lowSplit.serverP50Ms.toFixed(0)} ms; ` +
      `C=400: ${high!.qps.toFixed(0)} qps, client p50 ${high!.ro.p50Ms.toFixed(0)} ms, server ${highSplit.serverP50Ms.toFixed(0)} ms`,
  );
  // 20 times the agents, far less than 20 times the throughput.
  assert.ok(high!.qps < 0.75 * 20 * low!.qps, `qps ${low!.qps} -> ${high!.qps}`);
  // The server's time per RPC stays what the fake applies (35 ms x the time scale), plus the fake's own
  // time as the same cell measured it (0.5 ms: the histograms' rounding), however long the client queues.
  const serverMs = 35 * POOL_TIME_SCALE;
  for (const { ro, addedP99Ms } of [low!, high!]) {
    assert.ok(ro.server!.p50Ms >= serverMs && ro.server!.p50Ms <= serverMs + addedP99Ms + 0.5, `server p50 per RPC ${ro.server!.p50Ms} (the fake added up to ${addedP99Ms} ms at p99)`);
  }
  assert.ok(highSplit.gapShare > 0.35 && highSplit.gapShare > lowSplit.gapShare + 0.2, `gap ${lowSplit.gapShare} -> ${highSplit.gapShare}`);
  // The pool's own figures, sampled every second in the driver: pinned at its maximum of 100 in use.
  const inUse = job.cells.map((c) => CellTimelineSchema.parse(c.result!.timeline).map((t) => t.pool?.num_in_use_sessions ?? Number.NaN));
  console.log(`# sessions in use per second: C=20 ${inUse[0]!.join(', ')}; C=400 ${inUse[1]!.join(', ')}`);
  assert.ok(Math.max(...inUse[0]!) < 60, `C=20: at most ${Math.max(...inUse[0]!)} sessions in use`);
  // The last bucket closes once every operation has ended: nothing is in use then.
  const full = inUse[1]!.slice(0, -1).sort((a, b) => a - b);
  assert.ok(full[Math.floor(full.length / 2)]! >= 80, `C=400: sessions in use ${inUse[1]!.join(', ')}`);
  // The modeled ceiling is the pool's, not what 400 agents thinking 400 ms allow, and the pool held it there.
  const cell = job.cells[1]!;
  const parsed = parseJobSpec(spec);
  assert.ok(parsed.ok);
  const figures = cellCeilingFigures(parsed.value, {
    concurrency: cell.concurrency,
    client: { language: cell.clientLanguage },
    configuration: parsed.value.configurations[0]!,
    operations: cell.result!.operations as CeilingCell['operations'],
    channels: cell.channels,
    timeline: CellTimelineSchema.parse(cell.result!.timeline),
  });
  const ceiling = modeledCeiling(figures)!;
  const held = configurationLimit(ceiling, { ...figures, qps: cell.result!.qps });
  console.log(`# C=400: ceiling ${ceiling.qps.toFixed(0)} ops/s (${ceiling.limit}), no limits ${ceiling.noLimitsQps.toFixed(0)}; ${held}`);
  assert.equal(ceiling.limit, 'pool');
  return held ?? null;
}

test('session-pool-exhaustion on Node 9.0.0 and Java 6.104.0 with their pools: 100 sessions in use, callers waiting for one', { timeout: 900_000 }, async () => {
  const spec = only(preset('session-pool-exhaustion'), 1, 2);
  spec.concurrency = [400];
  // 4 s: at least three full seconds of pool samples before the partial last one (Java drains at once).
  spec.workload.durationSeconds = 4;
  spec.workload.warmupOps = { min: 40, perConcurrency: 0.25 };
  const job = await run(spec);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // Each client's own names: Node's pool getters, Java's SessionPool accessors.
  const names = { node: { inUse: 'borrowed', open: 'size' }, java: { inUse: 'in_use', open: 'total' } } as const;
  for (const cell of job.cells) {
    const name = names[cell.clientLanguage as keyof typeof names];
    const ro = summary(cell, 'readOnlyTxn');
    const split = latencySplit(ro)!;
    const pool = CellTimelineSchema.parse(cell.result!.timeline).map((t) => t.pool);
    console.log(
      `# ${cell.clientLanguage} ${cell.clientVersion} C=400: ${cell.result!.qps.toFixed(0)} qps, readOnlyTxn client p50 ${ro.p50Ms.toFixed(0)} ms, server ${split.serverP50Ms.toFixed(0)} ms; ` +
        `in use ${pool.map((p) => p?.[name.inUse]).join(', ')}; waiting ${pool.map((p) => p?.waiting).join(', ')}`,
    );
    const full = pool.slice(0, -1);
    assert.ok(full.length >= 3 && full.every((p) => p !== undefined), `${cell.clientLanguage}: a pool sample every second`);
    assert.ok(median(full.map((p) => p![name.inUse]!)) >= 80, `${cell.clientLanguage}: sessions in use near the maximum of 100`);
    assert.ok(Math.max(...full.map((p) => p![name.open]!)) <= 100, `${cell.clientLanguage}: never more than 100 sessions`);
    assert.ok(median(full.map((p) => p!.waiting!)) >= 50, `${cell.clientLanguage}: callers waiting for a session`);
    assert.ok(split.gapShare > 0.35, `${cell.clientLanguage}: gap ${split.gapShare}`);
  }
});

// Go 1.33.0 only: Node's and Java's pools at their limit are the test above, each driver's open loop
// (rate, intended start, the outstanding cap) is in driver-conformance.test.ts; all three together are
// `npm run bench:preset -- session-pool-exhaustion-open`.
test('session-pool-exhaustion, open loop, on Go 1.33.0: past the pool, arrivals queue and the corrected latency shows it', { timeout: 900_000 }, async () => {
  const spec = only(preset('session-pool-exhaustion-open'), 0);
  spec.arrivalRates = [100, 400];
  spec.workload.durationSeconds = 4;
  spec.workload.warmupOps = 100;
  const job = await run(spec);
  for (const language of ['go']) {
    const [calm, over] = job.cells
      .filter((c) => c.clientLanguage === language)
      .sort((a, b) => a.concurrency - b.concurrency)
      .map((c) => ({ ...c.result!, uncorrected: CellUncorrectedSchema.parse(c.result!.uncorrected) }));
    const text = (r: NonNullable<typeof calm>) =>
      `${r.qps.toFixed(0)} ops/s, p99 ${r.p99Ms.toFixed(0)} ms (uncorrected ${r.uncorrected!.p99Ms.toFixed(0)}), ${r.outstandingCapWaits} waited for the cap, lag p99 ${r.scheduleLagP99Ms!.toFixed(2)} ms`;
    console.log(`# ${language}: 100/s ${text(calm!)}; 400/s ${text(over!)}; p50 ${over!.p50Ms.toFixed(0)} (uncorrected ${over!.uncorrected!.p50Ms.toFixed(0)})`);
    // Under what 100 sessions serve (about 290 transactions a second here): on schedule, nothing waits.
    assert.equal(calm!.outstandingCapWaits, 0, `${language} at 100/s`);
    assert.ok(calm!.p50Ms <= 1.1 * calm!.uncorrected!.p50Ms, `${language} at 100/s: p50 ${calm!.p50Ms} vs uncorrected ${calm!.uncorrected!.p50Ms}`);
    // Past it, arrivals outrun the pool: fewer complete than arrive, the 200 workers fill and most
    // later arrivals wait for one. Their wait is in the corrected latency and not in the uncorrected
    // one, so the corrected median is the higher (and no percentile is lower).
    assert.ok(over!.qps < 0.9 * 400, `${language} at 400/s: ${over!.qps} ops/s`);
    assert.ok(over!.outstandingCapWaits! > over!.count / 2, `${language} at 400/s: ${over!.outstandingCapWaits} of ${over!.count} waited for the cap`);
    assert.ok(over!.p50Ms > over!.uncorrected!.p50Ms, `${language} at 400/s: p50 ${over!.p50Ms} vs uncorrected ${over!.uncorrected!.p50Ms}`);
    assert.ok(over!.p99Ms >= over!.uncorrected!.p99Ms, `${language} at 400/s: p99 ${over!.p99Ms} vs uncorrected ${over!.uncorrected!.p99Ms}`);
  }
});

test('abort-backoff: an aborted streaming query costs cloud.google.com/go 0.35.0 its 1 s default; a client that reads RetryInfo does not wait', { timeout: 900_000 }, async () => {
  const spec = preset('abort-backoff');
  spec.clients = [
    { language: 'go', version: '0.35.0', grpcVersion: '1.17.0' },
    { language: 'go', version: '1.96.1' },
  ];
  // Five agents, not ten: half the transactions, and 0.35.0's aborts (3 to 5 a second here) still fall
  // in every second.
  spec.concurrency = [5];
  spec.workload.durationSeconds = 4;
  const job = await run(spec);
  const [old, now] = job.cells.map((c) => summary(c, 'readWriteTxn'));
  console.log(`# readWriteTxn p99: go 0.35.0 ${old!.p99Ms.toFixed(0)} ms, go 1.96.1 ${now!.p99Ms.toFixed(0)} ms`);
  assert.ok(old!.p99Ms >= 900, `0.35.0 p99 ${old!.p99Ms}`);
  // Beside it in the same job: well under the wait that 0.35.0's p99 carries.
  assert.ok(now!.p99Ms < old!.p99Ms / 2, `1.96.1 p99 ${now!.p99Ms}, 0.35.0 ${old!.p99Ms}`);
  // The aborts are the fake's doing: its injected faults are marked per second of each cell.
  for (const c of job.cells) {
    const aborted = CellEventsSchema.parse(c.result!.events)!.flatMap((e) => (e.kind === 'faults-injected' && e.code === 'ABORTED' ? [e.count] : []));
    console.log(`# ${c.clientVersion}: ABORTED injected per second ${aborted.join(', ')}`);
    assert.ok(aborted.length >= 3, `${c.clientVersion}: faults marked in ${aborted.length} seconds`);
  }
});

test('hourly-reconnect: every connection reset at its age stalls requests for about the accept delay', { timeout: 900_000 }, async () => {
  const spec = preset('hourly-reconnect');
  spec.clients = [{ language: 'node', version: '9.0.0' }];
  spec.workload.durationSeconds = 9;
  // Five agents, not twenty: a reset stalls every call on the connection, however many there are.
  spec.concurrency = [5];
  spec.workload.warmupOps = 20;
  if (spec.target?.kind === 'fake') {
    const fake = spec.target as FakeTarget;
    fake.server = { ...fake.server, maxConnectionAgeMs: 3000 };
  }
  const job = await run(spec);
  const timeline = CellTimelineSchema.parse(job.cells[0]!.result!.timeline);
  const p99s = timeline.map((t) => t.p99Ms).sort((a, b) => a - b);
  console.log(`# per-second p99 (ms): ${timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')}`);
  assert.ok(p99s.at(-1)! >= 700, `the worst second's p99 ${p99s.at(-1)} ms`);
  // The fake's accounting marks the resets on the timeline: the worst second lies between a closed
  // connection and the second after its replacement opened (the stalled calls end there).
  const events = CellEventsSchema.parse(job.cells[0]!.result!.events)!;
  console.log(`# connection events (ms into the measured phase): ${events.map((e) => `${e.kind.replace('connection-', '')} ${e.atMs}`).join(', ')}`);
  const worst = timeline.findIndex((t) => t.p99Ms === p99s.at(-1)) + 1;
  const second = (ms: number) => Math.floor(ms / 1000) + 1;
  const resets = events.flatMap((e) => {
    if (e.kind !== 'connection-closed') return [];
    const opened = events.find((o) => o.kind === 'connection-opened' && o.atMs >= e.atMs);
    return [{ closed: second(e.atMs), opened: opened ? second(opened.atMs) : timeline.length }];
  });
  assert.ok(resets.length >= 2, 'a reset about every 3 s');
  assert.ok(
    resets.some((r) => worst >= r.closed && worst <= r.opened + 1),
    `worst second ${worst}; resets (closed..opened second) ${resets.map((r) => `${r.closed}..${r.opened}`).join(', ')}`,
  );
  // Most seconds see no reset: the median second's p99 is well under the worst's.
  assert.ok(p99s[Math.floor(p99s.length / 2)]! < p99s.at(-1)! / 2, `the median second's p99 ${p99s[Math.floor(p99s.length / 2)]} ms, the worst ${p99s.at(-1)} ms`);
});

// Go 1.33.0 with a pool minimum of 100 and 1.96.1 with its multiplexed session; the preset's third cell,
// 1.33.0 with its client default, is `npm run bench:preset -- slow-session-creation`.
test('slow-session-creation: the first second of a cold client waits for its 600 ms sessions, later ones do not', { timeout: 900_000 }, async () => {
  const spec = only(preset('slow-session-creation'), 1, 2);
  spec.workload.durationSeconds = 3;
  // Five agents on 40 ms queries, not twenty on 10 ms: the same share of the first second's operations
  // waits for a session (more of it: 5 waiting against some 50 served in the rest of the second), at a
  // sixteenth of the operations.
  spec.concurrency = [5];
  (spec.target as FakeTarget).latencyMs = 40;
  const job = await run(spec);
  for (const c of job.cells) {
    const timeline = CellTimelineSchema.parse(c.result!.timeline);
    console.log(`# go ${c.clientVersion} ${c.configLabel}: per-second p99 ${timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')} ms`);
    // The first second in which operations ended (on a loaded machine a session of 600 ms and the
    // client's start can leave the very first empty: p99 0).
    const first = timeline.find((t) => t.count > 0)!;
    assert.ok(first.p99Ms >= 550, `${c.clientVersion} ${c.configLabel}: first second p99 ${first.p99Ms}`);
    // The last second waits for no session: well under the first.
    assert.ok(timeline.at(-1)!.p99Ms < first.p99Ms / 2, `${c.clientVersion} ${c.configLabel}: last second p99 ${timeline.at(-1)!.p99Ms}, first ${first.p99Ms}`);
  }
});

// Go 1.33.0, which refreshes at expiry and stalls, is launched from the form in test/e2e/field-presets.test.ts
// (one agent, tokens living 14 s there); here the client that refreshes in the background. This cell is
// also credentials.test.ts's check of Go 1.96.1 with short-lived tokens (every operation served, token
// requests marked, no second waiting for one): the same path, so that file runs no Go cell of its own for it.
test('token-refresh: a client that refreshes in the background asks the token endpoint often and no second waits for it', { timeout: 900_000 }, async () => {
  const spec = preset('token-refresh');
  spec.clients = [{ language: 'go', version: '1.96.1' }];
  // It asks about once a second at this short life: 5 s show it, no refresh at expiry is waited for.
  spec.workload.durationSeconds = 5;
  spec.concurrency = [1];
  const job = await run(spec);
  for (const c of job.cells) {
    const timeline = CellTimelineSchema.parse(c.result!.timeline);
    const marks = (CellEventsSchema.parse(c.result!.events) ?? []).filter((e) => e.kind === 'schedule-change' && e.text.startsWith('token request answered in'));
    console.log(`# go ${c.clientVersion}: token requests at ${marks.map((m) => (m.atMs / 1000).toFixed(1)).join(', ')} s; per-second p99 ${timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')} ms`);
    const stalled = timeline.filter((t) => t.p99Ms >= 900).map((t) => t.second);
    // Stored with the cell: every operation served, every RPC with a valid token.
    assert.deepEqual(c.result!.errors, {});
    const tokens = CellTokensSchema.parse(c.result!.tokens);
    assert.ok(tokens && tokens.valid > c.result!.count && tokens.missing + tokens.expired + tokens.invalid === 0, JSON.stringify(tokens));
    assert.ok(marks.length >= 5, `1.96.1 refreshes in the background, often at this short life (${marks.length})`);
    assert.deepEqual(stalled, [], 'and no second waits for it');
  }
});

test('slow-dns: grpc-go 1.18.0 resolves again at every reset but does not wait for the lookup; Go 1.96.1 does not resolve again within 30 s', { timeout: 900_000 }, async () => {
  const spec = preset('slow-dns');
  spec.clients = [
    { language: 'go', version: '0.37.0', grpcVersion: '1.18.0' },
    { language: 'go', version: '1.96.1' },
  ];
  spec.workload.durationSeconds = 9;
  // Two agents, not ten: a reconnect that waited for a lookup would stall every call, however many.
  spec.concurrency = [2];
  // Queries of 4 s: a reconnect that waited for one (SRV, then A) would stall a second 4 s or more.
  (spec.target as FakeTarget).dns = { lookupDelayMs: 4000 };
  // Connections reset at 3 s of age, not 5: two resets, and a lookup after the first, within 9 s.
  (spec.target as FakeTarget).server = { ...(spec.target as FakeTarget).server, maxConnectionAgeMs: 3000 };
  const job = await run(spec);
  for (const c of job.cells) {
    const timeline = CellTimelineSchema.parse(c.result!.timeline);
    const events = CellEventsSchema.parse(c.result!.events) ?? [];
    const lookups = events.filter((e) => e.kind === 'schedule-change' && /^DNS lookup A spanner\.bench\.test, answered in 4\d{3} ms$/.test(e.text));
    const closed = events.filter((e) => e.kind === 'connection-closed');
    console.log(
      `# go ${c.clientVersion}: A lookups at ${lookups.map((m) => (m.atMs / 1000).toFixed(1)).join(', ') || 'none'} s; resets at ${closed.map((m) => (m.atMs / 1000).toFixed(1)).join(', ')} s; per-second p99 ${timeline.map((t) => t.p99Ms.toFixed(0)).join(', ')} ms`,
    );
    assert.deepEqual(c.result!.errors, {});
    assert.ok(closed.length >= 2, 'the fake reset connections at their age');
    const worst = Math.max(...timeline.map((t) => t.p99Ms));
    assert.ok(worst < 3500, `${c.clientVersion}: a second's p99 reached ${worst.toFixed(0)} ms, as a reconnect waiting for a 4 s lookup would`);
    if (c.clientGrpcVersion === '1.18.0') {
      // Each lookup follows a reset (within the SRV query's 4 s and a little).
      assert.ok(lookups.length >= 1, 'grpc-go 1.18.0 resolves again after a reset');
      for (const l of lookups)
        assert.ok(
          closed.some((e) => e.atMs <= l.atMs && l.atMs - e.atMs <= 6000),
          `the A lookup at ${l.atMs} ms follows a reset`,
        );
    } else {
      const any = events.filter((e) => e.kind === 'schedule-change' && e.text.startsWith('DNS lookup'));
      assert.deepEqual(any, [], 'grpc-go resolves again 30 s after the last resolution at the earliest');
    }
  }
});
