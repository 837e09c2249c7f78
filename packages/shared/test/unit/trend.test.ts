import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  JobSpecSchema,
  buildScenarioIndex,
  buildTrendModel,
  chartData,
  changeFromPrevious,
  formatPoint,
  parseTrendQuery,
  resolveSelection,
  scenarioKey,
  versionsHref,
  type JobSpec,
  type Language,
  type TrendCell,
  type TrendSelection,
} from '../../src/index';

const spec = (over: Record<string, unknown> = {}): JobSpec =>
  JobSpecSchema.parse({
    clients: [{ language: 'java', version: '6.104.0' }],
    configurations: [{ label: 'grpc-gcp on', grpcGcp: 'on' }],
    concurrency: [400],
    workload: { operation: 'select1', warmupOps: 200, measuredOps: 2000 },
    timeScale: 10,
    ...over,
  });

const A = spec();
const B = spec({ timeScale: 1 });
const KA = scenarioKey(A);
const KB = scenarioKey(B);

let nextRepeat = 0;
function cell(over: Partial<TrendCell> & Pick<TrendCell, 'version' | 'configLabel' | 'qps'>): TrendCell {
  return {
    jobId: 'job1',
    scenario: KA,
    language: 'java',
    concurrency: 400,
    repeat: ++nextRepeat,
    p50Ms: 650,
    p90Ms: 660,
    p99Ms: 700,
    p999Ms: 800,
    ...over,
  };
}

test('medians, spreads and every repeat per configuration and version', () => {
  const cells = [
    cell({ version: '6.105.0', configLabel: 'client default', qps: 230, jobId: 'j2', repeat: 1, verdict: 'client-bound' }),
    cell({ version: '6.105.0', configLabel: 'client default', qps: 551, jobId: 'j2', repeat: 2 }),
    cell({ version: '6.105.0', configLabel: 'client default', qps: 400, jobId: 'j3', repeat: 1, verdict: 'harness-bound' }),
    cell({ version: '6.104.0', configLabel: 'client default', qps: 545, jobId: 'j1', repeat: 1 }),
    cell({ version: '6.104.0', configLabel: 'client default', qps: 553, jobId: 'j1', repeat: 2 }),
    cell({ version: '6.10.0', configLabel: 'grpc-gcp off', qps: 600, jobId: 'j4', config: { label: 'grpc-gcp off', grpcGcp: 'off', numChannels: 32 } }),
    cell({ version: '6.9.0', configLabel: 'grpc-gcp off', qps: 610, jobId: 'j4', config: { label: 'grpc-gcp off', grpcGcp: 'off', numChannels: 8 } }),
  ];
  const sel: TrendSelection = { language: 'java', scenario: KA, metric: 'qps', concurrency: 400, operation: null };
  const m = buildTrendModel(cells, sel, A);
  assert.deepEqual(m.versions, ['6.9.0', '6.10.0', '6.104.0', '6.105.0']);
  assert.deepEqual(
    m.series.map((s) => s.configuration),
    ['client default', 'grpc-gcp off'],
  );
  const [def, off] = m.series;
  assert.equal(def.points[0], null);
  assert.equal(def.points[1], null);
  assert.deepEqual(
    { ...def.points[2]!, values: undefined },
    { version: '6.104.0', median: 549, min: 545, max: 553, n: 2, values: undefined, jobs: ['j1'], jobCount: 1, clientBound: 0, harnessBound: 0 },
  );
  const p = def.points[3]!;
  assert.equal(p.median, 400);
  assert.equal(p.min, 230);
  assert.equal(p.max, 551);
  assert.equal(p.n, 3);
  assert.deepEqual(p.jobs, ['j2', 'j3']);
  assert.equal(p.clientBound, 1);
  assert.equal(p.harnessBound, 1);
  assert.deepEqual(
    p.values.map((v) => v.value),
    [230, 551, 400],
  );
  assert.deepEqual(
    off.points.map((x) => x?.median ?? null),
    [610, 600, null, null],
  );
  assert.deepEqual(
    changeFromPrevious(def).map((c) => c && +c.toFixed(4)),
    [null, null, null, -0.2714],
  );
  assert.deepEqual(
    changeFromPrevious(off).map((c) => c && +c.toFixed(4)),
    [null, -0.0164, null, null],
  );
  assert.equal(formatPoint(p, 'qps'), '400 (230–551, n=3)');
  assert.equal(formatPoint(off.points[0]!, 'qps'), '610 (n=1)');
  const compact = chartData(m);
  assert.deepEqual(compact.jobIds, ['j1', 'j2', 'j3', 'j4']);
  assert.deepEqual(compact.series[0].points[3], {
    median: 400,
    min: 230,
    max: 551,
    n: 3,
    jobs: 2,
    repeats: [
      [230, 1, 1, 1],
      [551, 1, 2, 0],
      [400, 2, 1, 2],
    ],
  });
  assert.equal(compact.series[1].points[2], null);
  assert.equal(compact.reference!.value, m.reference!.value);
  assert.deepEqual(off.optionSets, ['grpcGcp=off, numChannels=32', 'grpcGcp=off, numChannels=8']);
  assert.equal(m.unit, 'qps');
  assert.equal(m.cells, 7);
  // Ideal: 400 in flight over 65 ms x 10.
  assert.equal(Math.round(m.reference!.value), 615);

  const p99 = buildTrendModel([...cells, cell({ version: '6.104.0', configLabel: 'client default', qps: 1, p99Ms: 900 })], { ...sel, metric: 'p99' }, A);
  assert.equal(p99.unit, 'ms');
  assert.deepEqual(
    p99.series[0].points[2]!.values.map((v) => v.value),
    [700, 700, 900],
  );
  assert.equal(p99.series[0].points[2]!.median, 700);
  assert.equal(p99.reference!.value, 650);
});

test('only the selected language, scenario and concurrency are counted', () => {
  const cells = [
    cell({ version: '6.104.0', configLabel: 'on', qps: 100 }),
    cell({ version: '6.104.0', configLabel: 'on', qps: 300, scenario: KB }),
    cell({ version: '6.104.0', configLabel: 'on', qps: 500, concurrency: 50 }),
    cell({ version: '9.0.0', configLabel: 'on', qps: 700, language: 'node' }),
  ];
  const m = buildTrendModel(cells, { language: 'java', scenario: KA, metric: 'qps', concurrency: 400, operation: null });
  assert.deepEqual(m.versions, ['6.104.0']);
  assert.equal(m.cells, 1);
  assert.equal(m.series[0].points[0]!.median, 100);
  assert.deepEqual(buildTrendModel(cells, { language: 'node', scenario: KA, metric: 'qps', concurrency: 400, operation: null }).versions, ['9.0.0']);
  const empty = buildTrendModel(cells, { language: 'node', scenario: KB, metric: 'qps', concurrency: 400, operation: null });
  assert.deepEqual(empty.versions, []);
  assert.deepEqual(empty.series, []);
});

test('scenario index: counts, default scenario and concurrency, same label told apart', () => {
  const sameWords = spec({ target: { kind: 'fake', latencyMs: 65, server: { latency: { session: 65 } } } });
  // [language, concurrency, cells] per count.
  const entry = (jobId: string, spec: JobSpec, key: string, ...counts: [Language, number, number][]) => ({
    jobId,
    spec,
    scenarioKey: key,
    counts: counts.map(([language, concurrency, cells]) => ({ language, concurrency, cells })),
  });
  const index = buildScenarioIndex([
    entry('j1', A, KA, ['java', 400, 6], ['java', 50, 6]),
    entry('j2', A, KA, ['java', 400, 3]),
    entry('j3', B, KB, ['node', 10, 2], ['java', 100, 1]),
    entry('j4', sameWords, scenarioKey(sameWords), ['java', 400, 1]),
  ]);
  assert.deepEqual(index.languages, [
    { value: 'node', cells: 2 },
    { value: 'java', cells: 17 },
    { value: 'go', cells: 0 },
    { value: 'python', cells: 0 },
  ]);
  const java = index.scenarios.java;
  assert.deepEqual(
    java.map((s) => [s.key, s.cells, s.jobs]),
    [
      [KA, 15, 2],
      [KB, 1, 1],
      [scenarioKey(sameWords), 1, 1],
    ],
  );
  assert.deepEqual(java[0].concurrencies, [
    { value: 50, cells: 6 },
    { value: 400, cells: 9 },
  ]);
  assert.equal(java[0].differsIn, undefined);
  assert.deepEqual(java[2].differsIn, ['target.server.latency.session']);
  assert.deepEqual(index.jobsByScenario.get(KA)!.jobIds, ['j1', 'j2']);

  // Defaults: the busiest language, its scenario with most cells, the largest concurrency, qps.
  assert.deepEqual(resolveSelection({}, index), { selection: { language: 'java', scenario: KA, metric: 'qps', concurrency: 400, operation: null }, issues: [] });
  assert.deepEqual(resolveSelection({ language: 'node' }, index).selection, { language: 'node', scenario: KB, metric: 'qps', concurrency: 10, operation: null });
  // A scenario the language lacks falls back and says so; so does an absent concurrency.
  const r1 = resolveSelection({ language: 'node', scenario: KA, concurrency: 400 }, index);
  assert.deepEqual(r1.selection, { language: 'node', scenario: KB, metric: 'qps', concurrency: 10, operation: null });
  assert.deepEqual(
    r1.issues.map((i) => i.path),
    ['scenario'],
  );
  const r2 = resolveSelection({ language: 'java', scenario: KA, concurrency: 200, metric: 'p99' }, index);
  assert.deepEqual(r2.selection, { language: 'java', scenario: KA, metric: 'p99', concurrency: 400, operation: null });
  assert.deepEqual(
    r2.issues.map((i) => i.path),
    ['concurrency'],
  );
  // A one-kind workload: its kind is the total (no issue); another kind is not in it.
  assert.deepEqual(resolveSelection({ language: 'java', scenario: KA, operation: 'select1' }, index), {
    selection: { language: 'java', scenario: KA, metric: 'qps', concurrency: 400, operation: null },
    issues: [],
  });
  const r3 = resolveSelection({ language: 'java', scenario: KA, operation: 'pointRead' }, index);
  assert.equal(r3.selection.operation, null);
  assert.deepEqual(r3.issues, [{ path: 'operation', message: "pointRead is not in this scenario's workload (select1)" }]);
  // Nothing stored at all.
  const none = buildScenarioIndex([]);
  assert.deepEqual(resolveSelection({}, none).selection, { language: 'node', scenario: null, metric: 'qps', concurrency: null, operation: null });
});

test('URL parameters: each bad one named; the page is lenient, the API strict', () => {
  const ok = parseTrendQuery(new URLSearchParams('language=java&scenario=0123456789ab&metric=p99&concurrency=400'));
  assert.deepEqual(ok, { value: { language: 'java', scenario: '0123456789ab', metric: 'p99', concurrency: 400 }, issues: [] });
  const bad = parseTrendQuery(new URLSearchParams('language=cobol&scenario=x&metric=p75&concurrency=0&colour=red&operation=delete'), true);
  assert.deepEqual(
    bad.issues.map((i) => i.path),
    ['colour', 'language', 'scenario', 'metric', 'concurrency', 'operation'],
  );
  assert.deepEqual(parseTrendQuery({ operation: 'readWriteTxn' }).value, { operation: 'readWriteTxn' });
  assert.deepEqual(
    parseTrendQuery({ concurrency: '2.5', language: '' }).issues.map((i) => i.path),
    ['concurrency'],
  );
  assert.deepEqual(parseTrendQuery({ colour: 'red' }).issues, []);
  assert.equal(versionsHref({ language: 'java', scenario: KA, metric: 'qps', concurrency: 400, operation: null }), `/versions?language=java&scenario=${KA}&metric=qps&concurrency=400`);
  assert.equal(versionsHref({ language: 'java', metric: 'p99', operation: 'pointRead' }), '/versions?language=java&metric=p99&operation=pointRead');
});
