// test: yields
// A watch within its creator's limits, on a real PostgreSQL: its backfill and every later poll count
// against the queue limit it was made under (SCB_MAX_QUEUED_JOBS), a poll that finds more releases than
// free slots queues the rest on a later poll (oldest release first), an identity has at most so many
// watches (SCB_MAX_WATCHES), and a stopped watch polls no more, its queued gates cancelled, its judged
// ones kept. The registry here is a list the test changes; the runner's part is its own functions
// (finishJob, storeGateVerdict). test/e2e/security/watches.test.ts asks the same through the HTTP API.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { cancelJob, createGate, createJob, createWatch, finishJob, getWatch, pollWatches, QueueFullError, stopWatch, storeGateVerdict, WatchLimitError, type WatchPoll } from '@scb/db';
import { parseJobSpec, parseWatchSpec, watchGateSpec, type GateEvaluation, type WatchSpec } from '@scb/shared';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();

/** Each probe and what it gave, printed after the file's tests. */
const probes: [string, string][] = [];
after(() => {
  console.log('# probe                                                                     result');
  for (const [probe, result] of probes) console.log(`# ${probe.padEnd(74)} ${result}`);
});

const watchSpec = (o: Record<string, unknown>): WatchSpec => {
  const spec = parseWatchSpec({ language: 'go', scenarios: ['steady-select1', 'abort-backoff'], repeats: 3, ...o });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  return spec.value;
};

/** A plain job of `who`'s, queued: one of their slots taken. */
async function queueJob(who: string): Promise<string> {
  const spec = parseJobSpec({ clients: [{ language: 'go', version: '1.96.0' }], configurations: [{ label: 'a' }], concurrency: [1], workload: { warmupOps: 1, measuredOps: 5 } });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  return createJob(t.db, t.url, spec.value, { createdBy: who });
}

const unfinished = (who: string) => t.db.job.count({ where: { createdBy: who, status: { in: ['queued', 'running'] } } });
const mine = (polls: WatchPoll[], id: string) => polls.find((p) => p.watchId === id);
const queuedOf = (p: WatchPoll | undefined) => p?.queued.map((q) => `${q.version} ${q.scenario}`) ?? [];

test('a backfill counts against the queue limit: one that would pass it stores nothing; one within it takes its slots', async () => {
  const listed = ['1.94.0', '1.95.0', '1.96.0', '1.97.0'];
  // 3 releases × 2 scenarios = 6 gates with a limit of 3.
  const before = await t.db.watch.count();
  const refused = await createWatch(t.db, t.url, watchSpec({ since: '1.95.0' }), listed, { createdBy: 'alice', maxUnfinished: 3 }).then(
    () => 'stored',
    (e: Error) => (e instanceof QueueFullError ? `refused: ${e.message}` : `threw ${e.message}`),
  );
  const stored = [await t.db.watch.count(), await unfinished('alice')];
  probes.push(['backfill of 6 gates, SCB_MAX_QUEUED_JOBS=3: refused, nothing stored', `${refused}; watches +${stored[0]! - before}, jobs ${stored[1]}`]);
  assert.match(refused, /^refused: 0 jobs queued or running, 6 more asked, the limit is 3/);
  assert.deepEqual(stored, [before, 0]);

  // One job queued, a backfill of 2 within the limit of 3: stored; the next job is the fourth.
  await queueJob('alice');
  const { gates } = await createWatch(t.db, t.url, watchSpec({ since: '1.97.0' }), listed, { createdBy: 'alice', maxUnfinished: 3 });
  assert.equal(gates, 2);
  assert.equal(await unfinished('alice'), 3);
  // A second backfill of 2 now finds 1 slot free: refused whole.
  await assert.rejects(createWatch(t.db, t.url, watchSpec({ since: '1.97.0' }), listed, { createdBy: 'alice', maxUnfinished: 3 }), QueueFullError);
  const gate = watchGateSpec(watchSpec({}), 'steady-select1', { version: '1.96.0', predecessor: '1.95.0' });
  const next = await createGate(t.db, t.url, gate, { createdBy: 'alice', maxUnfinished: 3 }).then(
    () => 'stored',
    (e: Error) => (e instanceof QueueFullError ? 'refused' : e.message),
  );
  probes.push(['backfill of 2 beside 1 job (limit 3): stored; the next gate', `stored 2 gates; next ${next}`]);
  assert.equal(next, 'refused');
  assert.equal(await unfinished('alice'), 3);
});

test('a poll queues up to the free slots, oldest release first; later polls queue the rest as slots free up; local mode has no limit', async () => {
  let listed = ['1.95.0', '1.96.0'];
  const list = async () => listed;
  const { id } = await createWatch(t.db, t.url, watchSpec({}), listed, { createdBy: 'bob', maxUnfinished: 3 });
  const busy = await queueJob('bob');
  // Two new releases, two scenarios: 4 gates; bob has 2 slots free.
  listed = [...listed, '1.98.0', '1.97.0'];
  const first = mine(await pollWatches(t.db, t.url, list), id);
  assert.deepEqual(queuedOf(first), ['1.97.0 steady-select1', '1.97.0 abort-backoff'], 'the oldest new release first');
  assert.equal(first?.deferred, 2);
  assert.equal(await unfinished('bob'), 3);
  // Still full: nothing, nothing lost.
  const full = mine(await pollWatches(t.db, t.url, list), id);
  assert.deepEqual([queuedOf(full), full?.deferred], [[], 2]);
  // One slot frees (bob cancels his job), then the watch's first gate ends: a poll each time.
  await cancelJob(t.db, busy);
  const second = mine(await pollWatches(t.db, t.url, list), id);
  assert.deepEqual([queuedOf(second), second?.deferred], [['1.98.0 steady-select1'], 1]);
  const w = await getWatch(t.db, id);
  const oldest = await t.db.gate.findFirstOrThrow({ where: { id: w!.releases.find((r) => r.version === '1.97.0')!.gates[0]!.gateId } });
  await finishJob(t.db, oldest.jobId, { status: 'succeeded', error: null });
  const third = mine(await pollWatches(t.db, t.url, list), id);
  assert.deepEqual([queuedOf(third), third?.deferred], [['1.98.0 abort-backoff'], 0]);
  assert.equal(await unfinished('bob'), 3);
  probes.push([
    'poll finds 4 gates, 2 slots free: queues 2, rest on later polls',
    `${first?.queued.length}+${second?.queued.length}+${third?.queued.length} queued over 4 polls, deferred ${first?.deferred}→${second?.deferred}→${third?.deferred}, max unfinished 3`,
  ]);

  // Two polls at once with one slot free: one gate between them.
  listed = [...listed, '1.99.0'];
  await finishJob(t.db, (await t.db.gate.findFirstOrThrow({ where: { watchId: id, watchVersion: '1.97.0', watchScenario: 1 } })).jobId, { status: 'succeeded', error: null });
  const both = await Promise.all([pollWatches(t.db, t.url, list), pollWatches(t.db, t.url, list)]);
  assert.equal(both.flatMap((p) => queuedOf(mine(p, id))).length, 1, 'two polls at once share the one free slot');
  assert.equal(await unfinished('bob'), 3);

  // Made in local mode (no limit): a poll queues everything it finds.
  listed = ['1.95.0', '1.96.0'];
  const local = await createWatch(t.db, t.url, watchSpec({}), listed, { createdBy: 'local' });
  for (let i = 0; i < 3; i++) await queueJob('local');
  listed = [...listed, '1.97.0', '1.98.0'];
  assert.equal(mine(await pollWatches(t.db, t.url, list), local.id)?.queued.length, 4);
});

test('at most SCB_MAX_WATCHES watches per identity, exact under concurrent posts; a stopped one frees its place', async () => {
  const listed = ['1.95.0', '1.96.0'];
  const make = () => createWatch(t.db, t.url, watchSpec({}), listed, { createdBy: 'carol', maxUnfinished: 3, maxWatches: 2 });
  const first = await make();
  // Four at once for the one place left.
  const racing = await Promise.allSettled([make(), make(), make(), make()]);
  const made = racing.filter((r) => r.status === 'fulfilled').length;
  const refused = racing.filter((r) => r.status === 'rejected' && r.reason instanceof WatchLimitError).length;
  probes.push(['SCB_MAX_WATCHES=2, 1 watch, 4 concurrent creates', `${made} stored, ${refused} refused`]);
  assert.deepEqual([made, refused], [1, 3]);
  await assert.rejects(make(), (e: Error) => e instanceof WatchLimitError && e.watches === 2 && e.limit === 2);
  assert.equal((await stopWatch(t.db, first.id, { name: 'carol', admin: false })).kind, 'stopped');
  await make();
});

const evaluation: GateEvaluation = { verdict: 'pass', reasons: ['within the criteria'], metrics: [], errors: [], method: 'test' };

test('a stopped watch: only its creator or an admin stops it, its queued gates are cancelled, judged ones kept, and polls skip it', async () => {
  let listed = ['1.95.0', '1.96.0', '1.97.0'];
  const list = async () => listed;
  const { id } = await createWatch(t.db, t.url, watchSpec({ since: '1.96.0' }), listed, { createdBy: 'dave', maxUnfinished: 10 });
  const gates = await t.db.gate.findMany({ where: { watchId: id }, orderBy: [{ watchVersion: 'asc' }, { watchScenario: 'asc' }] });
  assert.equal(gates.length, 4);
  // The runner judged the first gate.
  const judged = gates[0]!;
  await finishJob(t.db, judged.jobId, { status: 'succeeded', error: null });
  await storeGateVerdict(t.db, judged.id, evaluation);

  const byOther = await stopWatch(t.db, id, { name: 'erin', admin: false });
  assert.equal(byOther.kind, 'forbidden');
  assert.equal((await stopWatch(t.db, 'nosuchwatch', { name: 'dave', admin: false })).kind, 'not-found');
  const stopped = await stopWatch(t.db, id, { name: 'dave', admin: false });
  assert.ok(stopped.kind === 'stopped');
  const after = await t.db.gate.findMany({ where: { watchId: id }, include: { job: { select: { status: true, cancelledBy: true } } }, orderBy: [{ watchVersion: 'asc' }, { watchScenario: 'asc' }] });
  const states = after.map((g) => `${g.watchVersion}/${g.watchScenario} ${g.job.status} ${g.verdict}`);
  const cancelled = after.filter((g) => g.job.status === 'cancelled').map((g) => `job:${g.jobId}`);
  const inQueue = await t.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE key = ANY(${cancelled})`;
  probes.push(['DELETE by another identity / by the creator', `${byOther.kind} / ${stopped.kind}: cancelled ${stopped.cancelled}, kept ${stopped.kept}, ${inQueue[0]!.n} of them left in the queue`]);
  assert.deepEqual(states, ['1.96.0/0 succeeded pass', '1.96.0/1 cancelled null', '1.97.0/0 cancelled null', '1.97.0/1 cancelled null']);
  assert.deepEqual([stopped.cancelled, stopped.kept], [3, 1]);
  assert.equal(Number(inQueue[0]!.n), 0, 'the cancelled gates are out of the queue');
  assert.ok(after.filter((g) => g.job.status === 'cancelled').every((g) => g.job.cancelledBy === 'dave'));

  // Polls skip it, whatever the registry lists now; its page still reads, judged verdict and all.
  listed = [...listed, '1.98.0'];
  const polls = await pollWatches(t.db, t.url, list);
  const w = await getWatch(t.db, id);
  probes.push(['poll after DELETE, a new release listed', `${mine(polls, id) ? 'polled' : 'skipped'}; gates ${after.length} → ${w?.releases.flatMap((r) => r.gates).length}`]);
  assert.equal(mine(polls, id), undefined);
  assert.ok(w?.stoppedAt);
  assert.equal(w?.stoppedBy, 'dave');
  assert.deepEqual(
    w?.releases.map((r) => r.version),
    ['1.97.0', '1.96.0'],
  );
  assert.equal(w?.releases[1]?.gates[0]?.verdict, 'pass');
  // A gate queued for it after it stopped (a poll that read it before) is refused.
  await assert.rejects(
    createGate(t.db, t.url, watchGateSpec(watchSpec({}), 'steady-select1', { version: '1.98.0', predecessor: '1.97.0' }), { createdBy: 'dave', watch: { id, version: '1.98.0', scenario: 0 } }),
    /is stopped/,
  );
  // Again: already stopped, nothing more to cancel. An admin may stop anyone's.
  const again = await stopWatch(t.db, id, { name: 'dave', admin: false });
  assert.ok(again.kind === 'stopped' && again.already && again.cancelled === 0);
  const other = await createWatch(t.db, t.url, watchSpec({ since: '1.98.0' }), listed, { createdBy: 'erin' });
  const byAdmin = await stopWatch(t.db, other.id, { name: 'ops', admin: true });
  assert.ok(byAdmin.kind === 'stopped' && byAdmin.cancelled === 2);
});
