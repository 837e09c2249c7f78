// test: yields
// A watch's webhooks: a verdict stored for one of its gates queues one delivery per webhook, which the
// runners' side worker POSTs, retrying with backoff: the receiver here refuses twice, then takes it once.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import type { Runner } from 'graphile-worker';
import { createWatch, getGate, listDeliveries, storeGateVerdict } from '@scb/db';
import { parseWatchSpec, type GateEvaluation } from '@scb/shared';
import { useTestDatabase } from '../helpers/postgres';

let side: Runner | undefined;
// Stopped before the database is (hooks run in the order they are made).
after(async () => side?.stop());
const t = useTestDatabase();

/** What the receiver got: each request's path, time and body, and what it answered. */
const received: { path: string; at: number; body: Record<string, unknown>; status: number }[] = [];
const refuseFirst = 2;
const receiver = http.createServer((req, res) => {
  let text = '';
  req.on('data', (d) => (text += d));
  req.on('end', () => {
    const path = req.url ?? '';
    const status = path === '/always-down' || (path === '/hook' && received.filter((r) => r.path === '/hook').length < refuseFirst) ? 500 : 200;
    received.push({ path, at: Date.now(), body: JSON.parse(text) as Record<string, unknown>, status });
    res.writeHead(status).end();
  });
});

before(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  // The runner reads these once, when its modules are first imported below.
  Object.assign(process.env, {
    SCB_WEBHOOKS: `ci=${base}/hook,down=${base}/always-down`,
    SCB_WEBHOOK_BACKOFF_MS: '150',
    SCB_WEBHOOK_ATTEMPTS: '3',
    SCB_PUBLIC_URL: 'https://bench.example.com',
    SCB_WATCH_POLL: 'off',
  });
});

/** The runners' side worker on the test database (started by the first test: the database is ready then). */
async function sideWorker(): Promise<void> {
  if (side) return;
  const { startSideWorker } = await import('../../apps/runner/src/worker');
  side = await startSideWorker(t.db, t.url, (l) => console.log(`# runner: ${l}`));
}
after(async () => {
  await new Promise<void>((r) => receiver.close(() => r()));
});

const evaluation = (verdict: GateEvaluation['verdict']): GateEvaluation => ({ verdict, reasons: [`p99 at C=50: +240% <b>(limit +25%)</b>`], metrics: [], errors: [], method: 'test' });

async function watchGate(webhooks: string[]): Promise<{ watchId: string; gateId: string }> {
  await sideWorker();
  const spec = parseWatchSpec({ language: 'go', scenarios: ['steady-select1'], since: '1.96.1', repeats: 3, webhooks });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const w = await createWatch(t.db, t.url, spec.value, ['1.96.0', '1.96.1']);
  const gate = await t.db.gate.findFirstOrThrow({ where: { watchId: w.id } });
  return { watchId: w.id, gateId: gate.id };
}

// A yielding file may run starved (a tenth of a core at times): the bounds below are generous, and the
// waits end as soon as the deliveries settle.
async function settled(watchId: string, timeoutMs = 240_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ds = await listDeliveries(t.db, watchId);
    if (ds.length && ds.every((d) => d.status !== 'pending')) return ds;
    assert.ok(Date.now() < until, `deliveries still pending: ${JSON.stringify(ds)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a verdict reaches the webhook once after two refused attempts, each retry later than the last', { timeout: 600_000 }, async () => {
  const { watchId, gateId } = await watchGate(['ci']);
  await storeGateVerdict(t.db, gateId, evaluation('fail'));
  // A verdict is stored once (the database refuses a second), and its deliveries with it.
  await assert.rejects(storeGateVerdict(t.db, gateId, evaluation('pass')), /its verdict does not change/);
  const [d, ...more] = await settled(watchId);
  assert.equal(more.length, 0);
  assert.equal(d!.status, 'delivered');
  assert.equal(d!.attempts, 3);
  const hook = received.filter((r) => r.path === '/hook');
  assert.deepEqual(
    hook.map((r) => r.status),
    [500, 500, 200],
  );
  const [a, b, c] = hook.map((r) => r.at);
  assert.ok(b! - a! >= 150 && c! - b! >= 300, `backoff 150 ms, then 300: waited ${b! - a!} and ${c! - b!} ms`);
  const body = hook[2]!.body as { text: string; event_type: string; client_payload: Record<string, unknown> };
  const gate = await getGate(t.db, gateId);
  assert.equal(body.event_type, 'spanner-client-bench-verdict');
  assert.deepEqual(body.client_payload, {
    watch: watchId,
    watchUrl: `https://bench.example.com/watch/${watchId}`,
    client: 'cloud.google.com/go/spanner',
    version: '1.96.1',
    predecessor: '1.96.0',
    scenario: 'steady-select1',
    verdict: 'fail',
    persisting: false,
    reasons: [evaluation('fail').reasons[0]],
    gateUrl: `https://bench.example.com/gates/${gate!.id}`,
  });
  assert.ok(body.text.startsWith(`**spanner-client-bench** [gate ${gateId}](https://bench.example.com/gates/${gateId})`), body.text);
  assert.ok(body.text.includes('FAIL'), 'the Markdown carries the verdict');
  assert.ok(!body.text.includes('<b>'), "the reason's markup is escaped in the Markdown");
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(received.filter((r) => r.path === '/hook').length, 3, 'nothing is sent after it was taken');
});

test('a webhook that never takes it is given up after its attempts, saying why without its URL; a gate of a watch without webhooks sends nothing', { timeout: 600_000 }, async () => {
  const { watchId, gateId } = await watchGate(['down']);
  await storeGateVerdict(t.db, gateId, evaluation('pass'));
  const [d] = await settled(watchId);
  assert.equal(d!.status, 'failed');
  assert.equal(d!.attempts, 3);
  assert.equal(d!.lastError, 'HTTP 500');
  assert.equal(received.filter((r) => r.path === '/always-down').length, 3);

  const quiet = await watchGate([]);
  const before = received.length;
  await storeGateVerdict(t.db, quiet.gateId, evaluation('pass'));
  assert.deepEqual(await listDeliveries(t.db, quiet.watchId), []);
  assert.equal(received.length, before);
});
