// The across-versions view's summary (TrendScenario, TrendPoint): kept up to date in the transaction
// that stores a cell's result, equal to a rebuild from the stored results after random insertions,
// and giving the chart the same numbers as reading every cell did.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createJob,
  dumpTrendSummaries,
  failCell,
  getJobToRun,
  loadTrendJobs,
  loadTrendPoints,
  loadTrendRows,
  loadTrendScenarios,
  markCellRunning,
  markJobRunning,
  rebuildTrendSummaries,
  storeCellResult,
  type CellResultInput,
} from '@scb/db';
import {
  METRICS,
  TREND_METRICS,
  TREND_SAMPLE_MAX,
  buildScenarioIndex,
  buildTrendModel,
  buildTrendModelFromPoints,
  jobMarkdown,
  parseJobSpec,
  scanFigures,
  scenarioIndexFromSummaries,
  toCsv,
  type JobSpec,
  type Operation,
  type TrendCell,
  type TrendSelection,
} from '@scb/shared';
import { judgeCell } from '@scb/shared/verdict';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();

/** A seeded generator, so that a failure can be replayed (the seed is in the test's name). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = 41;
const random = rng(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

function spec(language: 'node' | 'java', versions: string[], mix: boolean, timeScale: number): JobSpec {
  const p = parseJobSpec({
    clients: versions.map((version) => ({ language, version })),
    configurations: [
      { label: 'on', grpcGcp: 'on' },
      { label: 'off', grpcGcp: 'off', numChannels: pick([4, 8]) },
    ],
    concurrency: [10, 50],
    repeats: 2,
    timeScale,
    workload: mix
      ? {
          durationSeconds: 1,
          mix: [
            { operation: 'select1', weight: 3 },
            { operation: 'readWriteTxn', weight: 1 },
          ],
        }
      : { durationSeconds: 1 },
  });
  assert.ok(p.ok, JSON.stringify(p));
  return p.value;
}

function result(mix: boolean): CellResultInput {
  const v = () => Math.round(random() * 100_000) / 100;
  const op = () => ({ count: 100, qps: v(), p50Ms: v(), p90Ms: v(), p99Ms: v(), p999Ms: v(), maxMs: v(), errorCount: 0, errors: {} });
  return {
    count: 100,
    errorCount: 0,
    errors: {},
    elapsedMs: 1000,
    // A few equal values, so that ties are summarized the same way whatever the order.
    qps: random() < 0.2 ? 500 : v(),
    p50Ms: v(),
    p90Ms: v(),
    p99Ms: v(),
    p999Ms: v(),
    maxMs: v(),
    histogram: 'HISTFAAA',
    timeline: [],
    // Some cells client-bound (driver CPU), some harness-bound (the fake's loop).
    cpuMs: random() < 0.2 ? 1900 : 100,
    serverRpcs: null,
    targetAddedP50Ms: null,
    targetAddedP99Ms: null,
    targetWireAddedP50Ms: null,
    targetWireAddedP99Ms: null,
    driverLoopUtilization: null,
    driverLoopDelayP99Ms: null,
    targetLoopUtilization: random() < 0.2 ? 0.99 : 0.1,
    targetLoopDelayP99Ms: null,
    targetCpuShare: null,
    machineBusyShare: null,
    machineRunnerShare: null,
    machineLoad1: null,
    capped: null,
    uncorrected: null,
    scheduleLagP99Ms: null,
    scheduleLagMaxMs: null,
    outstandingCapWaits: null,
    events: null,
    tokens: null,
    // One kind's figure missing now and then: that cell is no repeat of that kind's points.
    operations: mix ? { select1: op(), readWriteTxn: random() < 0.2 ? { ...op(), p50Ms: null as unknown as number } : op() } : { select1: op() },
    channels: [{ source: 'fake', connection: 0, peer: '127.0.0.1:1', rpcs: 100, peakInFlight: 4 }],
  };
}

/** The view's chart as it was computed before the summary: every succeeded cell of the selection read and folded per request. */
async function chartFromCells(selection: TrendSelection) {
  const { jobs } = await loadTrendJobs(t.db);
  const facts = new Map(jobs.map((j) => [j.jobId, j]));
  const index = buildScenarioIndex(jobs);
  const scenarioJobs = index.jobsByScenario.get(selection.scenario!)!;
  const rows = await loadTrendRows(t.db, { language: selection.language, concurrency: selection.concurrency!, jobIds: scenarioJobs.jobIds, metric: selection.metric, operation: selection.operation });
  const field = METRICS[selection.metric].field;
  const cells: TrendCell[] = rows.map((r) => ({
    qps: field === 'qps' ? r.value : Number.NaN,
    p50Ms: field === 'p50Ms' ? r.value : Number.NaN,
    p90Ms: field === 'p90Ms' ? r.value : Number.NaN,
    p99Ms: field === 'p99Ms' ? r.value : Number.NaN,
    p999Ms: field === 'p999Ms' ? r.value : Number.NaN,
    jobId: r.jobId,
    scenario: selection.scenario!,
    language: selection.language,
    version: r.version,
    configLabel: r.configLabel,
    config: facts.get(r.jobId)?.spec.configurations.find((c) => c.label === r.configLabel),
    concurrency: selection.concurrency!,
    repeat: r.repeat,
    verdict: judgeCell({ ...r, ...(facts.get(r.jobId)?.spec.arrivalRates ? {} : { agents: selection.concurrency! }) }, facts.get(r.jobId)?.cores ?? 0).kind,
  }));
  return { index, model: buildTrendModel(cells, selection, scenarioJobs.spec) };
}

test(`random insertions (seed ${SEED}): the incremental summary equals its rebuild, and the chart shows what every cell gave`, { timeout: 120_000 }, async () => {
  const specs = [
    spec('java', ['6.104.0', '6.105.0', '6.106.0'], false, 10),
    spec('java', ['6.105.0', '6.106.0'], true, 10),
    spec('node', ['8.0.0', '9.0.0'], false, 1),
    spec('java', ['6.104.0'], false, 1),
  ];
  // Jobs of the same scenarios, their cells stored interleaved, a few failing.
  const jobs: { id: string; mix: boolean; cells: number[] }[] = [];
  for (let i = 0; i < 14; i++) {
    const s = pick(specs);
    const id = await createJob(t.db, t.url, s);
    await markJobRunning(t.db, id, { host: 'h', cores: pick([2, 8]), node: 'v20' });
    const toRun = (await getJobToRun(t.db, id))!;
    jobs.push({ id, mix: !!s.workload.mix, cells: toRun.cells.map((c) => c.id) });
  }
  const pending = jobs.flatMap((j) => j.cells.map((cellId) => ({ cellId, mix: j.mix })));
  let stored = 0;
  while (pending.length) {
    const [{ cellId, mix }] = pending.splice(Math.floor(random() * pending.length), 1);
    assert.equal(await markCellRunning(t.db, cellId), 'stored');
    if (random() < 0.1) assert.equal(await failCell(t.db, cellId, 'boom'), 'stored');
    else {
      assert.equal(await storeCellResult(t.db, cellId, result(mix)), 'stored');
      stored++;
    }
  }
  assert.ok(stored > 100, `${stored} cells stored`);

  const incremental = await dumpTrendSummaries(t.db);
  assert.ok(incremental.points.length > 50);
  const rebuilt = await rebuildTrendSummaries(t.db);
  assert.equal(rebuilt.cells, stored, 'every succeeded cell, each once');
  assert.deepEqual(await dumpTrendSummaries(t.db), incremental, 'the rebuilt summary is the incremental one');

  // Every selection the page offers: the same options and the same chart as from every cell.
  const { summaries, specs: scenarioSpecs } = await loadTrendScenarios(t.db);
  const index = scenarioIndexFromSummaries(summaries, scenarioSpecs);
  let charts = 0;
  for (const language of ['java', 'node'] as const) {
    for (const scenario of index.scenarios[language]) {
      for (const { value: concurrency } of scenario.concurrencies) {
        for (const operation of [null, ...(scenario.operations.length > 1 ? scenario.operations : [])] as (Operation | null)[]) {
          // A scan's rows/s and CPU per 1,000 rows are no result column the old way could read: the next test.
          for (const metric of TREND_METRICS.filter((m) => !METRICS[m].derived)) {
            const selection: TrendSelection = { language, scenario: scenario.key, metric, concurrency, operation };
            const before = await chartFromCells(selection);
            if (!charts) {
              const { jobsByScenario: _a, ...was } = before.index;
              const { jobsByScenario: _b, ...now } = index;
              assert.deepEqual(now, was, 'the scenario index: languages, scenarios, counts, concurrencies');
            }
            const points = await loadTrendPoints(t.db, { language, scenario: scenario.key, concurrency, metric, operation });
            const now = buildTrendModelFromPoints(points, selection, scenarioSpecs.get(scenario.key));
            assert.ok(now.cells > 0);
            assert.ok(now.series.every((s) => s.points.every((p) => !p || p.values.length === Math.min(p.n, TREND_SAMPLE_MAX))));
            assert.deepEqual(now, before.model, `${language} ${scenario.key} c=${concurrency} ${operation ?? 'total'} ${metric}`);
            charts++;
          }
        }
      }
    }
  }
  assert.ok(charts >= 40, `${charts} charts compared`);
});

test('a point keeps a bounded sample of its repeats (the newest), and counts every one', async () => {
  const s = spec('node', ['7.0.0'], false, 3);
  const many = parseJobSpec({ ...s, configurations: [s.configurations[0]], concurrency: [20], repeats: 30 });
  assert.ok(many.ok);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = await createJob(t.db, t.url, many.value);
    ids.push(id);
    await markJobRunning(t.db, id, { host: 'h', cores: 2, node: 'v20' });
    for (const c of (await getJobToRun(t.db, id))!.cells) {
      await markCellRunning(t.db, c.id);
      await storeCellResult(t.db, c.id, { ...result(false), qps: 1000 + c.id });
    }
  }
  const { summaries } = await loadTrendScenarios(t.db);
  const key = summaries.find((x) => x.language === 'node' && x.concurrencies.some((c) => c.value === 20))!.key;
  const [point] = await loadTrendPoints(t.db, { language: 'node', scenario: key, concurrency: 20, metric: 'qps', operation: null });
  assert.equal(point!.n, 90);
  assert.equal(point!.jobs, 3);
  assert.equal(point!.sample.length, TREND_SAMPLE_MAX);
  const cellIds = point!.sample.map((x) => x.cellId).sort((a, b) => a - b);
  const newest = (await t.db.cell.findMany({ where: { jobId: { in: ids } }, orderBy: { id: 'desc' }, take: TREND_SAMPLE_MAX, select: { id: true } })).map((c) => c.id).sort((a, b) => a - b);
  assert.deepEqual(cellIds, newest);
  assert.deepEqual(
    point!.sample.map((x) => x.value),
    point!.sample.map((x) => 1000 + x.cellId),
  );
  const model = buildTrendModelFromPoints([point!], { language: 'node', scenario: key, metric: 'qps', concurrency: 20, operation: null });
  assert.equal(model.series[0]!.points[0]!.jobCount, 3);
  assert.equal(model.cells, 90);
});

test("a scan's rows per second, CPU per 1,000 rows and row times: each repeat's from its stored result and the job's result set, for the cell and its scan kind; the job's CSV and Markdown show them", async () => {
  const p = parseJobSpec({
    clients: [{ language: 'go', version: '1.96.1' }],
    configurations: [{ label: 'default' }],
    concurrency: [1],
    repeats: 3,
    workload: { operation: 'scan', warmupOps: 1, durationSeconds: 1, resultSet: { rows: 100, columns: [{ type: 'INT64' }] } },
  });
  assert.ok(p.ok, JSON.stringify(p));
  const id = await createJob(t.db, t.url, p.value);
  await markJobRunning(t.db, id, { host: 'h', cores: 2, node: 'v20' });
  const expected: Record<'rowsPerSecond' | 'cpuMsPer1kRows' | 'firstRowP50Ms' | 'firstRowP99Ms' | 'lastRowP50Ms' | 'lastRowP99Ms', number>[] = [];
  for (const [i, cell] of (await getJobToRun(t.db, id))!.cells.entries()) {
    assert.equal(await markCellRunning(t.db, cell.id), 'stored');
    // Row times and wire bytes as the runner stores them (cell-result.ts); the second cell's p99s the highest.
    const times = { firstRowP50Ms: 1 + i, firstRowP99Ms: [2, 9, 3][i]!, lastRowP50Ms: 4 + i, lastRowP99Ms: [5, 12, 6][i]! };
    const r = { ...result(false), cpuMs: 300 + 100 * i, elapsedMs: 1000, ...times, wireBytes: 2_000_000 * (i + 1) };
    const scans = 50 + 10 * i;
    r.operations = { scan: { count: scans, qps: scans, p50Ms: 5, p90Ms: 6, p99Ms: 7, p999Ms: 8, maxMs: 9, errorCount: 0, errors: {} } };
    assert.equal(await storeCellResult(t.db, cell.id, r), 'stored');
    expected.push({ ...scanFigures(100, { ...r, count: scans })!, ...times });
  }
  const { summaries } = await loadTrendScenarios(t.db);
  const scenario = summaries.find((s) => s.language === 'go')!.key;
  for (const [metric, field] of [
    ['rowsPerSecond', 'rowsPerSecond'],
    ['cpuPer1kRows', 'cpuMsPer1kRows'],
    ['firstRowP50', 'firstRowP50Ms'],
    ['firstRowP99', 'firstRowP99Ms'],
    ['lastRowP50', 'lastRowP50Ms'],
    ['lastRowP99', 'lastRowP99Ms'],
  ] as const) {
    assert.equal(METRICS[metric].higherIsBetter, metric === 'rowsPerSecond', metric);
    const want = expected.map((e) => e[field]).sort((a, b) => a - b);
    for (const operation of [null, 'scan'] as const) {
      const [point] = await loadTrendPoints(t.db, { language: 'go', scenario, concurrency: 1, metric, operation });
      assert.ok(point, `${metric} ${operation ?? 'total'}`);
      assert.equal(point.n, 3);
      assert.deepEqual(
        point.sample.map((s) => s.value).sort((a, b) => a - b),
        want,
        `${metric} ${operation ?? 'total'}`,
      );
      assert.equal(point.median, want[1]);
    }
  }
  const incremental = await dumpTrendSummaries(t.db);
  await rebuildTrendSummaries(t.db);
  assert.deepEqual(await dumpTrendSummaries(t.db), incremental, 'the rebuild derives them the same way');
  // 5,000 rows in 1 s at 300 ms of CPU: 5,000 rows/s, 60 ms per 1,000 rows; 2 MB on the wire, 2 MB/s.
  assert.deepEqual(expected[0], {
    scans: 50,
    rows: 5000,
    rowsPerSecond: 5000,
    cpuMsPer1kRows: 60,
    wireBytesPerSecond: 2_000_000,
    mixed: false,
    firstRowP50Ms: 1,
    firstRowP99Ms: 2,
    lastRowP50Ms: 4,
    lastRowP99Ms: 5,
  });

  // The job's CSV has each cell's figures, its Markdown their medians over the repeats.
  process.env.DATABASE_URL = t.url;
  const web = await import('../../apps/web/lib/jobs');
  const view = await web.getJob(id);
  assert.ok(view && !web.isInvalidJob(view));
  const csv = toCsv(web.csvRows(view));
  const [header, ...lines] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const column = (name: string) => lines.map((l) => l[header!.indexOf(name)]);
  assert.deepEqual(column('first_row_p50_ms'), ['1', '2', '3']);
  assert.deepEqual(column('last_row_p99_ms'), ['5', '12', '6']);
  assert.deepEqual(column('rows_per_second'), ['5000', '6000', '7000']);
  assert.deepEqual(column('cpu_ms_per_1k_rows'), ['60', '66.667', '71.429']);
  assert.deepEqual(column('wire_bytes_per_second'), ['2000000', '4000000', '6000000']);
  const md = jobMarkdown({ id, url: `http://x/jobs/${id}`, spec: view.spec, environment: view.environment, cells: web.tableCells(view) });
  assert.match(md, /\| rows\/s \| CPU ms \/ 1,000 rows \| first row p50 \/ p99 ms \| last row p50 \/ p99 ms \| wire MB\/s \|/, md);
  // Medians of the three repeats: 6,000 rows/s, 66.67 ms, first row 2.0 / 3.0, last 5.0 / 6.0, 4 MB/s.
  assert.match(md, /\| default \| 1 \| 6,000 \| 66\.67 \| 2\.0 \/ 3\.0 \| 5\.0 \/ 6\.0 \| 4\.00 \|/, md);
});
