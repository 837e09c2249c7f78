import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addCalibration,
  additionProblem,
  binomialCdf,
  calibrationMarkdown,
  calibrationText,
  clopperPearson,
  detectionRate,
  falseAlarmRate,
  gateMarkdown,
  parseGateCalibration,
  parseGateSpec,
  smallestDetected,
  type GateCalibration,
  type GateCalibrationInput,
} from '../../src/index';

const close = (a: number, b: number, tol = 1e-4) => assert.ok(Math.abs(a - b) <= tol, `${a} is not within ${tol} of ${b}`);

test('the binomial CDF sums the terms: P(X <= 2) of Binomial(4, 1/2) is 11/16', () => {
  close(binomialCdf(2, 4, 0.5), 11 / 16, 1e-12);
  assert.equal(binomialCdf(4, 4, 0.3), 1);
  assert.equal(binomialCdf(-1, 4, 0.3), 0);
  close(binomialCdf(0, 10, 0.1), 0.9 ** 10, 1e-12);
});

test('Clopper-Pearson: 0 of n has the upper end 1 - (α/2)^(1/n), n of n the mirror', () => {
  for (const n of [1, 5, 20, 60]) {
    const [lo, hi] = clopperPearson(0, n);
    assert.equal(lo, 0);
    close(hi, 1 - 0.025 ** (1 / n));
    const [lo2, hi2] = clopperPearson(n, n);
    close(lo2, 0.025 ** (1 / n));
    assert.equal(hi2, 1);
  }
});

test('Clopper-Pearson: each end puts exactly α/2 in its tail, and the interval is symmetric for k and n-k', () => {
  for (const [k, n] of [
    [1, 2],
    [5, 10],
    [3, 20],
    [19, 20],
  ] as const) {
    const [lo, hi] = clopperPearson(k, n);
    close(1 - binomialCdf(k - 1, n, lo), 0.025, 1e-9);
    close(binomialCdf(k, n, hi), 0.025, 1e-9);
    const [mlo, mhi] = clopperPearson(n - k, n);
    close(lo, 1 - mhi, 1e-9);
    close(hi, 1 - mlo, 1e-9);
  }
  // Published values (e.g. R's binom.test): 5 of 10 is 0.187–0.813, 19 of 20 is 0.751–0.999.
  const [a, b] = clopperPearson(5, 10);
  close(a, 0.1871, 1e-4);
  close(b, 0.8129, 1e-4);
  close(clopperPearson(19, 20)[0], 0.7513, 1e-4);
  // A wider confidence gives a wider interval.
  assert.ok(clopperPearson(5, 10, 0.99)[0] < a);
  assert.equal(clopperPearson(0, 0)[1], 1);
  assert.throws(() => clopperPearson(3, 2), /not a count/);
});

const gate = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.0' });
assert.ok(gate.ok);

function calibration(over: Partial<GateCalibrationInput> = {}): GateCalibration {
  const input = {
    scenario: 'steady-select1',
    language: 'node',
    version: '9.0.0',
    machine: 'bench-1',
    cores: 2,
    commit: 'abc1234',
    repeats: gate.ok ? gate.value.repeats : 5,
    criteria: gate.ok ? gate.value.criteria : {},
    baselineP50Ms: 72.4,
    aaRuns: 20,
    aaFalseAlarms: 0,
    aaInconclusive: 1,
    aaP50ChangesPct: [0.5, -0.3],
    sizes: [
      { pct: 10, delayMs: 7.24, runs: 20, detections: 20, inconclusive: 0, p50ChangesPct: [10.2] },
      { pct: 5, delayMs: 3.62, runs: 20, detections: 19, inconclusive: 1, p50ChangesPct: [4.8, 5.1] },
      { pct: 2, delayMs: 1.45, runs: 10, detections: 3, inconclusive: 5, p50ChangesPct: [] },
    ],
    gateMinutes: 3.2,
    command: 'npm run bench:calibrate -- --scenario steady-select1',
    ...over,
  };
  const parsed = parseGateCalibration(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return { ...parsed.value, id: 'c1', createdAt: '2026-11-26T15:00:00.000Z' };
}

test('rates: false alarms of the A/A runs, detections per size, the smallest size detected 90% of the time', () => {
  const c = calibration();
  const fa = falseAlarmRate(c);
  assert.deepEqual([fa.k, fa.n, fa.rate], [0, 20, 0]);
  close(fa.interval[1], 0.1684);
  const five = detectionRate(c.sizes.find((s) => s.pct === 5)!);
  assert.equal(five.rate, 0.95);
  assert.equal(smallestDetected(c)?.pct, 5);
  assert.equal(smallestDetected(c, 0.99)?.pct, 10);
  assert.equal(smallestDetected(calibration({ sizes: [] })), null);
});

test('the sentence beside a verdict: counts, exact intervals, inconclusive gates, machine, commit and date; sizes smallest first', () => {
  assert.ok(gate.ok);
  const t = calibrationText(calibration(), gate.value);
  assert.equal(
    t,
    'Calibration: false alarms 0 of 20 A/A runs (0–17%; 1 inconclusive); detects a 2% p50 regression 3 of 10 times (7–65%; 5 inconclusive), a 5% one 19 of 20 (75–100%; 1 inconclusive), a 10% one 20 of 20 (83–100%); calibrated on bench-1 (2 cores) at abc1234, 2026-11-26.',
  );
});

test('a gate unlike the calibrated one is told so; a scenario never calibrated says so', () => {
  assert.ok(gate.ok);
  const other = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '8.13.0', candidate: '9.0.0', repeats: 10, criteria: { p50RisePct: 5 } });
  assert.ok(other.ok);
  const t = calibrationText(calibration(), other.value);
  assert.ok(t.includes(`with version 9.0.0, 5 repeats per arm, criteria ${JSON.stringify(calibration().criteria)}, unlike this gate`), t);
  assert.match(calibrationText(calibration({ overrides: { timeScale: 0.2 } }), gate.value), /the scenario overridden by \{"timeScale":0\.2\}/);
  assert.match(calibrationText(null, gate.value), /^Calibration: scenario steady-select1 was never calibrated for node/);
});

test("stored text is escaped in the gate's Markdown", () => {
  assert.ok(gate.ok);
  const md = gateMarkdown({
    id: 'g1',
    url: 'https://b.example/gates/g1',
    jobUrl: 'https://b.example/jobs/j1',
    spec: gate.value,
    evaluation: null,
    calibration: calibration({ machine: 'box [x](https://evil.example) <img>' }),
  });
  assert.match(md, /Calibration: false alarms 0 of 20/);
  assert.doesNotMatch(md, /\[x\]\(https/);
  assert.doesNotMatch(md, /<img>/);
  // Not looked up: nothing said.
  assert.doesNotMatch(gateMarkdown({ id: 'g1', url: 'u', jobUrl: 'j', spec: gate.value, evaluation: null }), /Calibration/);
});

test('the findings table: one row for the A/A runs and one per size, with rates and intervals', () => {
  const md = calibrationMarkdown(calibration());
  assert.match(md, /\| A\/A \(9\.0\.0 vs itself\): false alarms \| 20 \| 0 \| 1 \| 0% \(0–17%\) \| \+0\.1% \(−0\.3% to \+0\.5%\) \|/);
  assert.match(md, /\| \+5% \(3\.62 ms per query\): detections \| 20 \| 19 \| 1 \| 95% \(75–100%\) \| \+4\.9% \(\+4\.8% to \+5\.1%\) \|/);
  assert.ok(md.indexOf('+2% (') < md.indexOf('+5% (') && md.indexOf('+5% (') < md.indexOf('+10% ('));
  assert.match(md, /Smallest regression detected at least 90% of the time: \+5%\./);
});

test('a calibration that does not add up is refused, naming the field', () => {
  const bad = parseGateCalibration({ ...calibration(), aaFalseAlarms: 30, id: undefined, createdAt: undefined });
  assert.equal(bad.ok, false);
  const input = { ...calibration() } as Record<string, unknown>;
  delete input.id;
  delete input.createdAt;
  const r = parseGateCalibration({ ...input, aaFalseAlarms: 20, aaInconclusive: 1 });
  assert.ok(!r.ok && r.issues.some((i) => i.path === 'aaFalseAlarms'));
  const s = parseGateCalibration({ ...input, scenario: 'nope' });
  assert.ok(!s.ok && s.issues.some((i) => i.path === 'scenario'));
  const v = parseGateCalibration({ ...input, commit: '$(rm -rf /)' });
  assert.ok(!v.ok && v.issues.some((i) => i.path === 'commit'));
});

test("a calibration's injection: stored ones without it waited; a busy one says its delays were spent on the CPU", () => {
  assert.ok(gate.ok);
  assert.equal(calibration().injection, 'wait');
  const busy = calibration({ injection: 'busy' });
  assert.match(calibrationText(busy, gate.value), /detects a 2% p50 regression spent on the CPU 3 of 10 times/);
  assert.doesNotMatch(calibrationText(calibration(), gate.value), /CPU/);
  const md = calibrationMarkdown(busy);
  assert.match(md, /\| \+5% \(3\.62 ms of CPU per query\): detections \|/);
  assert.match(md, /sizes the injected delays, which keep the CPU busy \(`--injection busy`\)/);
  const bad = parseGateCalibration({ ...calibration(), injection: 'spin' });
  assert.ok(!bad.ok && bad.issues.some((i) => i.path === 'injection' && /must be one of wait, busy/.test(i.message)));
});

/** A calibration as bench:calibrate measures it, before it is stored (no id, no time). */
const measured = (over: Partial<GateCalibrationInput>): GateCalibrationInput => {
  const { id: _id, createdAt: _at, ...c } = calibration(over);
  return c;
};

test('gates added to a stored calibration: counts and changes add per arm and size, the earlier sizing kept, minutes weighted', () => {
  const earlier = calibration({
    aaRuns: 10,
    aaFalseAlarms: 0,
    aaInconclusive: 1,
    aaP50ChangesPct: [0.5, -0.3],
    sizes: [{ pct: 10, delayMs: 7.24, runs: 2, detections: 2, inconclusive: 0, p50ChangesPct: [10.2, 9.8] }],
    gateMinutes: 2,
  });
  const more = measured({
    commit: 'def5678',
    // What a first A/A gate of these would have measured: the stored calibration's sizing is kept.
    baselineP50Ms: 70.1,
    aaRuns: 6,
    aaFalseAlarms: 1,
    aaInconclusive: 2,
    aaP50ChangesPct: [1.1],
    sizes: [
      { pct: 10, delayMs: 7.24, runs: 2, detections: 1, inconclusive: 1, p50ChangesPct: [8.7] },
      { pct: 20, delayMs: 14.48, runs: 1, detections: 1, inconclusive: 0, p50ChangesPct: [21] },
    ],
    gateMinutes: 4,
  });
  assert.equal(additionProblem(earlier, more), null);
  const sum = addCalibration(earlier, more);
  assert.deepEqual([sum.aaRuns, sum.aaFalseAlarms, sum.aaInconclusive, sum.aaP50ChangesPct, sum.commit, sum.addsTo, sum.baselineP50Ms], [16, 1, 3, [0.5, -0.3, 1.1], 'def5678', 'c1', 72.4]);
  assert.deepEqual(sum.sizes, [
    { pct: 10, delayMs: 7.24, runs: 4, detections: 3, inconclusive: 1, p50ChangesPct: [10.2, 9.8, 8.7] },
    { pct: 20, delayMs: 14.48, runs: 1, detections: 1, inconclusive: 0, p50ChangesPct: [21] },
  ]);
  // 12 gates at a median of 2 min and 9 at 4: (24 + 36) / 21.
  close(sum.gateMinutes, 60 / 21);
  const parsed = parseGateCalibration(sum);
  assert.ok(parsed.ok);
  const md = calibrationMarkdown({ ...parsed.value, id: 'c2', createdAt: '2026-11-28T08:00:00.000Z' });
  assert.match(md, /^### steady-select1, node 9\.0\.0 \(2026-11-28, calibration c2\)$/m);
  assert.match(md, /the counts include calibration c1's gates/);
  assert.match(md, /\| A\/A \(9\.0\.0 vs itself\): false alarms \| 16 \| 1 \| 3 \|/);
});

test('gates unlike the stored ones are not added to them, naming what differs', () => {
  const earlier = calibration();
  assert.match(additionProblem(earlier, calibration({ version: '8.13.0' })) ?? '', /its version is "9\.0\.0", these gates' "8\.13\.0"/);
  assert.match(additionProblem(earlier, calibration({ repeats: 8 })) ?? '', /its repeats is/);
  assert.match(additionProblem(earlier, calibration({ injection: 'busy' })) ?? '', /its injection is "wait", these gates' "busy"/);
  assert.match(additionProblem(earlier, calibration({ criteria: { ...earlier.criteria, p50RisePct: (earlier.criteria.p50RisePct ?? 0) + 1 } })) ?? '', /its criteria are/);
  assert.match(additionProblem(earlier, calibration({ overrides: { timeScale: 2 } })) ?? '', /its gates override \{\}, these \{"timeScale":2\}/);
  assert.match(additionProblem(earlier, calibration({ cores: 16 })) ?? '', /its cores is 2, these gates' 16/);
  assert.match(additionProblem(earlier, calibration({ machine: 'bench-2' })) ?? '', /its machine is "bench-1"/);
  // The same overridden fields in another key order (a JSON column gives them back in its own) are the same gates.
  const overridden = calibration({ overrides: { repeats: 3, workload: { warmupOps: 20, durationSeconds: 1 }, concurrency: [5] } });
  assert.equal(additionProblem(overridden, calibration({ overrides: { concurrency: [5], repeats: 3, workload: { durationSeconds: 1, warmupOps: 20 } } })), null);
  const resized = calibration({ sizes: [{ pct: 10, delayMs: 8, runs: 1, detections: 1, inconclusive: 0, p50ChangesPct: [] }] });
  assert.match(additionProblem(earlier, resized) ?? '', /its \+10% build added 7\.24 ms, this one 8 ms/);
});
