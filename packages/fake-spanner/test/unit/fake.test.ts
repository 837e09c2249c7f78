// test: alone — the worker-thread test compares what two fakes added in one run; starved in the idle cgroup (where unit files yield) the one on its own thread added 196 ms against 339 ms.
// The fake as a product: a raw grpc-js client (no Spanner library) checks its answers and accounting.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { FakeBehaviourSchema } from '@scb/shared';
import { driverResultSet, ResultSetSchema } from '@scb/shared/result-set';
import { startFakeSpanner, startFakeSpannerThread, type FakeSpanner } from '../../src/index';
import { spannerService } from '../../src/proto';

const Client = grpc.makeClientConstructor(spannerService(), 'Spanner') as unknown as new (addr: string, creds: grpc.ChannelCredentials, opts?: object) => any;
const DB = 'projects/p/instances/i/databases/d';

let fake: FakeSpanner;
before(async () => {
  fake = await startFakeSpanner({ latencyMs: 20 });
});
after(() => fake.stop());

// A private subchannel pool gives each client its own HTTP/2 connection.
const connect = () => new Client(`${fake.host}:${fake.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
const unary = (c: any, method: string, req: object, md = new grpc.Metadata()) => new Promise<any>((resolve, reject) => c[method](req, md, (e: Error | null, r: any) => (e ? reject(e) : resolve(r))));
const stream = (c: any, req: object) =>
  new Promise<{ parts: any[]; headers: grpc.Metadata | undefined }>((resolve, reject) => {
    const parts: any[] = [];
    let headers: grpc.Metadata | undefined;
    const call = c.ExecuteStreamingSql(req);
    call.on('metadata', (m: grpc.Metadata) => (headers = m));
    call.on('data', (d: any) => parts.push(d));
    call.on('error', reject);
    call.on('end', () => resolve({ parts, headers }));
  });

test('sessions, SELECT 1 on both query RPCs, and server-timing', async () => {
  const c = connect();
  const mux = await unary(c, 'CreateSession', { database: DB, session: { multiplexed: true } });
  assert.ok(mux.name.startsWith(`${DB}/sessions/`));
  assert.equal(mux.multiplexed, true);
  const batch = await unary(c, 'BatchCreateSessions', { database: DB, sessionCount: 3 });
  assert.equal(batch.session.length, 3);
  assert.equal(new Set(batch.session.map((s: any) => s.name)).size, 3);
  assert.equal((await unary(c, 'GetSession', { name: mux.name })).name, mux.name);

  const rs = await unary(c, 'ExecuteSql', { session: mux.name, sql: 'SELECT 1' });
  assert.equal(rs.metadata.rowType.fields[0].type.code, 'INT64');
  assert.equal(rs.rows[0].values[0].stringValue, '1');

  const t0 = Date.now();
  const { parts, headers } = await stream(c, { session: mux.name, sql: 'SELECT 1' });
  assert.ok(Date.now() - t0 >= 19, 'the configured latency is applied');
  assert.equal(parts.length, 1);
  assert.equal(parts[0].values[0].stringValue, '1');
  assert.equal(headers?.get('server-timing')[0], 'gfet4t7; dur=20');
  c.close();
});

test('an unknown statement is INVALID_ARGUMENT naming the statement', async () => {
  const c = connect();
  await assert.rejects(unary(c, 'ExecuteSql', { session: `${DB}/sessions/x`, sql: 'SELECT * FROM Nope' }), (e: any) => {
    assert.equal(e.code, grpc.status.INVALID_ARGUMENT);
    assert.match(e.details, /unknown statement: SELECT \* FROM Nope/);
    return true;
  });
  await assert.rejects(stream(c, { session: `${DB}/sessions/x`, sql: 'DELETE FROM x' }), (e: any) => e.code === grpc.status.INVALID_ARGUMENT);
  c.close();
});

test('accounting: RPCs and peak in-flight per connection; reset forgets', async () => {
  fake.resetStats();
  const a = connect();
  const b = connect();
  await Promise.all(Array.from({ length: 7 }, () => stream(a, { session: 's', sql: 'SELECT 1' })));
  await Promise.all(Array.from({ length: 3 }, () => stream(b, { session: 's', sql: 'SELECT 1' })));
  const s = fake.stats();
  assert.equal(s.totalRpcs, 10);
  assert.deepEqual(s.connections.map((c) => c.rpcs).sort(), [3, 7]);
  assert.deepEqual(s.connections.map((c) => c.peakInFlight).sort(), [3, 7]);
  assert.ok(s.connections.every((c) => c.inFlight === 0));
  assert.notEqual(s.connections[0].peer, s.connections[1].peer);
  fake.resetStats();
  assert.equal(fake.stats().totalRpcs, 0);
  assert.equal(fake.stats().connections.length, 0);
  a.close();
  b.close();
});

test("wire bytes: what the fake wrote to its connections while measuring, a scan's parts and their framing", async () => {
  const shape = ResultSetSchema.parse({ rows: 2000, columns: [{ type: 'STRING', bytes: 100 }, { type: 'INT64' }], chunkBytes: 65_536 });
  const scanning = await startFakeSpanner({ latencyMs: 1, resultSets: [shape] });
  const c = new grpc.Client(`${scanning.host}:${scanning.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  const def = spannerService().ExecuteStreamingSql!;
  // The answer's messages as bytes: what the fake serialized, before gRPC's and HTTP/2's framing.
  const scan = () =>
    new Promise<{ bytes: number; messages: number }>((resolve, reject) => {
      const got = { bytes: 0, messages: 0 };
      const call = c.makeServerStreamRequest(def.path, def.requestSerialize, (b: Buffer) => b, { session: 's', sql: driverResultSet(shape).sql });
      call.on('data', (b: Buffer) => {
        got.bytes += b.length;
        got.messages++;
      });
      call.on('end', () => resolve(got));
      call.on('error', reject);
    });
  try {
    await scan();
    assert.equal(scanning.stats().wireBytesSent, null, 'nothing counted before the measured phase');
    scanning.markMeasuring();
    const answers = [await scan(), await scan()];
    const payload = answers.reduce((a, x) => a + x.bytes, 0);
    const messages = answers.reduce((a, x) => a + x.messages, 0);
    const sent = scanning.stats().wireBytesSent!;
    // Each message with gRPC's 5-byte prefix, in HTTP/2 DATA frames of at most 16 KiB with 9-byte headers,
    // plus each answer's HEADERS and trailers: above the payload, and not by much.
    assert.ok(sent >= payload + 5 * messages, `${sent} bytes sent for ${payload} bytes of messages`);
    assert.ok(sent <= payload + 5 * messages + 9 * Math.ceil(payload / 16_384 + messages) + 2 * 1024, `${sent} bytes sent for ${payload} bytes of messages`);
    assert.ok(payload > 2 * 2000 * 100, `${payload} bytes: every string of both answers`);
  } finally {
    c.close();
    await scanning.stop();
  }
});

test('150 concurrent calls on one connection: at most 100 streams in flight', async () => {
  const slow = await startFakeSpanner({ latencyMs: 300 });
  try {
    const c = new Client(`${slow.host}:${slow.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    await Promise.all(Array.from({ length: 150 }, () => stream(c, { session: 's', sql: 'SELECT 1' })));
    const s = slow.stats();
    assert.equal(s.connections.length, 1);
    assert.equal(s.connections[0].rpcs, 150);
    assert.equal(s.connections[0].peakInFlight, 100);
    c.close();
  } finally {
    await slow.stop();
  }
});

test('ABORTED carries google.rpc.RetryInfo with the configured delay', async () => {
  const f = await startFakeSpanner({ faults: [{ kind: 'commit', code: 'ABORTED', ratio: 1, retryDelayMs: 1500 }] });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    await assert.rejects(unary(c, 'Commit', { session: 's', singleUseTransaction: { readWrite: {} }, mutations: [] }), (e: any) => {
      assert.equal(e.code, grpc.status.ABORTED);
      // RetryInfo { retry_delay: Duration { seconds: 1, nanos: 500000000 } }
      const info: Buffer = e.metadata.get('google.rpc.retryinfo-bin')[0];
      assert.deepEqual([...info], [0x0a, 0x08, 0x08, 0x01, 0x10, 0x80, 0xca, 0xb5, 0xee, 0x01]);
      assert.ok(e.metadata.get('grpc-status-details-bin')[0].includes(Buffer.from('google.rpc.RetryInfo')));
      return true;
    });
    assert.deepEqual(f.stats().faults, { commit: { ABORTED: 1 } });
    c.close();
  } finally {
    await f.stop();
  }
});

test('a multiplexed CreateSession is its own kind: only the first N fail (first), with codes the clients do not retry; a new configuration counts again', async () => {
  const f = await startFakeSpanner({ latency: { session: 5, multiplexedSession: 30 }, faults: [{ kind: 'multiplexedSession', code: 'DEADLINE_EXCEEDED', ratio: 1, first: 2 }] });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    const mux = () => unary(c, 'CreateSession', { database: DB, session: { multiplexed: true } });
    for (let i = 0; i < 2; i++) await assert.rejects(mux(), (e: any) => e.code === grpc.status.DEADLINE_EXCEEDED && /injected DEADLINE_EXCEEDED/.test(e.details));
    // Regular sessions are another kind: neither failed nor counted against `first`.
    assert.equal((await unary(c, 'BatchCreateSessions', { database: DB, sessionCount: 2 })).session.length, 2);
    const t0 = performance.now();
    assert.equal((await mux()).multiplexed, true, 'the third is answered');
    assert.ok(performance.now() - t0 >= 29, "a multiplexed CreateSession takes its own latency, not session's");
    const stats = f.stats();
    assert.deepEqual(stats.faults, { multiplexedSession: { DEADLINE_EXCEEDED: 2 } });
    assert.equal(stats.rpcsByMethod.CreateSession, 3);
    // Configured again: the first RPCs count from there.
    f.update(FakeBehaviourSchema.parse({ faults: [{ kind: 'multiplexedSession', code: 'PERMISSION_DENIED', ratio: 1, first: 1 }] }));
    await assert.rejects(mux(), (e: any) => e.code === grpc.status.PERMISSION_DENIED);
    assert.equal((await mux()).multiplexed, true);
    f.update(FakeBehaviourSchema.parse({ faults: [{ kind: 'session', code: 'INTERNAL', ratio: 1, first: 1 }] }));
    await assert.rejects(unary(c, 'CreateSession', { database: DB, session: {} }), (e: any) => e.code === grpc.status.INTERNAL);
    assert.equal((await mux()).multiplexed, true, 'a regular-session fault leaves multiplexed ones alone');
    c.close();
  } finally {
    await f.stop();
  }
});

test('holdTrailersMs: a streamed answer says `last` in its last part, and its trailers come that much later', async () => {
  const f = await startFakeSpanner({ latency: { query: 5 }, holdTrailersMs: 150 });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    const t0 = performance.now();
    let dataAt = 0;
    const parts: any[] = [];
    await new Promise<void>((resolve, reject) => {
      const call = c.ExecuteStreamingSql({ session: `${DB}/sessions/x`, sql: 'SELECT 1' });
      call.on('data', (d: any) => {
        dataAt = performance.now() - t0;
        parts.push(d);
      });
      call.on('error', reject);
      call.on('status', () => resolve());
    });
    const endAt = performance.now() - t0;
    assert.equal(parts.length, 1);
    assert.equal(parts[0].last, true);
    assert.ok(parts[0].resumeToken.length > 0, 'with a resume token, which Node 8.1.0 needs to end on `last`');
    assert.equal(parts[0].values[0].stringValue, '1');
    // The hold starts when the last part is written; a busy client sees that part a little late, so the
    // gap it measures may be shorter than the hold (142 ms of 150 in one CI run), the whole call never.
    assert.ok(endAt >= 5 + 150, `the call ended ${endAt.toFixed(0)} ms after it began, before the query's 5 ms and the 150 ms hold`);
    assert.ok(endAt - dataAt >= 100, `the trailers came ${(endAt - dataAt).toFixed(0)} ms after the last part`);
    // Without it: no `last`, trailers with the answer (as before).
    f.update(FakeBehaviourSchema.parse({ latency: { query: 5 } }));
    const { parts: plain } = await stream(c, { session: `${DB}/sessions/x`, sql: 'SELECT 1' });
    assert.ok(!plain[0].last);
    c.close();
  } finally {
    await f.stop();
  }
});

test("a streaming query's ABORTED follows the response headers, RetryInfo in both places; the options send one, or the error trailers-only", async () => {
  // What a stream saw before its error: the response headers, if any, and the error's trailers.
  const abortedStream = async (fault: object, code = grpc.status.ABORTED) => {
    const f = await startFakeSpanner({ faults: [{ kind: 'query', code: 'ABORTED', ratio: 1, retryDelayMs: 5, ...fault }] });
    try {
      const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
      const seen = await new Promise<{ headers: boolean; keys: string[] }>((resolve) => {
        let headers = false;
        const call = c.ExecuteStreamingSql({ session: 's', sql: 'SELECT 1' });
        call.on('metadata', () => (headers = true));
        call.on('data', () => {});
        call.on('error', (e: grpc.ServiceError) => {
          assert.equal(e.code, code);
          resolve({
            headers,
            keys: Object.keys(e.metadata.getMap())
              .filter((k) => k.endsWith('-bin'))
              .sort(),
          });
        });
      });
      c.close();
      return seen;
    } finally {
      await f.stop();
    }
  };
  assert.deepEqual(await abortedStream({}), { headers: true, keys: ['google.rpc.retryinfo-bin', 'grpc-status-details-bin'] });
  assert.deepEqual(await abortedStream({ retryInfoIn: 'trailer' }), { headers: true, keys: ['google.rpc.retryinfo-bin'] });
  assert.deepEqual(await abortedStream({ retryInfoIn: 'status-details' }), { headers: true, keys: ['grpc-status-details-bin'] });
  assert.deepEqual(await abortedStream({ trailersOnly: true }), { headers: false, keys: ['google.rpc.retryinfo-bin', 'grpc-status-details-bin'] });
  // Other codes come trailers-only unless told otherwise.
  assert.deepEqual(await abortedStream({ code: 'UNAVAILABLE', retryDelayMs: undefined }, grpc.status.UNAVAILABLE), { headers: false, keys: [] });
  assert.deepEqual(await abortedStream({ code: 'UNAVAILABLE', retryDelayMs: undefined, trailersOnly: false }, grpc.status.UNAVAILABLE), { headers: true, keys: [] });
});

test('a schedule switches faults on and off while running', async () => {
  const f = await startFakeSpanner({ schedule: [{ fromSeconds: 0, untilSeconds: 0.4, faults: [{ kind: 'query', code: 'UNAVAILABLE', ratio: 1 }] }] });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    f.resetStats(); // the schedule's clock starts here
    await assert.rejects(unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' }), (e: any) => e.code === grpc.status.UNAVAILABLE);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' })).rows.length, 1);
    assert.deepEqual(f.stats().faults, { query: { UNAVAILABLE: 1 } });
    c.close();
  } finally {
    await f.stop();
  }
});

test('lognormal latency: the server-side histogram has the configured median and tail', async () => {
  const f = await startFakeSpanner({ latency: { query: { p50: 10, p99: 60 } } });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 25; i++) await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
      }),
    );
    const q = f.stats().latency.query!;
    assert.equal(q.count, 500);
    assert.ok(q.p50Ms > 8 && q.p50Ms < 12.5, `p50 ${q.p50Ms}`);
    assert.ok(q.p99Ms > 35 && q.p99Ms < 100, `p99 ${q.p99Ms}`);
    c.close();
  } finally {
    await f.stop();
  }
});

test('an accept delay holds new connections back', async () => {
  const f = await startFakeSpanner({ acceptDelayMs: 400 });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    const t0 = Date.now();
    await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
    assert.ok(Date.now() - t0 >= 390, `first call took ${Date.now() - t0} ms`);
    const t1 = Date.now();
    await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
    const againMs = Date.now() - t1;
    // Held back again, it would take the 400 ms (less a timer's early ms) too.
    assert.ok(againMs < 390, `the open connection is not delayed again: ${againMs} ms`);
    assert.equal(f.stats().connections.length, 1, 'on the same connection');
    c.close();
  } finally {
    await f.stop();
  }
});

test('admin API: stats, reset, live config changes, and bad input named field by field', async () => {
  const { startAdmin } = await import('../../src/index');
  const f = await startFakeSpanner({ latencyMs: 1 });
  const admin = await startAdmin(f);
  const url = `http://127.0.0.1:${admin.port}`;
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
    const stats = await (await fetch(`${url}/stats`)).json();
    assert.equal(stats.totalRpcs, 1);
    assert.equal(stats.connections[0].rpcsByMethod.ExecuteSql, 1);

    const bad = await fetch(`${url}/config`, { method: 'PATCH', body: JSON.stringify({ faults: [{ kind: 'everything', code: 'ABORTED', ratio: -0.5 }], color: 'red' }) });
    assert.equal(bad.status, 400);
    const body = await bad.json();
    assert.deepEqual(body.issues.map((i: any) => i.path).sort(), ['color', 'faults.0.kind', 'faults.0.ratio']);
    assert.match(body.issues.find((i: any) => i.path === 'faults.0.ratio').message, /between 0 and 1/);
    assert.deepEqual(f.config().faults, [], 'a bad request changes nothing');

    const ok = await fetch(`${url}/config`, { method: 'PATCH', body: JSON.stringify({ latency: { query: 150 } }) });
    assert.equal(ok.status, 200);
    const t0 = Date.now();
    await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
    assert.ok(Date.now() - t0 >= 145, 'the new latency applies at once');

    assert.equal((await fetch(`${url}/reset`, { method: 'POST' })).status, 200);
    assert.equal((await (await fetch(`${url}/stats`)).json()).totalRpcs, 0);
    assert.equal((await fetch(`${url}/nope`)).status, 404);
    c.close();
  } finally {
    await admin.stop();
    await f.stop();
  }
});

/**
 * Sends 10 SELECT 1 and blocks this thread for 150 ms while they are in flight. With `allArrived` (a fake
 * in this thread), the stall begins once the fake has all ten, before the last one's 20 ms can end: it
 * waits out the whole stall however late this thread ran. Without it, after 5 ms.
 */
async function stallDuringTenRpcs(c: InstanceType<typeof Client>, allArrived?: () => boolean): Promise<void> {
  const calls = Array.from({ length: 10 }, () => unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' }));
  if (allArrived) for (const giveUp = performance.now() + 10_000; !allArrived() && performance.now() < giveUp; ) await new Promise((r) => setImmediate(r));
  else await new Promise((r) => setTimeout(r, 5));
  const until = performance.now() + 150;
  while (performance.now() < until);
  await Promise.all(calls);
}

test("the fake's own added time: every RPC is measured, and a blocked event loop shows in it", async () => {
  const f = await startFakeSpanner({ latencyMs: 20 });
  try {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    for (let i = 0; i < 10; i++) await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
    const quiet = f.stats().added!;
    assert.equal(quiet.count, 10, 'one measurement per RPC');
    // The fake shares this process: block its loop while 10 RPCs wait out their 20 ms.
    await stallDuringTenRpcs(c, () => f.stats().totalRpcs === 20);
    const busy = f.stats().added!;
    assert.equal(busy.count, 20);
    assert.ok(busy.maxMs >= 100, `a 150 ms stall during 20 ms RPCs adds at least 100 ms to some (max ${busy.maxMs} ms)`);
    // Against the quiet RPCs' median: one of them slowed by a busy machine does not decide it.
    assert.ok(busy.p99Ms > quiet.p50Ms, `${busy.p99Ms} vs ${quiet.p50Ms}`);
    c.close();
  } finally {
    await f.stop();
  }
});

test('on its own worker thread the fake does not wait for a stall of the thread that started it', async () => {
  // The same 150 ms stall of this thread, during RPCs to a fake in this thread and to one on its own
  // worker thread, in one run: what each fake added, compared (a busy machine delays both alike).
  const addedMaxMs = async (f: { host: string; port: number; stats(): unknown }, allArrived?: () => boolean) => {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    for (let i = 0; i < 5; i++) await unary(c, 'ExecuteSql', { session: 's', sql: 'SELECT 1' });
    await stallDuringTenRpcs(c, allArrived);
    c.close();
    const s = (await f.stats()) as { totalRpcs: number; added?: { count: number; maxMs: number } };
    assert.equal(s.totalRpcs, 15);
    assert.equal(s.added!.count, 15);
    return s.added!.maxMs;
  };
  const here = await startFakeSpanner({ latencyMs: 20 });
  // The stall starts once the 10 RPCs are in this thread's fake (its counts read synchronously).
  const inThread = await addedMaxMs(here, () => here.stats().totalRpcs === 15).finally(() => here.stop());
  const thread = await startFakeSpannerThread({ latencyMs: 20 });
  const onThread = await addedMaxMs(thread).finally(() => thread.stop());
  assert.ok(onThread < inThread / 2, `the fake on its own thread added at most ${onThread} ms, the one in the stalled thread ${inThread} ms`);
});

test('a stopped fake leaves its thread to the next: same thread, its own options, counts from zero, the old port closed', async () => {
  const rpcsOn = async (f: { host: string; port: number }, n: number) => {
    const c = new Client(`${f.host}:${f.port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
    const t0 = Date.now();
    for (let i = 0; i < n; i++) await unary(c, 'ExecuteSql', { session: `${DB}/sessions/s`, sql: 'SELECT 1' });
    c.close();
    return (Date.now() - t0) / n;
  };
  const first = await startFakeSpannerThread({ latencyMs: 40 });
  const slowMs = await rpcsOn(first, 3);
  assert.equal((await first.stats()).totalRpcs, 3);
  await first.stop();
  const second = await startFakeSpannerThread({ latencyMs: 0 });
  // Two at once never share a thread.
  const beside = await startFakeSpannerThread({ latencyMs: 0 });
  try {
    assert.equal(second.threadId, first.threadId, 'the kept thread serves the next fake');
    assert.notEqual(beside.threadId, second.threadId);
    assert.equal((await second.stats()).totalRpcs, 0, 'the first fake’s RPCs are not counted again');
    const fastMs = await rpcsOn(second, 3);
    assert.ok(slowMs >= 39 && fastMs < 20, `the first fake's 40 ms took ${slowMs} ms a call, the second's 0 ms ${fastMs} ms`);
    assert.equal((await second.stats()).totalRpcs, 3);
    // The first fake's port is closed: a call there fails.
    await assert.rejects(rpcsOn(first, 1), (e: any) => e.code === grpc.status.UNAVAILABLE);
  } finally {
    await Promise.all([second.stop(), beside.stop()]);
  }
  const fresh = await startFakeSpannerThread({ latencyMs: 0 }, { reuse: false });
  await fresh.stop();
  assert.ok(![first.threadId, beside.threadId].includes(fresh.threadId), 'reuse: false starts a new thread');
  // A start that fails (its port taken) says why, and its thread is not kept.
  const taken = await startFakeSpannerThread({ latencyMs: 0 });
  try {
    await assert.rejects(startFakeSpannerThread({ port: taken.port }), /No address added|EADDRINUSE|address/i);
  } finally {
    await taken.stop();
  }
});
