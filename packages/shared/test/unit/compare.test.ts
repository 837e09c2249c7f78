import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildComparison,
  compareHref,
  compareNoteText,
  compareRatioOf,
  compareRefusalText,
  comparisonCharts,
  comparisonDescription,
  comparisonTitle,
  findMissingCompared,
  formatCompareChange,
  formatCompareQps,
  formatCompareRatio,
  parseCompareQuery,
  parseJobSpec,
  planCells,
  type CompareCellInput,
  type CompareJobInput,
  type CompareSelection,
  type JobSpec,
  type VerdictKind,
} from '../../src/index';

function spec(over: Record<string, unknown> = {}): JobSpec {
  const r = parseJobSpec({
    clients: [{ language: 'java', version: '6.104.0' }],
    configurations: [{ label: 'client default', numChannels: 32 }],
    concurrency: [400],
    workload: { warmupOps: { min: 500, perConcurrency: 4 }, measuredOps: { min: 2000, perConcurrency: 30 } },
    repeats: 3,
    timeScale: 10,
    ...over,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

type Result = { qps: number; p50Ms: number; p99Ms: number; verdict?: { kind: VerdictKind } } | null;

/** A job with every planned cell; `result(cell)` gives each cell's numbers (null: failed). */
function job(id: string, s: JobSpec, result: (c: Omit<CompareCellInput, 'status' | 'result'>) => Result, extra: Partial<CompareJobInput> = {}): CompareJobInput {
  return {
    id,
    name: null,
    status: 'succeeded',
    spec: s,
    environment: { host: 'bench-1', cores: 2 },
    cells: planCells(s).map((p) => {
      const base = { index: p.index, client: p.client, configuration: p.configuration, concurrency: p.concurrency, repeat: p.repeat };
      const r = result(base);
      return { ...base, status: r ? 'succeeded' : 'failed', error: r ? null : 'boom', result: r };
    }),
    ...extra,
  };
}

const jobsMap = (...js: CompareJobInput[]) => new Map(js.map((j) => [j.id, j]));
const sel = (jobs: string[], allowMismatch = false): CompareSelection => ({ kind: 'jobs', jobs, allowMismatch });
const close = (a: number | null | undefined, b: number) => assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-9, `${a} vs ${b}`);

test('parseCompareQuery: jobs, cells, links, separators and the empty selection', () => {
  assert.deepEqual(parseCompareQuery(new URLSearchParams('')), { ok: true, value: null });
  assert.deepEqual(parseCompareQuery({ jobs: '' }), { ok: true, value: null });
  assert.deepEqual(parseCompareQuery(new URLSearchParams('jobs=a1,b2')), { ok: true, value: { kind: 'jobs', jobs: ['a1', 'b2'], allowMismatch: false } });
  // What a GET form sends: spaces, commas, a pasted link; repeated parameters join.
  assert.deepEqual(parseCompareQuery({ jobs: ['http://localhost:3000/jobs/a1, b2', 'c3'], mismatch: 'allow' }), {
    ok: true,
    value: { kind: 'jobs', jobs: ['a1', 'b2', 'c3'], allowMismatch: true },
  });
  assert.deepEqual(parseCompareQuery({ cells: 'a1:0 , b2:15' }), {
    ok: true,
    value: {
      kind: 'cells',
      cells: [
        { job: 'a1', index: 0 },
        { job: 'b2', index: 15 },
      ],
      allowMismatch: false,
    },
  });
});

test('parseCompareQuery: bad input names the parameter and item', () => {
  const paths = (q: Record<string, string>) => {
    const r = parseCompareQuery(q);
    assert.equal(r.ok, false);
    return r.ok ? [] : r.issues.map((i) => i.path);
  };
  assert.deepEqual(paths({ jobs: 'a1,a1' }), ['jobs.1']);
  assert.deepEqual(paths({ jobs: 'ok,b@d' }), ['jobs.1']);
  assert.deepEqual(paths({ cells: 'a1:0,a1,b2:x' }), ['cells.1', 'cells.2']);
  assert.deepEqual(paths({ cells: 'a1:-1' }), ['cells.0']);
  assert.deepEqual(paths({ jobs: 'a', cells: 'b:0' }), ['cells']);
  assert.deepEqual(paths({ jobs: 'a', mismatch: 'yes' }), ['mismatch']);
  assert.deepEqual(paths({ jobs: Array.from({ length: 9 }, (_, i) => `j${i}`).join(',') }), ['jobs']);
});

test('compareHref is the canonical, shareable form', () => {
  assert.equal(compareHref(sel(['kcj0dwzsdi4n', '8a9scu42yx08'])), '/compare?jobs=kcj0dwzsdi4n,8a9scu42yx08');
  assert.equal(
    compareHref({
      kind: 'cells',
      cells: [
        { job: 'a', index: 0 },
        { job: 'b', index: 3 },
      ],
      allowMismatch: true,
    }),
    '/compare?cells=a:0,b:3&mismatch=allow',
  );
  const round = parseCompareQuery(new URLSearchParams(compareHref(sel(['a', 'b']), { allowMismatch: true }).split('?')[1]));
  assert.deepEqual(round, { ok: true, value: sel(['a', 'b'], true) });
});

test('findMissingCompared names unknown jobs and cells out of range', () => {
  const a = job('a', spec(), () => ({ qps: 1, p50Ms: 1, p99Ms: 1 }));
  assert.deepEqual(findMissingCompared(sel(['a', 'zz']), jobsMap(a)), [{ path: 'jobs.1', message: 'no job with id "zz"' }]);
  assert.deepEqual(
    findMissingCompared(
      {
        kind: 'cells',
        cells: [
          { job: 'a', index: 2 },
          { job: 'a', index: 3 },
          { job: 'q', index: 0 },
        ],
        allowMismatch: false,
      },
      jobsMap(a),
    ),
    [
      { path: 'cells.1', message: 'job a has no cell 3 (it has 3 cells, 0–2)' },
      { path: 'cells.2', message: 'no job with id "q"' },
    ],
  );
});

test('two jobs: medians over repeats and candidate / baseline ratios', () => {
  // Baseline: qps 600, 610, 590 over the repeats -> median 600; p99 700, 720, 710 -> 710.
  const a = job('a', spec(), (c) => ({ qps: [600, 610, 590][c.repeat - 1]!, p50Ms: 650, p99Ms: [700, 720, 710][c.repeat - 1]! }));
  // Candidate (6.105.0): one collapsed repeat; median qps 252 -> 0.42x; p99 1420 -> 2x.
  const b = job('b', spec({ clients: [{ language: 'java', version: '6.105.0' }] }), (c) => ({ qps: [252, 230, 551][c.repeat - 1]!, p50Ms: 650, p99Ms: [1420, 1500, 700][c.repeat - 1]! }));
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.equal(c.status, 'ok');
  assert.equal(c.refusal, null);
  assert.equal(c.configurationIs, 'series');
  assert.deepEqual(
    c.series.map((s) => [s.key, s.label, s.baseline, s.cells]),
    [
      ['s0', 'java 6.104.0', true, [0, 1, 2]],
      ['s1', 'java 6.105.0', false, [0, 1, 2]],
    ],
  );
  assert.equal(c.rows.length, 1);
  const [row] = c.rows;
  assert.equal(row!.concurrency, 400);
  assert.equal(row!.entries[0]!.qps, 600);
  assert.equal(row!.entries[0]!.p99Ms, 710);
  assert.equal(row!.entries[0]!.qpsMin, 590);
  assert.equal(row!.entries[0]!.qpsMax, 610);
  assert.equal(row!.entries[0]!.repeats, 3);
  assert.equal(row!.entries[1]!.qps, 252);
  assert.equal(row!.ratios[0], null);
  close(row!.ratios[1]!.qps!.ratio, 0.42);
  assert.equal(row!.ratios[1]!.qps!.verdict, 'worse');
  close(row!.ratios[1]!.p50Ms!.ratio, 1);
  assert.equal(row!.ratios[1]!.p50Ms!.verdict, 'same');
  close(row!.ratios[1]!.p99Ms!.ratio, 2);
  assert.equal(row!.ratios[1]!.p99Ms!.verdict, 'worse');
  assert.equal(formatCompareRatio(row!.ratios[1]!.qps!.ratio), '0.42×');
  assert.equal(formatCompareChange(row!.ratios[1]!.qps!.ratio), '-58%');
  assert.equal(formatCompareQps(row!.entries[0]!), '600 (590–610)');
  // Summary and words.
  close(c.summaries[0]!.qps!.ratio, 0.42);
  assert.equal(comparisonTitle(c), 'java 6.105.0 vs java 6.104.0');
  assert.equal(comparisonDescription(c), 'java 6.105.0: qps 0.42× (-58%), p99 2.00× (+100%) vs java 6.104.0 at C=400');
  // The ideal line: both at 65 ms x 10.
  assert.equal(c.idealLatencyMs, 650);
  const charts = comparisonCharts(c);
  assert.equal(charts.length, 1);
  assert.deepEqual(charts[0]!.qps, [{ concurrency: 400, ideal: 400_000 / 650, s0: 600, s1: 252 }]);
  assert.deepEqual(charts[0]!.p99Ms, [{ concurrency: 400, ideal: null, s0: 710, s1: 1420 }]);
});

test('verdicts follow the metric direction, with a band of "about the same"', () => {
  assert.equal(compareRatioOf(100, 110, true)!.verdict, 'better');
  assert.equal(compareRatioOf(100, 110, false)!.verdict, 'worse');
  assert.equal(compareRatioOf(100, 90, false)!.verdict, 'better');
  assert.equal(compareRatioOf(100, 102, true)!.verdict, 'same');
  assert.equal(compareRatioOf(0, 5, true), null);
  assert.equal(compareRatioOf(null, 5, true), null);
  assert.equal(formatCompareChange(1.1234), '+12%');
  assert.equal(formatCompareChange(0.996), '-0.4%');
  assert.equal(formatCompareChange(1.0004), '±0%');
  assert.equal(formatCompareRatio(12.345), '12.3×');
});

test('one job with two clients and two configurations: series by client, rows by configuration x concurrency', () => {
  const s = spec({
    clients: [
      { language: 'java', version: '6.104.0' },
      { language: 'java', version: '6.105.0' },
    ],
    configurations: [
      { label: 'on', grpcGcp: 'on' },
      { label: 'off', grpcGcp: 'off' },
    ],
    concurrency: [100, 50],
    repeats: 2,
  });
  const qps = (c: { client: { version: string }; configuration: { label: string }; concurrency: number; repeat: number }) =>
    c.concurrency * (c.client.version === '6.105.0' && c.configuration.label === 'on' ? 0.5 : 1) + c.repeat;
  const j = job('j', s, (c) => ({ qps: qps(c), p50Ms: 10, p99Ms: 20 }));
  const c = buildComparison(sel(['j']), jobsMap(j));
  assert.equal(c.configurationIs, 'row');
  assert.deepEqual(
    c.series.map((x) => x.label),
    ['java 6.104.0', 'java 6.105.0'],
  );
  assert.deepEqual(
    c.rows.map((r) => [r.configuration, r.concurrency]),
    [
      ['on', 50],
      ['on', 100],
      ['off', 50],
      ['off', 100],
    ],
  );
  // Medians of repeats 1 and 2: (C + 1 + C + 2) / 2 = C + 1.5.
  assert.equal(c.rows[0]!.entries[0]!.qps, 51.5);
  close(c.rows[0]!.ratios[1]!.qps!.ratio, 26.5 / 51.5);
  close(c.rows[2]!.ratios[1]!.qps!.ratio, 1);
  assert.equal(c.summaries[0]!.worstQps!.configuration, 'on');
  assert.equal(c.summaries[0]!.worstQps!.concurrency, 100); // 51.5 / 101.5 < 26.5 / 51.5
  const charts = comparisonCharts(c);
  assert.deepEqual(
    charts.map((g) => g.configuration),
    ['on', 'off'],
  );
  assert.deepEqual(
    charts[0]!.qps.map((p) => p.concurrency),
    [50, 100],
  );
});

test('one job, one client, two configurations: the configurations are the series', () => {
  const s = spec({
    configurations: [
      { label: 'grpc-gcp on', grpcGcp: 'on' },
      { label: 'grpc-gcp off', grpcGcp: 'off' },
    ],
    repeats: 1,
  });
  const j = job('j', s, (c) => ({ qps: c.configuration.label === 'grpc-gcp on' ? 300 : 600, p50Ms: 10, p99Ms: 20 }));
  const c = buildComparison(sel(['j']), jobsMap(j));
  assert.deepEqual(
    c.series.map((x) => x.label),
    ['grpc-gcp on', 'grpc-gcp off'],
  );
  close(c.rows[0]!.ratios[1]!.qps!.ratio, 2);
  assert.equal(c.rows[0]!.ratios[1]!.qps!.verdict, 'better');
});

test('a job with one client and one configuration alone is refused: nothing to compare', () => {
  const j = job('j', spec(), () => ({ qps: 1, p50Ms: 1, p99Ms: 1 }));
  const c = buildComparison(sel(['j']), jobsMap(j));
  assert.equal(c.status, 'refused');
  assert.equal(c.refusal!.kind, 'single-series');
});

test('a scenario mismatch is refused with the differing fields, or warned when allowed', () => {
  const a = job('a', spec(), () => ({ qps: 600, p50Ms: 650, p99Ms: 700 }));
  const b = job('b', spec({ clients: [{ language: 'java', version: '6.105.0' }], target: { kind: 'fake', latencyMs: 100 }, timeScale: 1 }), () => ({ qps: 3000, p50Ms: 100, p99Ms: 120 }));
  const refused = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.equal(refused.status, 'refused');
  assert.deepEqual(refused.refusal, {
    kind: 'scenario',
    mismatches: [
      {
        series: 's1',
        differences: [
          { path: 'target.latencyMs', baseline: 65, candidate: 100 },
          { path: 'timeScale', baseline: 10, candidate: 1 },
        ],
      },
    ],
  });
  assert.equal(refused.rows[0]!.ratios[1], null, 'no ratios when refused');
  assert.deepEqual(refused.summaries, []);
  assert.match(compareRefusalText(refused.refusal!, refused), /target\.latencyMs 65 → 100, timeScale 10 → 1/);

  const warned = buildComparison(sel(['a', 'b'], true), jobsMap(a, b));
  assert.equal(warned.status, 'warned');
  close(warned.rows[0]!.ratios[1]!.qps!.ratio, 5);
  const note = warned.notes.find((n) => n.kind === 'scenario');
  assert.ok(note);
  assert.match(compareNoteText(note, warned), /java 6\.105\.0 ran a different scenario than java 6\.104\.0 \(target\.latencyMs: 65 → 100, timeScale: 10 → 1\)/);
  // Different latencies: no shared ideal line.
  assert.equal(warned.idealLatencyMs, null);
  assert.equal(comparisonCharts(warned)[0]!.qps[0]!.ideal, null);
});

test('the same job twice-run: labels carry the job id; machine and option differences are warned', () => {
  const a = job('a', spec(), () => ({ qps: 600, p50Ms: 650, p99Ms: 700 }));
  const b = job('b', spec({ configurations: [{ label: 'client default', numChannels: 8 }] }), () => ({ qps: 600, p50Ms: 650, p99Ms: 700 }), {
    environment: { host: 'bench-2', cores: 8 },
  });
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.deepEqual(
    c.series.map((s) => s.label),
    ['java 6.104.0 · job a', 'java 6.104.0 · job b'],
  );
  assert.equal(c.status, 'warned');
  assert.deepEqual(c.notes.map((n) => n.kind).sort(), ['configuration-options', 'environment']);
  const opt = c.notes.find((n) => n.kind === 'configuration-options')!;
  assert.match(compareNoteText(opt, c), /numChannels: 32 → 8/);
});

test('emulator jobs on different emulator versions are warned, with both versions named', () => {
  const onEmulator = spec({ target: { kind: 'emulator' } });
  const a = job('a', onEmulator, () => ({ qps: 600, p50Ms: 15, p99Ms: 30 }), { environment: { host: 'bench-1', cores: 2, emulator: '1.5.28' } });
  const b = job('b', spec({ target: { kind: 'emulator' }, clients: [{ language: 'java', version: '6.105.0' }] }), () => ({ qps: 600, p50Ms: 15, p99Ms: 30 }), {
    environment: { host: 'bench-1', cores: 2, emulator: '1.5.30' },
  });
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  const note = c.notes.find((n) => n.kind === 'environment');
  assert.ok(note, JSON.stringify(c.notes));
  assert.match(compareNoteText(note, c), /bench-1, 2 cores, emulator 1\.5\.30 vs bench-1, 2 cores, emulator 1\.5\.28/);
  // On the fake the emulator's version is no difference.
  const f1 = job('f1', spec(), () => ({ qps: 600, p50Ms: 650, p99Ms: 700 }), { environment: { host: 'bench-1', cores: 2, emulator: '1.5.28' } });
  const f2 = job('f2', spec({ clients: [{ language: 'java', version: '6.105.0' }] }), () => ({ qps: 600, p50Ms: 650, p99Ms: 700 }), { environment: { host: 'bench-1', cores: 2, emulator: null } });
  assert.ok(!buildComparison(sel(['f1', 'f2']), jobsMap(f1, f2)).notes.some((n) => n.kind === 'environment'));
});

test('missing cells and failed cells: no ratio there, and a note says so', () => {
  // Baseline ran C=50 and 100; the candidate only C=100, and its C=100 repeat 2 failed.
  const a = job('a', spec({ concurrency: [50, 100], repeats: 2 }), (c) => ({ qps: c.concurrency, p50Ms: 10, p99Ms: 20 }));
  const b = job('b', spec({ clients: [{ language: 'java', version: '6.105.0' }], concurrency: [100], repeats: 2 }), (c) => (c.repeat === 2 ? null : { qps: 80, p50Ms: 10, p99Ms: 20 }));
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.equal(c.status, 'ok');
  assert.equal(c.rows[0]!.entries[1], null, 'no candidate cell at C=50');
  assert.equal(c.rows[0]!.ratios[1], null);
  assert.equal(formatCompareQps(c.rows[0]!.entries[1]!), 'no cell');
  const e = c.rows[1]!.entries[1]!;
  assert.equal(e.repeats, 1);
  assert.equal(e.failed, 1);
  assert.equal(e.qps, 80);
  close(c.rows[1]!.ratios[1]!.qps!.ratio, 0.8);
  assert.deepEqual(
    c.notes.filter((n) => n.kind === 'missing'),
    [{ kind: 'missing', severity: 'info', series: 's1', rows: 1 }],
  );

  // All of the candidate failed: an entry without numbers, "failed", no ratio.
  const f = job('f', spec({ clients: [{ language: 'java', version: '6.109.0' }], concurrency: [100], repeats: 2 }), () => null);
  const cf = buildComparison(sel(['a', 'f']), jobsMap(a, f));
  assert.equal(cf.rows[1]!.entries[1]!.qps, null);
  assert.equal(formatCompareQps(cf.rows[1]!.entries[1]!), 'failed');
  assert.equal(cf.rows[1]!.ratios[1], null);
  assert.equal(cf.summaries[0]!.qps, null);
});

/** A selection of cells of job 'j'. */
const cellsOfJ = (...indexes: number[]) => ({ kind: 'cells' as const, cells: indexes.map((index) => ({ job: 'j', index })), allowMismatch: false });

test('cells: each cell is a series; cells at different concurrency are refused', () => {
  const s = spec({
    clients: [
      { language: 'java', version: '6.104.0' },
      { language: 'java', version: '6.105.0' },
    ],
    concurrency: [200, 400],
    repeats: 1,
  });
  const j = job('j', s, (c) => ({ qps: c.client.version === '6.105.0' ? 300 : 600, p50Ms: 10, p99Ms: 20 }));
  // planCells: repeat > client > concurrency > configuration: 0 = 6.104.0 C=200, 1 = 6.104.0 C=400, 3 = 6.105.0 C=400.
  const c = buildComparison(cellsOfJ(1, 3), jobsMap(j));
  assert.equal(c.mode, 'cells');
  assert.deepEqual(
    c.series.map((x) => [x.label, x.cells]),
    [
      ['java 6.104.0', [1]],
      ['java 6.105.0', [3]],
    ],
  );
  assert.equal(c.rows.length, 1);
  close(c.rows[0]!.ratios[1]!.qps!.ratio, 0.5);

  const off = buildComparison(cellsOfJ(0, 3), jobsMap(j));
  assert.equal(off.status, 'refused');
  assert.equal(off.refusal!.kind, 'no-common-rows');
  assert.match(compareRefusalText(off.refusal!, off), /same concurrency/);

  // Two cells of the same client and configuration: labels name the cells.
  const same = buildComparison(cellsOfJ(1, 0), jobsMap(j));
  assert.deepEqual(
    same.series.map((x) => x.label),
    ['java 6.104.0 · job j · cell 1 (C=400, repeat 1)', 'java 6.104.0 · job j · cell 0 (C=200, repeat 1)'],
  );
});

test('unfinished jobs, client-bound and harness-bound cells are noted and marked', () => {
  const a = job('a', spec({ repeats: 1, concurrency: [200, 400] }), (c) => ({ qps: 600, p50Ms: 650, p99Ms: 700, verdict: { kind: c.concurrency === 200 ? 'client-bound' : 'harness-bound' } }));
  const b = job('b', spec({ repeats: 1, clients: [{ language: 'java', version: '6.105.0' }] }), () => ({ qps: 600, p50Ms: 650, p99Ms: 700 }), { status: 'running' });
  b.cells[0]!.status = 'running';
  b.cells[0]!.result = null;
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.equal(formatCompareQps(c.rows[1]!.entries[1]!), 'pending');
  assert.equal(formatCompareQps(c.rows[0]!.entries[0]!), '600 *');
  assert.equal(formatCompareQps(c.rows[1]!.entries[0]!), '600 !');
  assert.deepEqual(
    c.notes.map((n) => n.kind),
    ['harness-bound', 'client-bound', 'unfinished', 'missing'],
  );
  assert.match(compareNoteText(c.notes[0]!, c), /Harness-bound cells \(!\) in .*must not be compared/);
  assert.equal(c.status, 'warned');
});

test('configuration-bound cells are compared like clean and said in a note', () => {
  const a = job('a', spec({ repeats: 1, concurrency: [200] }), () => ({ qps: 600, p50Ms: 650, p99Ms: 700, verdict: { kind: 'configuration-bound' } }));
  const b = job('b', spec({ repeats: 1, concurrency: [200], clients: [{ language: 'java', version: '6.105.0' }] }), () => ({ qps: 300, p50Ms: 650, p99Ms: 700 }));
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.equal(formatCompareQps(c.rows[0]!.entries[0]!), '600 ~');
  assert.ok(c.rows[0]!.ratios[1], 'the candidate is compared against it');
  const note = c.notes.find((n) => n.kind === 'configuration-bound')!;
  assert.equal(note.severity, 'info');
  assert.match(compareNoteText(note, c), /^Configuration-bound cells \(~\) in .*compared like clean\.$/);
});

test('the hottest connection: median share over repeats and the highest peak in flight', async () => {
  const { buildComparison, formatCompareHottest } = await import('../../src/compare');
  const { parseJobSpec } = await import('../../src/job');
  const spec = parseJobSpec({
    clients: [
      { language: 'java', version: '6.104.0' },
      { language: 'java', version: '6.105.0' },
    ],
    configurations: [{ label: 'default' }],
    concurrency: [400],
    workload: { warmupOps: 1, measuredOps: 10 },
    repeats: 3,
  });
  assert.ok(spec.ok);
  const cell = (index: number, version: string, repeat: number, hottestShare: number, hottestPeakInFlight: number) => ({
    index,
    client: { language: 'java', version },
    configuration: { label: 'default' },
    concurrency: 400,
    repeat,
    status: 'succeeded',
    result: { qps: 600, p50Ms: 650, p99Ms: 700 },
    channelSummary: { hottestShare, hottestPeakInFlight },
  });
  const job = {
    id: 'j',
    status: 'succeeded',
    spec: spec.value,
    cells: [
      cell(0, '6.104.0', 1, 0.034, 24),
      cell(1, '6.105.0', 1, 0.17, 85),
      cell(2, '6.104.0', 2, 0.034, 20),
      cell(3, '6.105.0', 2, 0.21, 100),
      cell(4, '6.104.0', 3, 0.034, 23),
      cell(5, '6.105.0', 3, 0.076, 44),
    ],
  };
  const c = buildComparison({ kind: 'jobs', jobs: ['j'], allowMismatch: false }, new Map([['j', job]]));
  const [base, cand] = c.rows[0]!.entries;
  assert.equal(formatCompareHottest(base!), '3% · peak 24');
  assert.equal(formatCompareHottest(cand!), '17% · peak 100');
});

test('open-loop jobs compare by arrival rate: rows are rates, the ideal is the rate offered', () => {
  const open = (version: string) =>
    spec({
      clients: [{ language: 'go', version }],
      configurations: [{ label: 'client default' }],
      concurrency: undefined,
      arrivalRates: [100, 400],
      workload: { durationSeconds: 5 },
      repeats: 1,
      timeScale: 1,
    });
  const a = job('a', open('1.33.0'), (c) => ({ qps: c.concurrency === 400 ? 280 : 99, p50Ms: 70, p99Ms: 90 }));
  const b = job('b', open('1.96.1'), (c) => ({ qps: c.concurrency === 400 ? 390 : 99, p50Ms: 66, p99Ms: 70 }));
  const c = buildComparison(sel(['a', 'b']), jobsMap(a, b));
  assert.equal(c.openLoop, true);
  assert.deepEqual(
    comparisonCharts(c)[0]!.qps.map((p) => [p.concurrency, p.ideal]),
    [
      [100, 100],
      [400, 400],
    ],
  );
  assert.match(comparisonDescription(c), /ops\/s|over 2 rows/);
  assert.equal(buildComparison(sel(['a', 'a']), jobsMap(a)).openLoop, true);
});
