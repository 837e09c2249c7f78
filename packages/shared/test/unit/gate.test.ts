import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bootstrapRatioOfMedians,
  evaluateGate,
  gateJobSpec,
  gateScenario,
  gateSetupLine,
  judgeMetric,
  parseGateSpec,
  parseJobSpec,
  planCells,
  scenarioFor,
  type GateSample,
  type JudgeOptions,
} from '../../src/index';

const judge = (o: Partial<JudgeOptions> & Pick<JudgeOptions, 'baseline' | 'candidate'>) =>
  judgeMetric({ metric: 'qps', concurrency: 400, allowedPct: 10, confidence: 0.9, worstRepeat: false, worstRepeatCount: 2, ...o });

// Per-repeat qps with about 1.5% noise around 600.
const steady = [598, 604, 591, 607, 596];

test('a clear qps regression fails, with the change, its interval and the metric in the reason', () => {
  const j = judge({ baseline: steady, candidate: [231, 250, 244, 262, 239] });
  assert.equal(j.verdict, 'fail');
  assert.ok(j.changePct < -55 && j.changePct > -65, `${j.changePct}`);
  assert.ok(j.ciPct[1] < -50, `interval ${j.ciPct}`);
  assert.match(j.reason, /^qps at C=400 fell 59% \(90% CI −\d+%\.\.−\d+%; median 244 qps vs 598 qps\), more than the allowed 10%$/);
});

test('a clear improvement passes: only the worse direction counts', () => {
  const qps = judge({ baseline: steady, candidate: steady.map((v) => v * 1.5) });
  assert.equal(qps.verdict, 'pass');
  assert.ok(qps.changePct > 45);
  const p99 = judge({ metric: 'p99Ms', allowedPct: 20, baseline: [700, 720, 760, 710, 730], candidate: [350, 360, 340, 370, 355] });
  assert.equal(p99.verdict, 'pass');
  assert.match(p99.reason, /^p99 at C=400 changed −51%/);
});

test('pure noise passes an A/A comparison', () => {
  const j = judge({ baseline: steady, candidate: [601, 593, 606, 599, 590] });
  assert.equal(j.verdict, 'pass');
  assert.ok(Math.abs(j.changePct) < 2);
  assert.ok(j.ciPct[0] > -10 && j.ciPct[1] < 10, `${j.ciPct}`);
});

test('a small but real change within the allowed one passes; a noisy arm is inconclusive', () => {
  const small = judge({ baseline: steady, candidate: steady.map((v) => v * 0.95) });
  assert.equal(small.verdict, 'pass', small.reason);
  const noisy = judge({ baseline: steady, candidate: [300, 900, 610, 450, 750] });
  assert.equal(noisy.verdict, 'inconclusive', noisy.reason);
  assert.match(noisy.reason, /too noisy/);
});

test('too few repeats are inconclusive, never pass or fail', () => {
  const j = judge({ baseline: [600, 601], candidate: [100, 120] });
  assert.equal(j.verdict, 'inconclusive');
  assert.match(j.reason, /too few repeats .*2 baseline, 2 candidate; at least 3 each/);
});

test('a regression in only some repeats fails through the worst-repeat test, not the median test', () => {
  const candidate = [590, 232, 601, 401, 597]; // two of five cold starts collapse
  const off = judge({ baseline: steady, candidate });
  assert.notEqual(off.verdict, 'fail', 'the median alone hides it');
  const on = judge({ baseline: steady, candidate, worstRepeat: true, worstRepeatCount: 1 });
  assert.equal(on.verdict, 'fail');
  assert.equal(on.worst?.beyond, 2);
  assert.match(on.reason, /^qps at C=400 was more than 10% below the baseline's worst repeat \(591 qps\) in 2 of 5 candidate repeats \(worst 232 qps, −61%\)$/);
  // One collapsed repeat of five fails by default; asking for two leaves it inconclusive (the
  // median's interval reaches the collapse), never pass.
  const once = [590, 232, 601, 604, 597];
  assert.equal(judge({ baseline: steady, candidate: once, worstRepeat: true, worstRepeatCount: 1 }).verdict, 'fail');
  const twoNeeded = judge({ baseline: steady, candidate: once, worstRepeat: true, worstRepeatCount: 2 });
  assert.equal(twoNeeded.worst?.verdict, 'pass');
  assert.equal(twoNeeded.verdict, 'inconclusive');
});

test('noise is kept out of the worst-repeat test by the margin, not by luck', () => {
  // Every candidate repeat below the baseline's worst (591), none by more than 10%: a pass.
  const j = judge({ baseline: steady, candidate: [585, 580, 578, 589, 583], worstRepeat: true, worstRepeatCount: 1 });
  assert.equal(j.worst?.verdict, 'pass');
  assert.equal(j.worst?.beyond, 0);
  assert.equal(j.worst?.bound, 591 * 0.9);
  assert.equal(j.verdict, 'pass', j.reason);
  // Latency: the bound is 20% above the baseline's worst p99.
  const p99 = judge({ metric: 'p99Ms', allowedPct: 20, baseline: [700, 720, 770, 690, 710], candidate: [760, 780, 790, 900, 740], worstRepeat: true, worstRepeatCount: 1 });
  assert.equal(p99.worst?.bound, 770 * 1.2);
  assert.equal(p99.worst?.verdict, 'pass');
  const p99Bad = judge({ metric: 'p99Ms', allowedPct: 20, baseline: [700, 720, 770, 690, 710], candidate: [760, 1816, 700, 710, 740], worstRepeat: true, worstRepeatCount: 1 });
  assert.equal(p99Bad.verdict, 'fail');
  assert.match(p99Bad.reason, /p99 at C=400 was more than 20% above the baseline's worst repeat \(770 ms\) in 1 of 5 candidate repeats \(worst 1816 ms, \+136%\)/);
});

test('the bootstrap interval is reproducible and contains the point estimate', () => {
  const b = [10, 11, 12, 13, 14];
  const c = [12, 13, 14, 15, 16];
  const a = bootstrapRatioOfMedians(b, c, 0.9);
  assert.deepEqual(bootstrapRatioOfMedians(b, c, 0.9), a);
  assert.ok(a[0] <= (14 / 12 - 1) * 100 && (14 / 12 - 1) * 100 <= a[1], `${a}`);
  const wide = bootstrapRatioOfMedians(b, c, 0.99);
  assert.ok(wide[0] <= a[0] && wide[1] >= a[1]);
});

test('a gate fails when any metric at any concurrency fails and says which', () => {
  const samples: GateSample[] = [];
  for (let repeat = 1; repeat <= 5; repeat++) {
    for (const concurrency of [50, 400]) {
      const noise = 1 + (repeat - 3) / 200;
      samples.push({ arm: 'baseline', concurrency, repeat, qps: concurrency * 1.5 * noise, p50Ms: 65 * noise, p99Ms: 90 * noise, errorPct: 0 });
      const slow = concurrency === 400 ? 3 : 1;
      samples.push({ arm: 'candidate', concurrency, repeat, qps: (concurrency * 1.5 * noise) / slow, p50Ms: 65 * slow * noise, p99Ms: 90 * slow * noise, errorPct: 0 });
    }
  }
  const criteria = { qpsDropPct: 10, p50RisePct: 20, p99RisePct: 20, confidence: 0.9, worstRepeat: false, worstRepeatCount: 2, errorRisePts: 1 };
  const e = evaluateGate(samples, { criteria, concurrency: [50, 400] });
  assert.equal(e.verdict, 'fail');
  assert.equal(e.metrics.length, 6);
  assert.deepEqual(
    e.metrics.filter((m) => m.verdict === 'fail').map((m) => `${m.metric}@${m.concurrency}`),
    ['qps@400', 'p50Ms@400', 'p99Ms@400'],
  );
  assert.equal(e.reasons.length, 3);
  assert.match(e.reasons[0], /^qps at C=400 fell 67%/);
  const aa = evaluateGate(
    samples.filter((s) => s.arm === 'baseline').flatMap((s) => [s, { ...s, arm: 'candidate' as const }]),
    { criteria, concurrency: [50, 400] },
  );
  assert.equal(aa.verdict, 'pass');
  // A concurrency with no candidate result is inconclusive there; the failing one still fails the gate.
  const missing = evaluateGate(
    samples.filter((s) => !(s.arm === 'candidate' && s.concurrency === 50)),
    { criteria: { ...criteria }, concurrency: [50, 400] },
  );
  assert.equal(missing.verdict, 'fail');
  assert.equal(missing.metrics.find((m) => m.concurrency === 50)?.verdict, 'inconclusive');
  // With nothing failing, a concurrency without results leaves the gate inconclusive.
  const onlyMissing = evaluateGate(
    samples.filter((s) => s.concurrency === 50 && s.arm === 'baseline'),
    { criteria, concurrency: [50] },
  );
  assert.equal(onlyMissing.verdict, 'inconclusive');
});

test('a candidate whose calls fail fails the gate even when its successes are fast', () => {
  const samples: GateSample[] = [];
  for (let repeat = 1; repeat <= 5; repeat++) {
    samples.push({ arm: 'baseline', concurrency: 50, repeat, qps: 700, p50Ms: 65, p99Ms: 90, errorPct: repeat === 2 ? 0.5 : 0 });
    samples.push({ arm: 'candidate', concurrency: 50, repeat, qps: 700, p50Ms: 65, p99Ms: 90, errorPct: repeat === 4 ? 30 : 1.2 });
  }
  const criteria = { qpsDropPct: 10, p50RisePct: 20, p99RisePct: 20, confidence: 0.9, worstRepeat: false, worstRepeatCount: 1, errorRisePts: 1 };
  const e = evaluateGate(samples, { criteria, concurrency: [50] });
  assert.equal(e.verdict, 'fail');
  assert.deepEqual(e.reasons, ['errors at C=50: up to 30% of calls failed in 1 of 5 candidate repeats (baseline at most 0.5%; allowed 1 percentage point more)']);
  // 1.2% against a worst of 0.5% is within the allowed point.
  assert.equal(
    evaluateGate(
      samples.filter((s) => !(s.arm === 'candidate' && s.repeat === 4)),
      { criteria, concurrency: [50] },
    ).verdict,
    'pass',
  );
});

test('a baseline median of zero is inconclusive with a reason, not NaN', () => {
  const j = judge({ metric: 'p50Ms', allowedPct: 20, baseline: [0, 0, 0], candidate: [65, 66, 64] });
  assert.equal(j.verdict, 'inconclusive');
  assert.match(j.reason, /baseline's median is 0\.00 ms, so no ratio can be formed/);
});

test('a gate spec names bad fields and becomes an interleaved job of fresh cells', () => {
  const bad = parseGateSpec({ scenario: 'nope', language: 'java', baseline: '6.104', candidate: 'latest', repeats: 0 });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.deepEqual(bad.issues.map((i) => i.path).sort(), ['baseline', 'candidate', 'repeats', 'scenario']);

  const g = parseGateSpec({ scenario: 'affinity-burst', language: 'java', baseline: '6.104.0', candidate: '6.104.0', candidateConfiguration: { grpcGcp: 'on' } });
  assert.ok(g.ok);
  if (!g.ok) return;
  assert.equal(g.value.repeats, 27, "the burst scenario's own default: the fewest at which its mode test has power 0.8");
  assert.equal(g.value.criteria.worstRepeat, false, 'off by default for a burst scenario judged by its mode');
  assert.equal(g.value.criteria.qpsDropPct, 10);
  assert.equal(g.value.criteria.worstRepeatCount, 1);
  const job = parseJobSpec(gateJobSpec(g.value));
  assert.ok(job.ok);
  if (!job.ok) return;
  const cells = planCells(job.value);
  assert.equal(cells.length, 54);
  assert.deepEqual(
    cells.slice(0, 4).map((c) => `${c.arm} r${c.repeat}`),
    ['baseline r1', 'candidate r1', 'baseline r2', 'candidate r2'],
  );
  // Labels say what the options are, so the across-versions chart never shows "baseline" as a configuration.
  assert.deepEqual(
    cells.slice(0, 2).map((c) => c.configuration.label),
    ['numChannels=32', 'grpcGcp=on, numChannels=32'],
  );
  assert.equal(cells[0].configuration.numChannels, 32);
  assert.equal(cells[0].configuration.grpcGcp, 'default');
  assert.equal(cells[1].configuration.grpcGcp, 'on');

  const steady = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.0' });
  assert.ok(steady.ok && steady.value.criteria.worstRepeat === false && steady.value.repeats === 5);
  // An arm's options override only what they set: grpc-gcp stays as configured for both arms.
  const layered = parseGateSpec({
    scenario: 'steady-select1',
    language: 'java',
    baseline: '6.104.0',
    candidate: '6.105.0',
    configuration: { grpcGcp: 'on' },
    candidateConfiguration: { numChannels: 8 },
  });
  assert.ok(layered.ok);
  if (layered.ok) {
    const cfgs = parseJobSpec(gateJobSpec(layered.value));
    assert.ok(cfgs.ok && cfgs.value.configurations[1].grpcGcp === 'on' && cfgs.value.configurations[1].numChannels === 8);
  }
  const undecidable = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.0', repeats: 2, criteria: { worstRepeatCount: 4 } });
  assert.ok(!undecidable.ok);
  if (!undecidable.ok) assert.deepEqual(undecidable.issues.map((i) => i.path).sort(), ['criteria.worstRepeatCount', 'repeats']);
  const tooMany = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.0', criteria: { worstRepeatCount: 6 } });
  assert.ok(!tooMany.ok && tooMany.issues[0].path === 'criteria.worstRepeatCount' && /at most the repeats per arm \(5\)/.test(tooMany.issues[0].message));
  const zipMismatch = parseJobSpec({ ...gateJobSpec(g.value), configurations: [{ label: 'x' }] });
  assert.ok(!zipMismatch.ok && zipMismatch.issues.some((i) => i.path === 'configurations' && /one configuration per client/.test(i.message)));
  // An A/A gate: the same client and options in both arms, told apart by the arm only.
  const aa = parseJobSpec(gateJobSpec(steady.ok ? steady.value : (undefined as never)));
  assert.ok(aa.ok, JSON.stringify(!aa.ok && aa.issues));
  const noArms = parseJobSpec({ ...gateJobSpec(steady.value), arms: undefined });
  assert.ok(!noArms.ok && noArms.issues.some((i) => i.path === 'configurations' && /same client, configuration label and arm/.test(i.message)));
  const crossArms = parseJobSpec({ ...gateJobSpec(steady.value), pairing: 'cross' });
  assert.ok(!crossArms.ok && crossArms.issues.some((i) => i.path === 'arms'));

  // Go has no grpc-gcp: refused at the layer that asks for it.
  const goOn = parseGateSpec({ scenario: 'steady-select1', language: 'go', baseline: '1.33.0', candidate: '1.96.1', candidateConfiguration: { grpcGcp: 'on' } });
  assert.ok(!goOn.ok && goOn.issues.map((i) => i.path).join() === 'candidateConfiguration.grpcGcp', JSON.stringify(!goOn.ok && goOn.issues));
  const goOk = parseGateSpec({ scenario: 'steady-select1', language: 'go', baseline: '1.33.0', candidate: '1.96.1' });
  assert.ok(goOk.ok && parseJobSpec(gateJobSpec(goOk.value)).ok);
});

test("a gate judges the scenario's operation kind while its workload runs it, or one the gate names from the mix", () => {
  const base = { scenario: 'abort-backoff', language: 'go', baseline: '1.96.1', candidate: '1.96.1' };
  const own = parseGateSpec(base);
  assert.ok(own.ok && own.value.operation === 'readWriteTxn');
  assert.match(gateSetupLine(own.value), /judged on readWriteTxn/);
  // A workload without that kind: the cell total, unless the gate names a kind of its mix.
  const select1 = parseGateSpec({ ...base, workload: { operation: 'select1', durationSeconds: 2 } });
  assert.ok(select1.ok && select1.value.operation === undefined);
  const mix = {
    mix: [
      { operation: 'select1', weight: 3 },
      { operation: 'pointRead', weight: 1 },
    ],
    durationSeconds: 2,
  };
  const named = parseGateSpec({ ...base, workload: mix, operation: 'pointRead' });
  assert.ok(named.ok && named.value.operation === 'pointRead');
  const absent = parseGateSpec({ ...base, workload: mix, operation: 'readOnlyTxn' });
  assert.ok(!absent.ok);
  assert.deepEqual(absent.issues, [{ path: 'operation', message: "is not in the workload's mix (select1, pointRead)" }]);
  const unknown = parseGateSpec({ ...base, operation: 'delete' });
  assert.ok(!unknown.ok && unknown.issues[0]!.path === 'operation');
  // The steady scenarios have no kind of their own.
  const steady = parseGateSpec({ ...base, scenario: 'steady-select1' });
  assert.ok(steady.ok && steady.value.operation === undefined);
});

test('the result-set gate scenario makes a valid job for every language: a scan of every type, judged on scan', () => {
  for (const [language, version] of [
    ['node', '9.0.0'],
    ['java', '6.123.0'],
    ['go', '1.96.1'],
  ] as const) {
    const g = parseGateSpec({ scenario: 'result-set-decode', language, baseline: version, candidate: version });
    assert.ok(g.ok, JSON.stringify(!g.ok && g.issues));
    const job = parseJobSpec(gateJobSpec(g.value));
    assert.ok(job.ok, JSON.stringify(!job.ok && job.issues));
    assert.equal(job.value.workload.operation, 'scan');
    assert.equal(job.value.workload.resultSet?.columns.length, 20);
    assert.equal(g.value.operation ?? gateScenario('result-set-decode')?.operation, 'scan');
  }
});

test("a scan gate's CPU per 1,000 rows: a candidate that spends more fails, the reason naming the metric", () => {
  // Five repeats per arm at C=1: the same scans per second, latencies and first-row times, but the
  // candidate's driver spends 30% more CPU per row (about 1.5% noise on each).
  const samples: GateSample[] = [];
  for (let repeat = 1; repeat <= 5; repeat++) {
    const noise = 1 + (repeat - 3) / 200;
    const arm = { concurrency: 1, repeat, qps: 170 * noise, p50Ms: 5.6 * noise, p99Ms: 7 * noise, rowsPerSecond: 17_000 * noise, firstRowP50Ms: 4.1 * noise, errorPct: 0 };
    samples.push({ ...arm, arm: 'baseline', cpuMsPer1kRows: 55 * noise });
    samples.push({ ...arm, arm: 'candidate', cpuMsPer1kRows: 55 * 1.3 * noise });
  }
  const g = parseGateSpec({ scenario: 'result-set-decode', language: 'java', baseline: '6.122.0', candidate: '6.123.0' });
  assert.ok(g.ok, JSON.stringify(!g.ok && g.issues));
  // The scenario's own: CPU per row +15%, first row +20%, qps −15%; rows per second (the scans' qps × 100 here) not judged.
  assert.deepEqual([g.value.criteria.cpuPer1kRowsRisePct, g.value.criteria.firstRowP50RisePct, g.value.criteria.qpsDropPct, g.value.criteria.rowsPerSecondDropPct], [15, 20, 15, undefined]);
  // p99 is not judged by the scenario (at one agent it is the scheduler's), and the setup line says so.
  assert.equal(g.value.criteria.p99RisePct, undefined);
  assert.match(gateSetupLine(g.value), /allowed: qps −15%, p50 \+20%, CPU per 1,000 rows \+15%, first-row p50 \+20%, p99 not judged/);
  const e = evaluateGate(samples, { criteria: { ...g.value.criteria, worstRepeat: false }, concurrency: [1] });
  assert.equal(e.verdict, 'fail');
  assert.deepEqual(
    e.metrics.map((m) => `${m.metric} ${m.verdict}`),
    ['qps pass', 'p50Ms pass', 'cpuMsPer1kRows fail', 'firstRowP50Ms pass'],
  );
  // A gate's own p99 limit judges it: a candidate whose p99 doubled fails on it.
  const withP99 = parseGateSpec({ scenario: 'result-set-decode', language: 'java', baseline: '6.122.0', candidate: '6.123.0', criteria: { p99RisePct: 20 } });
  assert.ok(withP99.ok);
  assert.match(gateSetupLine(withP99.value), /allowed: qps −15%, p50 \+20%, p99 \+20%, CPU per 1,000 rows/);
  const tail = samples.map((s) => ({ ...s, cpuMsPer1kRows: 55, p99Ms: s.arm === 'candidate' ? s.p99Ms * 2 : s.p99Ms }));
  const judged = evaluateGate(tail, { criteria: { ...withP99.value.criteria, worstRepeat: false }, concurrency: [1] });
  assert.deepEqual(
    judged.metrics.map((m) => `${m.metric} ${m.verdict}`),
    ['qps pass', 'p50Ms pass', 'p99Ms fail', 'cpuMsPer1kRows pass', 'firstRowP50Ms pass'],
  );
  assert.equal(evaluateGate(tail, { criteria: { ...g.value.criteria, worstRepeat: false }, concurrency: [1] }).verdict, 'pass');
  assert.equal(e.reasons.length, 1);
  assert.match(e.reasons[0]!, /^CPU per 1,000 rows at C=1 rose 30% \(90% CI \+\d+%\.\.\+\d+%; median 71\.5 ms vs 55\.0 ms\), more than the allowed 15%$/);
  // The same CPU in both arms passes; rows per second, where a gate asks for it, fails when it falls (higher is better).
  const same = samples.map((s) => ({ ...s, cpuMsPer1kRows: s.arm === 'candidate' ? s.cpuMsPer1kRows! / 1.3 : s.cpuMsPer1kRows }));
  assert.equal(evaluateGate(same, { criteria: { ...g.value.criteria, worstRepeat: false }, concurrency: [1] }).verdict, 'pass');
  const slower = same.map((s) => (s.arm === 'candidate' ? { ...s, rowsPerSecond: s.rowsPerSecond! * 0.7 } : s));
  const rows = evaluateGate(slower, { criteria: { ...g.value.criteria, rowsPerSecondDropPct: 10, worstRepeat: false }, concurrency: [1] });
  assert.deepEqual(
    rows.reasons.map((r) => r.split(' (')[0]),
    ['rows/s at C=1 fell 30%'],
  );
  // Without a scan criterion the gate judges qps, p50 and p99 only, as every other scenario.
  assert.deepEqual(
    evaluateGate(samples, { criteria: { qpsDropPct: 10, p50RisePct: 20, p99RisePct: 20, confidence: 0.9, worstRepeat: false, worstRepeatCount: 1, errorRisePts: 1 }, concurrency: [1] }).metrics.map(
      (m) => m.metric,
    ),
    ['qps', 'p50Ms', 'p99Ms'],
  );
});

test('scan criteria are refused by name for a gate whose workload runs no scan, and taken from the gate over the scenario', () => {
  const base = { language: 'node', baseline: '9.0.0', candidate: '9.0.0' };
  const steady = parseGateSpec({ ...base, scenario: 'steady-select1', criteria: { cpuPer1kRowsRisePct: 5 } });
  assert.ok(!steady.ok);
  assert.deepEqual(steady.issues, [{ path: 'criteria.cpuPer1kRowsRisePct', message: "judges a scan's result set: the gate's workload runs none (scenario steady-select1)" }]);
  const overridden = parseGateSpec({ ...base, scenario: 'result-set-decode', workload: { operation: 'select1', durationSeconds: 2 }, criteria: { firstRowP50RisePct: 5 } });
  assert.ok(!overridden.ok && overridden.issues[0]!.path === 'criteria.firstRowP50RisePct' && /workload overridden/.test(overridden.issues[0]!.message));
  // A result-set-decode gate whose workload runs no scan gets none of the scenario's scan criteria.
  const select1 = parseGateSpec({ ...base, scenario: 'result-set-decode', workload: { operation: 'select1', durationSeconds: 2 } });
  assert.ok(select1.ok && select1.value.criteria.cpuPer1kRowsRisePct === undefined && select1.value.criteria.firstRowP50RisePct === undefined);
  const own = parseGateSpec({ ...base, scenario: 'result-set-decode', criteria: { cpuPer1kRowsRisePct: 5, rowsPerSecondDropPct: 15 } });
  assert.ok(own.ok);
  assert.deepEqual([own.value.criteria.cpuPer1kRowsRisePct, own.value.criteria.firstRowP50RisePct, own.value.criteria.rowsPerSecondDropPct], [5, 20, 15]);
  const bad = parseGateSpec({ ...base, scenario: 'result-set-decode', criteria: { cpuPer1kRowsRisePct: -1 } });
  assert.ok(!bad.ok && bad.issues[0]!.path === 'criteria.cpuPer1kRowsRisePct');
});

test("a gate's limits: its own, else its scenario's, else the defaults; a load level's over the gate's, named where it is no level of the gate", () => {
  const base = { language: 'go', baseline: '1.96.1', candidate: '1.96.1' };
  const scenario = gateScenario('steady-select1')!;
  const own = scenario.criteria!;
  const plain = parseGateSpec({ ...base, scenario: 'steady-select1' });
  assert.ok(plain.ok);
  assert.equal(plain.value.criteria.p50RisePct, own.p50RisePct);
  assert.deepEqual(plain.value.criteria.levels, own.levels);
  // A scenario without limits of its own gets the defaults, and no levels.
  const burst = parseGateSpec({ ...base, language: 'java', scenario: 'affinity-burst' });
  assert.ok(burst.ok);
  assert.deepEqual([burst.value.criteria.qpsDropPct, burst.value.criteria.p50RisePct, burst.value.criteria.p99RisePct, burst.value.criteria.levels], [10, 20, 20, undefined]);
  // A gate that sets p50 sets it everywhere: the scenario's level limits of p50 give way, its other ones stay.
  const [level, set] = Object.entries(own.levels!)[0]!;
  const p50 = parseGateSpec({ ...base, scenario: 'steady-select1', criteria: { p50RisePct: 7 } });
  assert.ok(p50.ok);
  assert.equal(p50.value.criteria.p50RisePct, 7);
  assert.equal(p50.value.criteria.levels?.[level]?.p50RisePct, undefined);
  const others = Object.keys(set).filter((k) => k !== 'p50RisePct');
  for (const k of others) assert.equal(p50.value.criteria.levels?.[level]?.[k as keyof typeof set], set[k as keyof typeof set]);
  // The gate's own level limits over the scenario's; one at a level the gate does not run is refused by name.
  const mine = parseGateSpec({ ...base, scenario: 'steady-select1', criteria: { levels: { [level]: { p99RisePct: 33 } } } });
  assert.ok(mine.ok);
  assert.deepEqual(mine.value.criteria.levels?.[level], { ...set, p99RisePct: 33 });
  const elsewhere = parseGateSpec({ ...base, scenario: 'steady-select1', criteria: { levels: { '30': { p50RisePct: 5 } } } });
  assert.ok(!elsewhere.ok);
  assert.deepEqual(elsewhere.issues, [{ path: 'criteria.levels.30', message: `is not a load level of the gate (${scenario.concurrency!.join(', ')})` }]);
  const word = parseGateSpec({ ...base, scenario: 'steady-select1', criteria: { levels: { high: { p50RisePct: 5 } } } });
  assert.deepEqual(word.ok ? [] : word.issues, [{ path: 'criteria.levels.high', message: 'must be a load level (a whole number such as 50)' }]);
  // A gate that runs other levels keeps none of the scenario's.
  const moved = parseGateSpec({ ...base, scenario: 'steady-select1', concurrency: [5] });
  assert.ok(moved.ok && moved.value.criteria.levels === undefined);
  assert.match(gateSetupLine(plain.value), new RegExp(`allowed: qps −\\d+%, p50 \\+${own.p50RisePct}%, p99 \\+\\d+% \\(at C=${level}: `));
});

test("a language's own repeats and limits: over its scenario's, a level's merged; another language keeps the scenario's", () => {
  const steady = gateScenario('steady-select1')!;
  const tuned = { ...steady, languages: { node: { repeats: 9, criteria: { p50RisePct: 6, levels: { '50': { p99RisePct: 55 } } }, why: 'a test' } } };
  const node = scenarioFor(tuned, 'node');
  assert.equal(node.repeats, 9);
  assert.equal(node.criteria?.p50RisePct, 6);
  // The scenario's own level limits stay where the language sets none of that metric.
  assert.deepEqual(node.criteria?.levels?.['50'], { ...steady.criteria!.levels!['50'], p99RisePct: 55 });
  assert.deepEqual(scenarioFor(tuned, 'go'), { repeats: steady.repeats, criteria: steady.criteria });
  // A gate of a tuned language gets the tuning through the real scenario list, and its own fields still win.
  for (const [language, version] of [
    ['node', '9.0.0'],
    ['go', '1.96.1'],
  ] as const) {
    const own = scenarioFor(steady, language);
    const g = parseGateSpec({ scenario: 'steady-select1', language, baseline: version, candidate: version });
    assert.ok(g.ok);
    assert.equal(g.value.repeats, own.repeats);
    assert.equal(g.value.criteria.p50RisePct, own.criteria?.p50RisePct);
    const mine = parseGateSpec({ scenario: 'steady-select1', language, baseline: version, candidate: version, repeats: 4, criteria: { p50RisePct: 3 } });
    assert.ok(mine.ok && mine.value.repeats === 4 && mine.value.criteria.p50RisePct === 3);
  }
  assert.notDeepEqual(scenarioFor(steady, 'node'), scenarioFor(steady, 'go'), "steady-select1's Node gates run on their own limits (findings/gate-calibration.md)");
  // A language's own repeats reach its gates: Node's result-set-decode runs more a side than Java's (its noise).
  const decode = (language: 'node' | 'java') => parseGateSpec({ scenario: 'result-set-decode', language, baseline: '9.0.0', candidate: '9.0.0' });
  const [nodeDecode, javaDecode] = [decode('node'), decode('java')];
  assert.ok(nodeDecode.ok && javaDecode.ok);
  assert.ok(nodeDecode.value.repeats! > javaDecode.value.repeats!, "Node's result-set-decode gates run more repeats a side");
});

test("a level's own limit judges that level's metric: the same +4% p50 at C=50 fails against 2% and passes against 6%", () => {
  const samples: GateSample[] = [];
  for (let repeat = 1; repeat <= 5; repeat++)
    for (const concurrency of [10, 50]) {
      const noise = 1 + (repeat - 3) / 1000;
      const rise = concurrency === 50 ? 1.04 : 1;
      samples.push({ arm: 'baseline', concurrency, repeat, qps: 100 * noise, p50Ms: 65 * noise, p99Ms: 90 * noise, errorPct: 0 });
      samples.push({ arm: 'candidate', concurrency, repeat, qps: 100 * noise, p50Ms: 65 * rise * noise, p99Ms: 90 * noise, errorPct: 0 });
    }
  const criteria = { qpsDropPct: 10, p50RisePct: 2, p99RisePct: 20, confidence: 0.9, worstRepeat: false, worstRepeatCount: 1, errorRisePts: 1 };
  const strict = evaluateGate(samples, { criteria, concurrency: [10, 50] });
  assert.equal(strict.verdict, 'fail');
  assert.match(strict.reasons[0]!, /^p50 at C=50 rose 4\.0% .*more than the allowed 2%/);
  const loose = evaluateGate(samples, { criteria: { ...criteria, levels: { '50': { p50RisePct: 6 } } }, concurrency: [10, 50] });
  assert.equal(loose.verdict, 'pass');
  assert.deepEqual(
    loose.metrics.filter((m) => m.metric === 'p50Ms').map((m) => [m.concurrency, m.limitPct]),
    [
      [10, 2],
      [50, 6],
    ],
  );
});

test('an inconclusive median test says how many repeats its noise would need; a decided one says nothing of it', () => {
  // p50 repeats varying by about 4% in both arms, no change: too noisy for a 2% limit with 5 repeats.
  const wobble = [0.95, 1.03, 0.99, 1.05, 0.98];
  const samples: GateSample[] = wobble.flatMap((w, i) => [
    { arm: 'baseline' as const, concurrency: 50, repeat: i + 1, qps: 700, p50Ms: 70 * w, p99Ms: 95, errorPct: 0 },
    { arm: 'candidate' as const, concurrency: 50, repeat: i + 1, qps: 700, p50Ms: 70 * wobble[(i + 2) % 5]!, p99Ms: 95, errorPct: 0 },
  ]);
  const criteria = { qpsDropPct: 10, p50RisePct: 2, p99RisePct: 20, confidence: 0.9, worstRepeat: false, worstRepeatCount: 1, errorRisePts: 1 };
  const noisy = evaluateGate(samples, { criteria, concurrency: [50] });
  assert.equal(noisy.verdict, 'inconclusive');
  const p50 = noisy.metrics.find((m) => m.metric === 'p50Ms')!;
  assert.ok(p50.repeatsNeeded! > 5, `needs ${p50.repeatsNeeded}`);
  assert.ok(p50.repeatsCvPct! > 3 && p50.repeatsCvPct! < 5, `cv ${p50.repeatsCvPct}`);
  const note = noisy.reasons.find((r) => r.startsWith('with 5 repeats per arm, p50 at C=50'));
  assert.ok(note, noisy.reasons.join('\n'));
  assert.match(note, new RegExp(`varied by ${p50.repeatsCvPct!.toFixed(1)}%\\) cannot tell a 2% change from none 80% of the time: that takes about ${p50.repeatsNeeded} per arm$`));
  // Twice the noise needs about four times the repeats.
  const wider = evaluateGate(
    samples.map((s) => ({ ...s, p50Ms: 70 + (s.p50Ms - 70) * 2 })),
    { criteria, concurrency: [50] },
  ).metrics.find((m) => m.metric === 'p50Ms')!;
  assert.ok(wider.repeatsNeeded! > 3 * p50.repeatsNeeded! && wider.repeatsNeeded! < 5 * p50.repeatsNeeded!, `${wider.repeatsNeeded} against ${p50.repeatsNeeded}`);
  // The same repeats against a 20% limit pass, and say nothing of repeats.
  const loose = evaluateGate(samples, { criteria: { ...criteria, p50RisePct: 20 }, concurrency: [50] });
  assert.equal(loose.verdict, 'pass');
  assert.ok(loose.metrics.every((m) => m.repeatsNeeded === undefined));
  assert.ok(!loose.reasons.some((r) => /repeats per arm/.test(r)));
});
