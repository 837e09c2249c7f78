// Expectations evaluated on cells, checked in specs, carried in Markdown; the reproductions' specs parse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateExpectation, evaluateExpectations, ExpectationSchema, expectationLines, parseJobSpec, REPRODUCTIONS, reproductionJobSpec, type ExpectationCell } from '../../src/index';

const cell = (version: string, over: Partial<ExpectationCell> = {}, result: Partial<NonNullable<ExpectationCell['result']>> = {}): ExpectationCell => ({
  client: { language: 'go', version },
  configuration: { label: 'client default' },
  concurrency: 10,
  status: 'succeeded',
  result: { qps: 100, p50Ms: 40, p99Ms: 70, maxMs: 100, count: 1000, errorCount: 0, ...result },
  ...over,
});
const expectation = (e: unknown) => ExpectationSchema.parse(e);

test('a ratio compares the medians of two sides, and says met, not met, or that it has no figure', () => {
  const cells = [cell('0.35.0', {}, { p99Ms: 2000 }), cell('0.35.0', {}, { p99Ms: 2200 }), cell('0.35.0', {}, { p99Ms: 100 }), cell('1.96.1', {}, { p99Ms: 60 }), cell('1.96.1', {}, { p99Ms: 62 })];
  const e = expectation({ kind: 'ratio', metric: 'p99Ms', of: { version: '0.35.0' }, to: { version: '1.96.1' }, atLeast: 5 });
  const o = evaluateExpectation(e, cells);
  assert.equal(o.met, true);
  assert.equal(o.value, 2000 / 61);
  assert.match(o.text, /p99 of 0\.35\.0 \(2000 ms\) is 32\.8× that of 1\.96\.1 \(61\.0 ms\): expected at least 5× — met/);
  const max = evaluateExpectation(expectation({ kind: 'ratio', metric: 'p99Ms', of: { version: '0.35.0', aggregate: 'min' }, to: { version: '1.96.1' }, atLeast: 5 }), cells);
  assert.equal(max.met, false, 'the smallest of the affected repeats is no regression');
  const none = evaluateExpectation(e, [cell('1.96.1'), cell('0.35.0', { status: 'failed', result: null })]);
  assert.equal(none.met, null);
  assert.match(none.text, /no ratio/);
});

test('a bound reads per-kind figures, error shares, failed cells and the busiest connection (the fake’s count first)', () => {
  const ops = { readWriteTxn: { qps: 10, p50Ms: 40, p99Ms: 1100, count: 90, errorCount: 10 } };
  const cells = [
    cell('0.35.0', { operations: ops, channels: [...[80, 10, 10].map((rpcs) => ({ source: 'fake', rpcs })), ...[34, 33, 33].map((rpcs) => ({ source: 'client', rpcs }))] }),
    cell('1.96.1', { status: 'failed', result: null }),
  ];
  const at = (e: unknown) => evaluateExpectation(expectation(e), cells);
  assert.equal(at({ kind: 'bound', metric: 'p99Ms', cells: { operation: 'readWriteTxn', version: '0.35.0' }, atLeast: 1000 }).met, true);
  assert.equal(at({ kind: 'bound', metric: 'errorPct', cells: { operation: 'readWriteTxn', version: '0.35.0' }, atMost: 5 }).value, 10);
  assert.equal(at({ kind: 'bound', metric: 'topConnectionPct', cells: { version: '0.35.0' }, atLeast: 60 }).value, 80);
  assert.equal(at({ kind: 'bound', metric: 'failedCells', cells: { version: '1.96.1' }, atLeast: 1 }).met, true);
  assert.equal(at({ kind: 'bound', metric: 'failedCells', cells: { version: '0.35.0' }, atLeast: 1 }).met, false);
  const all = evaluateExpectations(
    [expectation({ kind: 'bound', metric: 'qps', cells: { version: '0.35.0' }, atLeast: 1 }), expectation({ kind: 'bound', metric: 'qps', cells: { version: '0.35.0' }, atMost: 1 })],
    cells,
  );
  assert.deepEqual([all.met, all.outcomes.map((o) => o.met)], [false, [true, false]], 'one expectation not met: the job’s are not met');
});

test('mismatchedCells counts only the cells whose driver ended on a value decoded wrong (exit 5), not other failures', () => {
  const cells = [
    cell('8.5.0', { status: 'failed', result: null, error: 'driver exited (code 5) without a result: scan: 1958 rows decoded, the result has 2000' }),
    cell('8.5.0', { status: 'failed', result: null, error: 'driver exited (code 4) without a result: option nodeScan is not supported by node 8.5.0' }),
    cell('8.6.0', { status: 'failed', result: null, error: 'the runner killed the driver at the cell’s hard deadline (60 s): it had not ended by itself' }),
    cell('9.0.0'),
  ];
  const at = (version: string, bound: object) => evaluateExpectation(expectation({ kind: 'bound', metric: 'mismatchedCells', cells: { version }, ...bound }), cells);
  assert.equal(at('8.5.0', { atLeast: 1 }).value, 1, 'the refusal is no mismatch');
  assert.match(at('8.5.0', { atLeast: 1 }).text, /^cells that decoded a value or the row count wrong of 8\.5\.0 is 1 \(of 2\): expected at least 1 — met$/);
  assert.equal(at('8.6.0', { atLeast: 1 }).met, false, 'a hang is no mismatch');
  assert.equal(at('9.0.0', { atMost: 0 }).met, true);
  assert.equal(at('1.0.0', { atMost: 0 }).met, null, 'no cell: no figure');
});

test('an expectation with no bound, or naming cells the job does not run, is refused at its field', () => {
  assert.ok(!ExpectationSchema.safeParse({ kind: 'bound', metric: 'qps', cells: {} }).success);
  const spec = parseJobSpec({
    clients: [{ language: 'go', version: '1.96.1' }],
    configurations: [{ label: 'client default' }],
    concurrency: [10],
    workload: { operation: 'select1', warmupOps: 10, durationSeconds: 1 },
    expectations: [{ kind: 'ratio', metric: 'qps', of: { version: '0.35.0' }, to: { version: '1.96.1', level: 20, configuration: 'other' }, atLeast: 2 }],
  });
  assert.ok(!spec.ok);
  assert.deepEqual(
    spec.issues.map((i) => i.path),
    ['expectations.0.of', 'expectations.0.to.configuration', 'expectations.0.to.level'],
  );
});

test('expectations in Markdown: the verdict, the own words escaped, the figures', () => {
  const e = expectation({ kind: 'bound', metric: 'qps', cells: { version: '1.96.1' }, atLeast: 1000, says: 'a *fast* <client>' });
  const lines = expectationLines(evaluateExpectations([e], [cell('1.96.1')]));
  assert.equal(lines[1], '**Expectations: NOT MET**');
  assert.ok(lines[3]!.startsWith('- NOT MET: a \\*fast\\* '), lines[3]);
  assert.ok(!lines[3]!.includes('<client>'));
  assert.match(lines[3]!, /throughput of 1\.96\.1 is 100 ops\/s: expected at least 1000 ops\/s — not met/);
});

test('every reproduction is a valid job with expectations, a public link and its id', () => {
  assert.equal(new Set(REPRODUCTIONS.map((r) => r.id)).size, REPRODUCTIONS.length);
  for (const r of REPRODUCTIONS) {
    const spec = parseJobSpec(reproductionJobSpec(r));
    assert.ok(spec.ok, `${r.id}: ${JSON.stringify(!spec.ok && spec.issues)}`);
    assert.equal(spec.value.reproduction, r.id);
    assert.ok(spec.value.expectations!.length > 0, r.id);
    assert.ok(
      r.links.every((l) => l.url.startsWith('https://')),
      r.id,
    );
  }
});

test("a workload of one kind keeps no per-kind figures: its kind's figures are the cell's; a kind outside the mix is refused", () => {
  const e = expectation({ kind: 'bound', metric: 'p99Ms', cells: { version: '0.35.0', operation: 'readWriteTxn' }, atLeast: 1000 });
  assert.equal(evaluateExpectation(e, [cell('0.35.0', { operations: null }, { p99Ms: 1081 })]).value, 1081);
  assert.equal(evaluateExpectation(e, [cell('0.35.0', { operations: { select1: { qps: 1, p50Ms: 1, p99Ms: 2 } } })]).value, null, 'a mix without the kind has no figure for it');
  const spec = parseJobSpec({
    clients: [{ language: 'go', version: '0.35.0' }],
    configurations: [{ label: 'client default' }],
    concurrency: [10],
    workload: { operation: 'select1', warmupOps: 10, durationSeconds: 1 },
    expectations: [{ kind: 'bound', metric: 'p99Ms', cells: { operation: 'readWriteTxn' }, atLeast: 1 }],
  });
  assert.ok(!spec.ok);
  assert.deepEqual(
    spec.issues.map((i) => i.path),
    ['expectations.0.cells.operation'],
  );
});
