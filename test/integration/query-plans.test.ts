// test: yields
// The queries pages and API routes make read an index, never every stored cell: each query of the
// request path, as Prisma sends it, is explained with sequential scans discouraged (enable_seqscan off),
// so a plan that still scans Cell, CellResult or ChannelStat has no index to use and grows with every
// stored cell. The old across-versions query is the control: its plan must be caught.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import {
  PrismaClient,
  countGates,
  countJobs,
  createJob,
  createWatch,
  getGate,
  getJob,
  getJobToRun,
  lastReproductionRuns,
  listGates,
  listJobs,
  listRunners,
  listSucceededJobs,
  listWatchVerdicts,
  listWatches,
  loadTrendJobs,
  loadTrendPoints,
  loadTrendScenarios,
  markCellRunning,
  markJobRunning,
  storeCellResult,
  getWatch,
  type Db,
} from '@scb/db';
import { parseJobSpec, parseWatchSpec } from '@scb/shared';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();
const GROWING = ['Cell', 'CellResult', 'ChannelStat'];
/** Tables whose rows grow with the years too, read whole by some list's count (the pager's total), never by these reads. */
const HISTORY = [...GROWING, 'Job', 'Gate', 'WebhookDelivery'];

/** Runs `f` on a client that records each query it sends, with its parameters. */
async function queriesOf(url: string, f: (db: Db) => Promise<unknown>): Promise<{ query: string; params: unknown[] }[]> {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: 'event', level: 'query' }] });
  const seen: { query: string; params: unknown[] }[] = [];
  db.$on('query', (e) => seen.push({ query: e.query, params: JSON.parse(e.params) as unknown[] }));
  try {
    await f(db as unknown as Db);
  } finally {
    await db.$disconnect();
  }
  return seen.filter((q) => /^\s*(SELECT|WITH)\b/i.test(q.query));
}

/**
 * Relations a plan reads whole, with sequential scans discouraged: a sequential scan, or an index
 * scan (or bitmap) with no condition (every entry of the index, in its order) unless a LIMIT right above it stops
 * it after a page (the newest rows of an index in its order).
 */
async function seqScans(client: pg.Client, q: { query: string; params: unknown[] }): Promise<string[]> {
  const res = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${q.query}`, q.params);
  const out: string[] = [];
  const walk = (node: Record<string, unknown>, limited = false) => {
    const type = node['Node Type'];
    if (type === 'Seq Scan' || ((type === 'Index Scan' || type === 'Index Only Scan') && !node['Index Cond'] && !limited)) out.push(String(node['Relation Name']));
    // A bitmap of a (partial) index with no condition: every entry of it.
    const bitmaps = (n: Record<string, unknown>): Record<string, unknown>[] =>
      n['Node Type'] === 'Bitmap Index Scan' ? [n] : ((n.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap((c) => (String(c['Node Type']).startsWith('Bitmap') ? bitmaps(c) : []));
    if (type === 'Bitmap Heap Scan' && bitmaps(node).some((b) => !b['Index Cond'])) out.push(String(node['Relation Name']));
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child, type === 'Limit');
  };
  walk((res.rows[0]!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return out;
}

test("no query of a page or API route scans every stored cell, result or channel stat, nor a watch's or reproduction's whole history", { timeout: 600_000 }, async () => {
  const parsed = parseJobSpec({ clients: [{ language: 'java', version: '6.104.0' }], configurations: [{ label: 'on', grpcGcp: 'on' }], concurrency: [10, 50], workload: { durationSeconds: 1 } });
  assert.ok(parsed.ok);
  const id = await createJob(t.db, t.url, parsed.value);
  await markJobRunning(t.db, id, { host: 'h', cores: 2, node: 'v20' });
  for (const c of (await getJobToRun(t.db, id))!.cells) {
    await markCellRunning(t.db, c.id);
    const r = { count: 10, errorCount: 0, errors: {}, elapsedMs: 1000, qps: 10, p50Ms: 1, p90Ms: 2, p99Ms: 3, p999Ms: 4, maxMs: 5, histogram: 'x', timeline: [], cpuMs: 1 };
    const nulls = Object.fromEntries(
      'serverRpcs targetAddedP50Ms targetAddedP99Ms targetWireAddedP50Ms targetWireAddedP99Ms driverLoopUtilization driverLoopDelayP99Ms targetLoopUtilization targetLoopDelayP99Ms targetCpuShare machineBusyShare machineRunnerShare machineLoad1 capped uncorrected scheduleLagP99Ms scheduleLagMaxMs outstandingCapWaits events tokens operations'
        .split(' ')
        .map((k) => [k, null]),
    );
    await storeCellResult(t.db, c.id, { ...r, ...nulls, channels: [{ source: 'fake', connection: 0, peer: 'p', rpcs: 10, peakInFlight: 1 }] } as never);
  }
  const scenario = (await loadTrendScenarios(t.db)).summaries[0]!.key;
  const spec = parseWatchSpec({ language: 'node', scenarios: ['steady-select1'], since: '9.9.0', repeats: 3 });
  assert.ok(spec.ok);
  const watch = await createWatch(t.db, t.url, spec.value, ['9.8.0', '9.9.0', '9.10.0']);
  const gateId = (await getWatch(t.db, watch.id))!.releases[0]!.gates[0]!.gateId;

  const requestPath = await queriesOf(t.url, async (db) => {
    await listJobs(db, { limit: 50, offset: 0 });
    await listJobs(db, { limit: 50, offset: 0, createdBy: 'local' });
    await countJobs(db);
    await getJob(db, id);
    await listSucceededJobs(db, 50);
    await loadTrendScenarios(db);
    await loadTrendPoints(db, { language: 'java', scenario, concurrency: 50, metric: 'qps', operation: null });
    await loadTrendPoints(db, { language: 'java', scenario, concurrency: 50, metric: 'p99', operation: 'select1' });
    await listGates(db, { limit: 50, offset: 0 });
    await countGates(db);
    await listWatches(db, { limit: 50, offset: 0 });
    await listWatchVerdicts(db, { limit: 50 });
    await listRunners(db, 20_000);
  });
  // A watch's page, its badge and feed, a gate's page, the reproductions' newest runs: bounded reads of
  // a watch's, a gate's or a reproduction's rows, whatever the number of jobs and gates.
  const bounded = await queriesOf(t.url, async (db) => {
    await getWatch(db, watch.id, { limit: 25, offset: 0 });
    await getWatch(db, watch.id, { limit: 1 });
    await listWatchVerdicts(db, { watchId: watch.id, limit: 50 });
    await listWatchVerdicts(db, { limit: 50 });
    await getGate(db, gateId);
    await lastReproductionRuns(db, ['spanner-java-affinity-burst', 'node-session-leak']);
  });
  assert.ok(bounded.length >= 9, `${bounded.length} queries recorded`);
  assert.ok(requestPath.length >= 12, `${requestPath.length} queries recorded`);
  assert.ok(
    requestPath.some((q) => q.query.includes('"TrendPoint"')),
    'the across-versions query is among them',
  );

  const client = new pg.Client({ connectionString: t.url });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    for (const q of requestPath) {
      const scanned = (await seqScans(client, q)).filter((r) => GROWING.includes(r));
      assert.deepEqual(scanned, [], `a sequential scan over ${scanned.join(', ')}: ${q.query}`);
    }
    for (const q of bounded) {
      const scanned = (await seqScans(client, q)).filter((r) => HISTORY.includes(r));
      assert.deepEqual(scanned, [], `a whole scan of ${scanned.join(', ')}: ${q.query}`);
    }
    // The control: the newest run per reproduction as it was read before (every reproduction job, in the index's order).
    const oldRuns = {
      query: `SELECT DISTINCT ON (spec->>'reproduction') spec->>'reproduction' AS reproduction, id FROM "Job" WHERE spec->>'reproduction' IS NOT NULL ORDER BY spec->>'reproduction', "createdAt" DESC, id`,
      params: [],
    };
    assert.deepEqual(await seqScans(client, oldRuns), ['Job'], 'the old newest-run query reads every reproduction job');
    // The control: the across-versions query before the summary read every succeeded cell.
    const old = await queriesOf(t.url, (db) => loadTrendJobs(db));
    const caught = (await Promise.all(old.map((q) => seqScans(client, q)))).flat();
    assert.ok(caught.includes('Cell'), `the old query's plan scans Cell (${caught.join(', ')})`);
  } finally {
    await client.end();
  }
});
