// The connection tap against the fake, which counts per connection itself: for the same cell the tap's
// per-connection RPCs and peaks in flight must equal the fake's, for both clients, grpc-gcp on and off;
// and so must the client's own count per gRPC channel, which is all a TLS target (real Spanner) leaves us.
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import { prepareDriver, runDriver } from '@scb/languages';
import { decodeHistogram, summarize, type Language } from '@scb/shared';
import { CACHE_DIR } from '../../apps/runner/src/paths';
import { startTap } from '../../packages/targets/src/tap';
import { defaultCellOn } from '../helpers/cells';

const VERSIONS: Partial<Record<Language, string>> = { node: '9.0.0', java: '6.123.0' };

for (const [language, version] of Object.entries(VERSIONS) as [Language, string][]) {
  for (const grpcGcp of ['on', 'off'] as const) {
    test(`${language} ${version}, grpc-gcp ${grpcGcp}: the tap and the client count what the fake counts, connection by connection`, { timeout: 600_000 }, async () => {
      const client = { language, version };
      const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
      const fake = await startFakeSpanner({ latencyMs: 5 });
      const tap = await startTap({ host: fake.host, port: fake.port });
      try {
        const cell = { ...defaultCellOn(tap, client, { warmupOps: 100, measuredOps: 600 }, 50), configuration: { label: grpcGcp, grpcGcp } };
        // Both count the bytes to the client from here (the whole cell).
        tap.markMeasuring();
        fake.markMeasuring();
        const result = await runDriver(cell, launch);
        assert.equal(result.count, 600);
        const seen = tap.stats();
        const served = fake.stats();
        // The tap relays what the fake wrote to it: the same bytes, but for what was still in flight at the driver's exit.
        const [relayed, written] = [tap.wireBytes()!, served.wireBytesSent!];
        assert.ok(written > 700 * 50 && Math.abs(relayed - written) <= written * 0.01, `the tap relayed ${relayed} bytes, the fake wrote ${written}`);
        assert.equal(seen.totalRpcs, served.totalRpcs, `tap ${seen.totalRpcs} vs fake ${served.totalRpcs}`);
        // Both list connections in the order they were opened; the fake also lists connections that carried nothing.
        const used = (cs: { rpcs: number; peakInFlight: number }[]) => cs.filter((c) => c.rpcs > 0);
        const [t, f] = [used(seen.connections), used(served.connections)];
        assert.deepEqual(
          t.map((c) => c.rpcs),
          f.map((c) => c.rpcs),
          'RPCs per connection',
        );
        // The tap holds a stream open from the client's HEADERS until the server's END_STREAM passes it,
        // the fake from its handler's start to its end: the tap's peak is at least the fake's, and never
        // above the 50 agents (how far above the fake's depends on the machine's load: no window on it).
        t.forEach((c, i) => {
          const fp = f[i]!.peakInFlight;
          assert.ok(c.peakInFlight >= fp && c.peakInFlight <= 50, `connection ${i}: tap peak ${c.peakInFlight}, fake peak ${fp}`);
        });
        assert.ok(
          seen.connections.some((c) => c.peakInFlight > 1),
          'concurrent streams were seen',
        );
        // The client lists channels in the order of their first call: compare the spread, not the order.
        // Its in-flight count starts before the stream reaches the server: its peak is at least the fake's.
        const byRpcs = (cs: { rpcs: number; peakInFlight: number }[]) => [...cs].sort((a, b) => a.rpcs - b.rpcs || a.peakInFlight - b.peakInFlight);
        const mine = byRpcs(used(result.clientChannels ?? []));
        assert.deepEqual(
          mine.map((c) => c.rpcs),
          byRpcs(f).map((c) => c.rpcs),
          'RPCs per channel, as the client counted them',
        );
        assert.ok(Math.max(...mine.map((c) => c.peakInFlight)) >= Math.max(...f.map((c) => c.peakInFlight)), 'the client saw at least the peak the fake saw');
        // Each RPC's time on the tap lies within its time in the client (from the call to its answer).
        assert.ok(Math.max(...mine.map((c) => c.peakInFlight)) >= Math.max(...t.map((c) => c.peakInFlight)), 'the client saw at least the peak the tap saw');
      } finally {
        await tap.stop();
        await fake.stop();
      }
    });
  }
}

test('the tap plays the network: latency each way and a stream limit written into the server SETTINGS', { timeout: 300_000 }, async () => {
  const client = { language: 'node' as const, version: '9.0.0' };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  // The fake itself allows 1000 streams; the tap announces 8.
  const fake = await startFakeSpanner({ latencyMs: 5, maxConcurrentStreams: 1000 });
  const tap = await startTap({ host: fake.host, port: fake.port }, { oneWayLatencyMs: 20, maxConcurrentStreams: 8 });
  try {
    const cell = { ...defaultCellOn(tap, client, { warmupOps: 40, measuredOps: 400 }, 40), configuration: { label: 'off', grpcGcp: 'off' as const } };
    const result = await runDriver(cell, launch);
    assert.equal(result.count, 400);
    const served = fake.stats();
    const peak = Math.max(...served.connections.map((c) => c.peakInFlight));
    assert.ok(peak <= 8 && peak >= 6, `the client kept to the announced 8 streams: the fake saw ${peak} at once`);
    const p50 = summarize(decodeHistogram(result.histogram), result.elapsedMs).p50Ms;
    // 40 loops over 8 streams of 5 ms + 2 × 20 ms: about 5 round trips of queueing, at least one of latency.
    assert.ok(p50 >= 45, `p50 ${p50} ms includes 2 × 20 ms of network`);
  } finally {
    await tap.stop();
    await fake.stop();
  }
});

test('the tap resets connections at an age and holds new ones back for the accept delay', { timeout: 300_000 }, async () => {
  const client = { language: 'node' as const, version: '9.0.0' };
  const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
  const fake = await startFakeSpanner({ latencyMs: 5 });
  const tap = await startTap({ host: fake.host, port: fake.port }, { maxConnectionAgeMs: 800, acceptDelayMs: 300 });
  try {
    const cell = { ...defaultCellOn(tap, client, { warmupOps: 10, durationSeconds: 3 }, 5), configuration: { label: 'off', grpcGcp: 'off' as const } };
    const result = await runDriver(cell, launch);
    assert.ok(result.count > 0);
    // The fake's own clock: the first connection lived 800 ms, the next reached it 300 ms or more later.
    const [first, second] = fake.stats().connections;
    assert.ok(first?.openedMs != null && first.closedMs != null && second?.openedMs != null, JSON.stringify(fake.stats().connections));
    // Not before its age; and reset, not left to the end of the cell, which it would have outlived the
    // measured phase to reach.
    const age = first.closedMs - first.openedMs;
    assert.ok(age >= 790 && age < result.elapsedMs, `the first connection was reset at ${age} ms, the measured phase took ${result.elapsedMs} ms`);
    assert.ok(second.openedMs - first.closedMs >= 290, `the reconnect reached the fake ${second.openedMs - first.closedMs} ms after the reset`);
    assert.ok(tap.stats().connections.length >= 2);
  } finally {
    await tap.stop();
    await fake.stop();
  }
});

test('a blackhole silences the connections open at its time without closing them; later connections pass', { timeout: 60_000 }, async () => {
  const fake = await startFakeSpanner({ latencyMs: 5 });
  const tap = await startTap({ host: fake.host, port: fake.port }, { blackholeAtMs: 200 });
  const url = `http://${tap.host}:${tap.port}`;
  /** Whether the server acknowledged an HTTP/2 PING within a second. */
  const ping = async (s: http2.ClientHttp2Session) => {
    if (s.connecting) await new Promise((r) => s.once('connect', r));
    return new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), 1000);
      s.ping((err) => {
        clearTimeout(t);
        resolve(!err);
      });
    });
  };
  const early = http2.connect(url);
  early.on('error', () => {});
  try {
    assert.equal(await ping(early), true, 'answered before the blackhole');
    assert.equal(tap.blackhole(), null);
    tap.markMeasuring();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await ping(early), false, 'unanswered after it');
    assert.equal(early.closed || early.destroyed, false, 'and never closed');
    const late = http2.connect(url);
    late.on('error', () => {});
    assert.equal(await ping(late), true, 'a connection made after the blackhole passes');
    late.destroy();
    assert.deepEqual(tap.blackhole(), { atMs: 200, silenced: 1, openedAfter: 1 });
    assert.deepEqual(tap.events(), [{ atMs: 200, kind: 'schedule-change', text: 'blackhole: 1 connection(s) go silent, never closed' }]);
  } finally {
    early.destroy();
    await tap.stop();
    await fake.stop();
  }
});

test('a GOAWAY from the tap reaches the client between two frames of a stream in flight, which still ends whole', { timeout: 60_000 }, async () => {
  // An HTTP/2 server whose answer comes in two parts 600 ms apart: the GOAWAY lands between them.
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200 });
    stream.write('first;');
    setTimeout(() => stream.end('second'), 600);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const tap = await startTap({ host: '127.0.0.1', port: (server.address() as { port: number }).port }, { goawayAtMs: 200 });
  const session = http2.connect(`http://${tap.host}:${tap.port}`);
  session.on('error', () => {});
  try {
    const told = new Promise<{ code: number; lastStream: number }>((resolve) => session.once('goaway', (code, lastStream) => resolve({ code, lastStream })));
    const req = session.request({ ':path': '/' });
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    const ended = new Promise<void>((resolve, reject) => {
      req.on('end', resolve);
      req.on('error', reject);
    });
    await new Promise((r) => req.once('response', r));
    tap.markMeasuring();
    assert.deepEqual(await told, { code: 0, lastStream: 1 }, 'no error, stream 1 still served');
    await ended;
    assert.equal(body, 'first;second', 'the stream in flight ended whole');
    assert.deepEqual(tap.goaways(), [{ connection: 0, lastStream: 1, inFlight: 1 }]);
    assert.deepEqual(tap.events(), [{ atMs: 200, kind: 'schedule-change', text: 'GOAWAY to 1 connection(s) with 1 stream(s) in flight' }]);
  } finally {
    session.destroy();
    await tap.stop();
    await new Promise((r) => server.close(r));
  }
});
