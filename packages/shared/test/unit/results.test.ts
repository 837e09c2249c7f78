import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHistogram, encodeHistogram, median, medianOverRepeats, newLatencyHistogram, summarize, throughput, buildResultTable, resultTableMarkdown, warmStart } from '../../src/index';

test('percentiles of a known histogram survive encoding', () => {
  const h = newLatencyHistogram();
  // 1..1000 ms, one sample each, recorded in microseconds.
  for (let ms = 1; ms <= 1000; ms++) h.recordValue(ms * 1000);
  const s = summarize(decodeHistogram(encodeHistogram(h)), 2000);
  assert.equal(s.count, 1000);
  assert.equal(s.qps, 500);
  const near = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) / expected < 0.002, `${actual} vs ${expected}`);
  near(s.p50Ms, 500);
  near(s.p90Ms, 900);
  near(s.p99Ms, 990);
  near(s.p999Ms, 999);
  near(s.maxMs, 1000);
});

test('a skewed histogram: p50 from the bulk, p99 from the tail', () => {
  const h = newLatencyHistogram();
  for (let i = 0; i < 980; i++) h.recordValue(65_000);
  for (let i = 0; i < 20; i++) h.recordValue(400_000);
  const s = summarize(h, 1000);
  assert.ok(Math.abs(s.p50Ms - 65) < 0.1);
  assert.ok(Math.abs(s.p99Ms - 400) < 0.5);
});

test('an empty histogram summarizes to zeros, not NaN', () => {
  const s = summarize(newLatencyHistogram(), 1000);
  assert.deepEqual(s, { count: 0, qps: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0 });
});

test('throughput and median', () => {
  assert.equal(throughput(1500, 3000), 500);
  assert.equal(throughput(10, 0), 0);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

const cell = (configLabel: string, concurrency: number, repeat: number, qps: number | null, status = 'succeeded') => ({
  client: { language: 'node', version: '9.0.0' },
  configuration: { label: configLabel },
  concurrency,
  repeat,
  status,
  error: status === 'failed' ? 'boom' : null,
  result: qps === null ? null : { qps, p50Ms: 65, p99Ms: 80 },
});

test('the result table has a row per concurrency and a column per configuration, repeats as medians', () => {
  const t = buildResultTable([cell('on', 50, 1, 700), cell('off', 50, 1, 720), cell('on', 10, 1, 150), cell('on', 50, 2, 500), cell('on', 50, 3, 600), cell('off', 10, 1, null, 'failed')]);
  assert.deepEqual(t.columns, ['on', 'off']);
  assert.deepEqual(
    t.rows.map((r) => r.concurrency),
    [10, 50],
  );
  assert.equal(t.rows[1].entries[0]!.qps, 600);
  assert.equal(t.rows[1].entries[0]!.repeats, 3);
  assert.equal(t.rows[0].entries[1]!.failed, 1);
  const md = resultTableMarkdown([cell('on', 50, 1, 700), cell('off', 50, 1, 720.4)]);
  assert.equal(md, '| concurrency | on qps / p50 / p99 | off qps / p50 / p99 |\n|---|---|---|\n| 50 | 700 / 65.0 / 80.0 | 720 / 65.0 / 80.0 |');
});

test('medians over repeats: qps, p50 and p99 each, with the qps range', () => {
  const m = medianOverRepeats([
    { qps: 700, p50Ms: 60, p99Ms: 90 },
    { qps: 500, p50Ms: 70, p99Ms: 80 },
    { qps: 600, p50Ms: 65, p99Ms: 200 },
  ]);
  assert.deepEqual(m, { qps: 600, p50Ms: 65, p99Ms: 90, repeats: 3, qpsMin: 500, qpsMax: 700 });
  const none = medianOverRepeats([]);
  assert.equal(none.repeats, 0);
  assert.ok(Number.isNaN(none.qps) && Number.isNaN(none.p50Ms) && Number.isNaN(none.p99Ms));
});

test('warm start: the first measured second within 10% of the median of the others; partial buckets left out', () => {
  const tl = (...counts: number[]) => counts.map((count, i) => ({ second: i + 1, count, errors: 0, p99Ms: 80, ms: 1000 }));
  // The Node ramp: 90 -> 130 per second over 4 s.
  const ramp = warmStart(tl(90, 105, 120, 130, 130))!;
  assert.equal(ramp.warm, false);
  assert.equal(ramp.firstRate, 90);
  assert.equal(ramp.medianRate, 125);
  assert.equal(warmStart(tl(125, 130, 128, 131))!.warm, true);
  assert.equal(warmStart(tl(150, 130, 128, 131))!.warm, false, 'a burst is not warm either');
  // A partial last bucket (350 ms) is no second of its own; too few full seconds give no verdict.
  const partial = [...tl(120, 130, 129), { second: 4, count: 10, errors: 0, p99Ms: 80, ms: 350 }];
  assert.equal(warmStart(partial)!.medianRate, 129.5);
  assert.equal(warmStart(tl(120, 130)), null);
  // 50 loops of 650 ms operations complete in waves at 0.65, 1.3, 1.95 s...: 1 and 2 waves fall in
  // alternate seconds. Two-second windows see the steady rate; one-second windows would flag it.
  const waves = tl(50, 100, 50, 100, 50, 100, 50, 100);
  assert.equal(warmStart(waves)!.warm, false);
  assert.deepEqual(warmStart(waves, 655), { warm: true, firstRate: 75, medianRate: 75, windowSeconds: 2 });
  assert.equal(warmStart(tl(0, 40, 50, 100, 50, 100, 50, 100), 655)!.warm, false, 'a slow first window is still caught');
  // At 68 ms the first second lacks up to 6.8% of its completions on top of the 10%: 84% of the median is allowed, not 82%.
  assert.equal(warmStart(tl(126, 150, 150, 150), 68)!.warm, true);
  assert.equal(warmStart(tl(123, 150, 150, 150), 68)!.warm, false);
  assert.equal(warmStart(tl(170, 150, 150, 150), 68)!.warm, false, 'a burst gets no such allowance');
});
