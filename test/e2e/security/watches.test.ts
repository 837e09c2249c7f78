// test: yields
// Release watches inside their creator's limits, through the HTTP API of `npm start` in team mode
// (SCB_AUTH=on, SCB_MAX_QUEUED_JOBS=3, SCB_MAX_WATCHES=2), with API tokens from `npm run token` and a
// Go module proxy this test stands in for (it lists 1.94.0 to 1.97.0). The watches' gates run on a
// fresh emulator per cell and this runner has none (SCB_EMULATOR_BIN names no file), so they stay
// queued: each takes one of its creator's slots until cancelled. Polls are off here: what a poll does
// at the limit, and that polls skip a deleted watch, is test/integration/watch-limits.test.ts.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { stackToken, startStack, type Stack } from '../../helpers/stack';

const LISTED = ['1.94.0', '1.95.0', '1.96.0', '1.97.0'];

const registry = http.createServer((req, res) => {
  if (req.url === '/go/cloud.google.com/go/spanner/@v/list') return res.writeHead(200).end(LISTED.map((v) => `v${v}\n`).join(''));
  // The monorepo's releases (0.x, which held spanner before 1.0.0): none here. Nothing is dated.
  if (req.url === '/go/cloud.google.com/go/@v/list') return res.writeHead(200).end('');
  res.writeHead(404).end();
});

let stack: Stack;
before(async () => {
  await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(registry.address() as { port: number }).port}`;
  stack = await startStack({
    env: { SCB_AUTH: 'on', SCB_MAX_QUEUED_JOBS: '3', SCB_MAX_WATCHES: '2', SCB_WATCH_POLL: 'off', SCB_EMULATOR_BIN: '/nonexistent/emulator_main', GOPROXY: `${base}/go` },
  });
});
after(async () => {
  if (stack) assert.equal(await stack.stop(), 0, stack.output.slice(-20).join('\n'));
  await new Promise<void>((r) => registry.close(() => r()));
});

/** Each probe and its HTTP answer, printed after the file's tests. */
const probes: [string, string][] = [];
after(() => {
  console.log('# probe                                                                       status');
  for (const [probe, result] of probes) console.log(`# ${probe.padEnd(76)} ${result}`);
});

type Answer = { status: number; body: Record<string, unknown> };

async function call(method: string, p: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const res = await fetch(stack.baseUrl + p, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: { text } };
  }
}

const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** Gates on a fresh emulator, which this stack's runner cannot start: they stay queued. */
const scenario = (concurrency: number) => ({ scenario: 'steady-select1', target: { kind: 'emulator' }, concurrency: [concurrency], repeats: 3 });
const watch = (o: Record<string, unknown>) => ({ language: 'go', scenarios: [scenario(1), scenario(2)], ...o });
// A job no runner can take (it stays queued until cancelled).
const JOB = { clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [1], workload: { warmupOps: 1, measuredOps: 5 }, requirements: { minCores: 1024 } };

type Watch = { id: string; createdBy: string; stoppedAt: string | null; stoppedBy: string | null; releases: { version: string; gates: { status: string }[] }[] };
const watches = async () => (await call('GET', '/api/watches')).body.watches as Watch[];
const unfinished = async (who: string) =>
  ((await call('GET', '/api/jobs')).body.jobs as { createdBy: string; status: string }[]).filter((j) => j.createdBy === who && ['queued', 'running'].includes(j.status)).length;

test('a watch counts against SCB_MAX_QUEUED_JOBS and SCB_MAX_WATCHES; only its creator or an admin deletes it, which cancels its queued gates', { timeout: 600_000 }, async () => {
  const alice = as(await stackToken(stack, 'alice'));
  const bob = as(await stackToken(stack, 'bob'));
  const ops = as(await stackToken(stack, 'ops', true));

  // 1.95.0, 1.96.0, 1.97.0 on two scenarios: 6 gates, with a limit of 3. Nothing stored.
  const big = await call('POST', '/api/watches', alice, watch({ since: '1.95.0' }));
  probes.push(['backfill of 6 gates, SCB_MAX_QUEUED_JOBS=3', `${big.status}`]);
  assert.equal(big.status, 400, JSON.stringify(big.body));
  assert.match(String(big.body.error), /queues 6 gates at once, more than this server's limit of 3 jobs queued or running per identity \(SCB_MAX_QUEUED_JOBS\)/);
  assert.deepEqual(big.body.issues, [{ path: 'since', message: big.body.error }]);
  assert.deepEqual([(await watches()).length, await unfinished('token:alice')], [0, 0], 'nothing stored');

  // 1.97.0 on two scenarios: 2 gates, within. Then one job is the third; the fourth is refused.
  const small = await call('POST', '/api/watches', alice, watch({ since: '1.97.0' }));
  assert.equal(small.status, 201, JSON.stringify(small.body));
  assert.equal(small.body.gates, 2);
  const job = await call('POST', '/api/jobs', alice, JOB);
  const fourth = await call('POST', '/api/jobs', alice, JOB);
  probes.push(['backfill of 2 gates, then two jobs', `201, jobs ${job.status} ${fourth.status}`]);
  assert.deepEqual([job.status, fourth.status], [201, 429]);
  assert.match(String(fourth.body.error), /you have 3 jobs queued or running, this server's limit per identity is 3 \(SCB_MAX_QUEUED_JOBS\)/);
  // A backfill of one more gate, now that none is free: 429, nothing stored.
  const full = await call('POST', '/api/watches', alice, watch({ since: '1.97.0', scenarios: [scenario(1)] }));
  probes.push(['a backfill of 1 gate with 0 of 3 slots free', `${full.status}`]);
  assert.equal(full.status, 429, JSON.stringify(full.body));
  assert.match(String(full.body.error), /you have 3 jobs queued or running, this server's limit per identity is 3 \(SCB_MAX_QUEUED_JOBS\)/);
  assert.deepEqual([(await watches()).length, await unfinished('token:alice')], [1, 3]);

  // A watch without a backfill queues nothing: the second is alice's last under SCB_MAX_WATCHES=2.
  const second = await call('POST', '/api/watches', alice, watch({}));
  assert.equal(second.status, 201, JSON.stringify(second.body));
  const third = await call('POST', '/api/watches', alice, watch({}));
  probes.push(['a third watch with SCB_MAX_WATCHES=2', `${third.status}`]);
  assert.equal(third.status, 429, JSON.stringify(third.body));
  assert.match(String(third.body.error), /you have 2 watches, this server's limit per identity is 2 \(SCB_MAX_WATCHES\)/);
  assert.equal((await call('POST', '/api/watches', bob, watch({}))).status, 201, 'the limit is per identity');

  // DELETE: as every write (JSON only, same origin), by its creator or an admin.
  const id = small.body.id as string;
  const textPlain = await call('DELETE', `/api/watches/${id}`, { ...alice, 'content-type': 'text/plain' });
  const foreign = await call('DELETE', `/api/watches/${id}`, { ...alice, origin: 'https://evil.example' });
  const anonymous = await call('DELETE', `/api/watches/${id}`, { 'content-type': 'application/json' });
  const byBob = await call('DELETE', `/api/watches/${id}`, bob);
  const unknown = await call('DELETE', '/api/watches/nosuchwatch', alice);
  assert.deepEqual([textPlain.status, foreign.status, anonymous.status, byBob.status, unknown.status], [415, 403, 401, 403, 404]);
  assert.equal((await call('GET', `/api/watches/${id}`)).body.stoppedAt, null, 'refused deletes change nothing');
  const byAlice = await call('DELETE', `/api/watches/${id}`, alice);
  probes.push(['DELETE text/plain, foreign Origin, anonymous, another identity, unknown id', `${textPlain.status} ${foreign.status} ${anonymous.status} ${byBob.status} ${unknown.status}`]);
  probes.push(['DELETE by the creator', `${byAlice.status}: cancelled ${byAlice.body.cancelled}, kept ${byAlice.body.kept}`]);
  assert.equal(byAlice.status, 200, JSON.stringify(byAlice.body));
  assert.deepEqual([byAlice.body.cancelled, byAlice.body.kept], [2, 0]);

  // It stays, read-only: shown stopped, its gates cancelled; its slots and its place are free again.
  const stopped = (await call('GET', `/api/watches/${id}`)).body as unknown as Watch;
  assert.ok(stopped.stoppedAt);
  assert.equal(stopped.stoppedBy, 'token:alice');
  assert.deepEqual(
    stopped.releases.flatMap((r) => r.gates.map((g) => `${r.version} ${g.status}`)),
    ['1.97.0 cancelled', '1.97.0 cancelled'],
  );
  assert.ok((await watches()).find((w) => w.id === id)?.stoppedAt);
  const page = await call('GET', `/watch/${id}`);
  assert.equal(page.status, 200);
  assert.match(String(page.body.text), /data-testid="watch-stopped"[^>]*>Deleted /);
  assert.equal((await call('GET', `/watch/${id}/feed.xml`)).status, 200);
  assert.equal((await call('GET', `/api/watches/${id}/badge.svg`)).status, 200);
  assert.equal(await unfinished('token:alice'), 1);
  const again = await call('POST', '/api/watches', alice, watch({ since: '1.97.0' }));
  assert.equal(again.status, 201, `a deleted watch frees its place and its gates' slots: ${JSON.stringify(again.body)}`);

  // An admin may delete anyone's.
  const byOps = await call('DELETE', `/api/watches/${again.body.id}`, ops);
  assert.deepEqual([byOps.status, byOps.body.cancelled], [200, 2]);
  probes.push(['DELETE by an admin', `${byOps.status}`]);

  const settings = String((await call('GET', '/settings')).body.text);
  assert.match(settings, /per identity \((<!-- -->)?SCB_MAX_WATCHES(<!-- -->)?\)<\/dt><dd>2<\/dd>/);
});
