import assert from 'node:assert/strict';
import { test } from 'node:test';
import { affinityCollapsed, AFFINITY_COLLAPSE_DETECTION, evaluateGate, gateMarkdown, gateScenario, parseGateSpec, weightedHolm, type GateSample } from '../../src/index';
import { boschlooOneSided, fisherOneSided, judgeUnfinished, normalQuantile, rejectionRate, repeatsForMedianPower, repeatsForModePower, worstFalseAlarmRate } from '../../src/gate/gate-modes';

// scipy.stats 1.18.1: fisher_exact(t, alternative='greater').pvalue and boschloo_exact(t, alternative='greater', n=64).pvalue
// of t = [[candidate bad, baseline bad], [candidate good, baseline good]].
const SCIPY: [number, number, number, number, number, number][] = [
  // baseline bad, of, candidate bad, of, Fisher, Boschloo
  [31, 63, 74, 117, 0.048312210086912236, 0.03556406430154675],
  [0, 10, 3, 10, 0.10526315789473684, 0.05788803100585946],
  [0, 10, 4, 10, 0.043343653250773995, 0.02109527587890628],
  [2, 10, 3, 10, 0.5, 0.41190147399902405],
  [0, 10, 2, 10, 0.2368421052631579, 0.13167381286621116],
  [1, 27, 6, 27, 0.0501426985888695, 0.031104896060729352],
  [3, 10, 2, 10, 0.848297213622291, 0.7478859745830567],
];

test("Fisher's and Boschloo's one-sided exact tests give scipy's p-values", () => {
  for (const [bb, nb, cb, nc, fisher, boschloo] of SCIPY) {
    const b = { bad: bb, of: nb };
    const c = { bad: cb, of: nc };
    assert.ok(Math.abs(fisherOneSided(b, c) - fisher) < 1e-9, `Fisher ${bb}/${nb} vs ${cb}/${nc}: ${fisherOneSided(b, c)} vs ${fisher}`);
    assert.ok(Math.abs(boschlooOneSided(b, c) - boschloo) < 1e-6, `Boschloo ${bb}/${nb} vs ${cb}/${nc}: ${boschlooOneSided(b, c)} vs ${boschloo}`);
    // Boschloo's is never less powerful than Fisher's.
    assert.ok(boschlooOneSided(b, c) <= fisherOneSided(b, c) + 1e-12);
  }
  assert.throws(() => boschlooOneSided({ bad: 3, of: 2 }, { bad: 0, of: 2 }), /baseline: 3 of 2 is not a count/);
});

test('the test keeps its false alarms at or below α for every common rate, and its power grows with the change', () => {
  for (const n of [5, 10, 27]) {
    const worst = worstFalseAlarmRate({ baselineRepeats: n, candidateRepeats: n, alpha: 0.05 });
    assert.ok(worst <= 0.05 + 1e-9, `n=${n}: ${worst}`);
  }
  const rate = (n: number, b: number, c: number) => rejectionRate({ baselineRepeats: n, candidateRepeats: n, baselineRate: b, candidateRate: c, alpha: 0.04 });
  // 10 repeats a side: a collapse rate of 0.2 against none is found one time in eight, 0.4 about six in ten.
  assert.ok(rate(10, 0, 0.2) < 0.15 && rate(10, 0, 0.4) > 0.55, `${rate(10, 0, 0.2)} ${rate(10, 0, 0.4)}`);
  assert.ok(rate(27, 0, 0.2) >= 0.8 && rate(27, 0.2, 0.2) <= 0.04);
  assert.equal(rate(27, 0, 0), 0, 'no bad repeat in either arm: nothing to reject');
});

test("the fewest repeats for a stated power: the affinity burst's default, and a metric's from its noise", () => {
  assert.equal(repeatsForModePower(AFFINITY_COLLAPSE_DETECTION), 27);
  assert.equal(gateScenario('affinity-burst')!.repeats, 27);
  // A doubling of the rate to detect needs far fewer; a stricter false-alarm rate more.
  assert.ok(repeatsForModePower({ ...AFFINITY_COLLAPSE_DETECTION, candidateRate: 0.4 })! < 15);
  assert.ok(repeatsForModePower({ ...AFFINITY_COLLAPSE_DETECTION, alpha: 0.01 })! > 27);
  assert.equal(repeatsForModePower({ ...AFFINITY_COLLAPSE_DETECTION, candidateRate: 0.02 }, { max: 50 }), null);
  assert.ok(Math.abs(normalQuantile(0.95) - 1.6448536) < 1e-6 && Math.abs(normalQuantile(0.025) + 1.959964) < 1e-6);
  // A metric whose repeats vary by 2%: a 5% change at 5% false alarms and 90% power.
  const n = repeatsForMedianPower({ cvPct: 2, changePct: 5, alpha: 0.05, power: 0.9 });
  assert.ok(n >= 3 && n < repeatsForMedianPower({ cvPct: 4, changePct: 5, alpha: 0.05, power: 0.9 }));
});

test('weighted Holm steps down while each smallest p is within its share of α', () => {
  const eq = (ps: number[]) =>
    weightedHolm(
      ps.map((p) => ({ p, weight: 1 })),
      0.05,
    );
  assert.deepEqual(
    eq([0.01, 0.04, 0.03]).map((h) => h.rejected),
    [true, false, false],
    '0.01 ≤ 0.05/3; then 0.03 > 0.05/2',
  );
  assert.deepEqual(
    eq([0.01, 0.04, 0.02]).map((h) => h.rejected),
    [true, true, true],
  );
  // A weight of 0.8 for the first: 0.035 ≤ 0.8 × 0.05 = 0.04 although it exceeds 0.05 / 2.
  const w = weightedHolm(
    [
      { p: 0.035, weight: 0.8 },
      { p: 0.5, weight: 0.2 },
    ],
    0.05,
  );
  assert.deepEqual(
    w.map((h) => h.rejected),
    [true, false],
  );
  assert.ok(Math.abs(w[0].level - 0.04) < 1e-12 && Math.abs(w[1].level - 0.05) < 1e-12);
});

const channels = (hottest: { rpcs: number; peak: number }, source = 'fake') => [
  { source, rpcs: hottest.rpcs, peakInFlight: hottest.peak },
  ...Array.from({ length: 31 }, () => ({ source, rpcs: Math.round((7600 - hottest.rpcs) / 31), peakInFlight: 14 })),
];

test("the affinity burst's collapse: the busiest connection at the stream limit with a quarter of the RPCs, not a brief touch of 100", () => {
  assert.equal(affinityCollapsed({ channels: channels({ rpcs: 2370, peak: 100 }) }), true, '31% at 100: collapsed (464 qps here)');
  assert.equal(affinityCollapsed({ channels: channels({ rpcs: 1300, peak: 100 }) }), false, '17% touching 100: skewed, fast');
  assert.equal(affinityCollapsed({ channels: channels({ rpcs: 2400, peak: 80 }) }), false, 'never at the limit: no queue');
  assert.equal(affinityCollapsed({ channels: [] }), null, 'no counts: cannot tell');
  // The fake's counts where there are any: the client's own (211 in flight, queued in the channel) only without them.
  assert.equal(affinityCollapsed({ channels: [...channels({ rpcs: 266, peak: 23 }), ...channels({ rpcs: 2370, peak: 211 }, 'client')] }), false);
  assert.equal(affinityCollapsed({ channels: channels({ rpcs: 2370, peak: 211 }, 'client') }), true);
});

/** Repeats of one arm at C=400: `bad` of them collapsed (250 qps, 2.3 s p99), the rest ~585 qps. */
function arm(arm: 'baseline' | 'candidate', of: number, bad: number, slow = 1): GateSample[] {
  return Array.from({ length: of }, (_, i) => {
    const collapsed = i < bad;
    const jitter = 1 + ((i * 7) % 5) / 500;
    return {
      arm,
      concurrency: 400,
      repeat: i + 1,
      qps: collapsed ? 250 + i : (585 * jitter) / slow,
      p50Ms: collapsed ? 700 : 657 * jitter * slow,
      p99Ms: collapsed ? 2300 : 700 * jitter * slow,
      errorPct: 0,
      bad: collapsed,
    };
  });
}

const burst = () => {
  const g = parseGateSpec({ scenario: 'affinity-burst', language: 'java', baseline: '6.105.0', candidate: '6.106.0' });
  assert.ok(g.ok);
  return g.value;
};
const evaluate = (samples: GateSample[], names = { baseline: '6.105.0', candidate: '6.106.0' }, over = {}) =>
  evaluateGate(samples, { criteria: { ...burst().criteria, ...over }, concurrency: [400], levelText: (c) => `C=${c}`, mode: gateScenario('affinity-burst')!.mode, names });

test('both arms collapsing alike pass as a persisting regression, naming the reproduction; too few repeats say what they would need', () => {
  const e = evaluate([...arm('baseline', 10, 3), ...arm('candidate', 10, 2)]);
  assert.equal(e.verdict, 'pass', JSON.stringify(e.reasons));
  assert.equal(e.persisting, true);
  assert.match(
    e.reasons[0]!,
    /^6\.106\.0 collapsed in 2 of 10 cold starts, 6\.105\.0 in 3 of 10: no difference \(Boschloo's exact test, one-sided p = 0\.\d+ > 0\.\d+\); both collapsed \(see the reproduction java-affinity-burst\)$/,
  );
  assert.match(e.reasons[1]!, /^with 10 cold starts per arm the collapsed count cannot detect a rate of 0\.2 against 0 at 4% false alarms \(power 1\d%, target 80%\): it needs 27 per arm$/);
  // The medians judged the good mode only, and say how many repeats they left out.
  const qps = e.metrics.find((m) => m.metric === 'qps')!;
  assert.deepEqual([qps.baseline.length, qps.candidate.length, qps.leftOut], [7, 8, { baseline: 3, candidate: 2 }]);
  assert.equal(qps.verdict, 'pass');
  assert.equal(e.modes![0].verdict, 'pass');
  // The stored evaluation's Markdown shows the mode.
  const md = gateMarkdown({ id: 'g1', url: 'http://x/gates/g1', jobUrl: 'http://x/jobs/j1', spec: burst(), evaluation: e });
  assert.match(md, /\*\*Verdict: PASS \(persisting\)\*\*/);
  assert.match(md, /\| collapsed \| 400 \| 3 of 10 \| 2 of 10 \| 0\.\d+ \| pass, persisting \|/);
});

test('a candidate collapsing far more often fails on the counts; one chance collapse in an A/A gate does not', () => {
  const names = { baseline: '6.104.0', candidate: '6.105.0' };
  const regress = evaluate([...arm('baseline', 27, 0), ...arm('candidate', 27, 7)], names);
  assert.equal(regress.verdict, 'fail');
  assert.equal(regress.persisting, false);
  assert.match(
    regress.reasons[0]!,
    /^6\.105\.0 collapsed in 7 of 27 cold starts, 6\.104\.0 in 0 of 27: more often \(Boschloo's exact test, one-sided p = 0\.00\d+ ≤ 0\.0\d+\) \(see the reproduction java-affinity-burst\)$/,
  );
  assert.equal(regress.reasons.length, 1, 'no power note: 27 repeats suffice');
  // The medians of the good mode did not move: only the mode failed.
  assert.deepEqual(
    regress.metrics.map((m) => m.verdict),
    ['pass', 'pass', 'pass'],
  );

  // One collapsed candidate repeat at −57% of qps, none in the baseline: the worst-repeat test would fail it.
  const chance = evaluate([...arm('baseline', 27, 0), ...arm('candidate', 27, 1)], { baseline: '6.105.0', candidate: '6.105.0' });
  assert.equal(chance.verdict, 'pass', JSON.stringify(chance.reasons));
  assert.equal(chance.persisting, false, 'the baseline never collapsed: nothing persists');
  assert.match(chance.reasons[0]!, /collapsed in 1 of 27 cold starts, 6\.105\.0 in 0 of 27: no difference/);
  const worst = evaluateGate([...arm('baseline', 27, 0), ...arm('candidate', 27, 1)], {
    criteria: { ...burst().criteria, worstRepeat: true },
    concurrency: [400],
  });
  assert.equal(worst.verdict, 'fail', 'the old worst-repeat rule, asked for explicitly, still fails it');
});

test('a slower good mode fails the medians even when the collapse rates match; a requested rate changes the power note', () => {
  const e = evaluate([...arm('baseline', 27, 2), ...arm('candidate', 27, 2, 1.3)]);
  assert.equal(e.verdict, 'fail');
  assert.equal(e.persisting, false, 'a failing gate persists nothing');
  assert.deepEqual(
    e.modes!.map((m) => [m.verdict, m.persisting]),
    [['pass', true]],
  );
  assert.ok(
    e.reasons.some((r) => /^p50 at C=400 rose 30%/.test(r)),
    JSON.stringify(e.reasons),
  );
  const asked = evaluate([...arm('baseline', 27, 0), ...arm('candidate', 27, 0)], undefined, { badModeRate: 0.1 });
  assert.match(asked.reasons[1]!, /^with 27 cold starts per arm the collapsed count cannot detect a rate of 0\.1 against 0 .*: it needs more than 50 per arm$/);
  assert.equal(asked.verdict, 'pass');
  assert.match(asked.reasons[0]!, /in 0 of 27 cold starts, 6\.105\.0 in 0 of 27: no difference .*; neither collapsed$/);
});

test('where an arm keeps fewer than 3 repeats of the good mode, the medians judge every repeat and say so', () => {
  const e = evaluate([...arm('baseline', 5, 0), ...arm('candidate', 5, 3)]);
  assert.ok(e.reasons.includes('the medians at C=400 judged every repeat, collapsed or not: fewer than 3 were not in an arm (5 baseline, 2 candidate)'), JSON.stringify(e.reasons));
  assert.equal(e.metrics[0]!.candidate.length, 5);
  assert.equal(e.metrics[0]!.leftOut, undefined);
});

test('badModeRate is refused on a scenario without a mode, and at or below the assumed baseline rate', () => {
  const r = parseGateSpec({ scenario: 'steady-select1', language: 'java', baseline: '6.105.0', candidate: '6.106.0', criteria: { badModeRate: 0.2 } });
  assert.ok(!r.ok && r.issues.some((i) => i.path === 'criteria.badModeRate' && /has no bimodal outcome/.test(i.message)));
  const zero = parseGateSpec({ scenario: 'affinity-burst', language: 'java', baseline: '6.105.0', candidate: '6.106.0', criteria: { badModeRate: 0 } });
  assert.ok(!zero.ok && zero.issues.some((i) => i.path === 'criteria.badModeRate'));
});

test("a gate's unfinished cells are compared as counts: one hang more than the baseline's is chance, most of the candidate's is a regression", () => {
  const of = 10;
  const one = judgeUnfinished({ bad: 0, of }, { bad: 1, of }, 0.05);
  assert.equal(one.fail, false);
  assert.equal(one.pValue, boschlooOneSided({ bad: 0, of }, { bad: 1, of }));
  assert.ok(one.pValue > 0.05, `one cell in ten is no evidence (p = ${one.pValue})`);
  assert.match(one.reason, /^1 of 10 candidate cells did not finish, 0 of 10 baseline cells: no more often than chance \(Boschloo's exact test, one-sided p = [0-9.]+ > 0\.050\)$/);
  const most = judgeUnfinished({ bad: 0, of }, { bad: 6, of }, 0.05);
  assert.ok(most.fail && most.pValue <= 0.05);
  assert.match(most.reason, /: more often \(Boschloo's exact test, one-sided p = .* ≤ 0\.050\)$/);
  // The same counts on both sides, or more in the baseline, never fail, whatever the level.
  assert.equal(judgeUnfinished({ bad: 4, of }, { bad: 4, of }, 0.5).fail, false);
  assert.equal(judgeUnfinished({ bad: 6, of }, { bad: 2, of }, 0.99).fail, false);
  // The smallest count that fails at 5% with ten cells a side lies between the two.
  const smallest = [2, 3, 4, 5, 6].find((bad) => judgeUnfinished({ bad: 0, of }, { bad, of }, 0.05).fail);
  assert.ok(smallest !== undefined && smallest > 1 && smallest <= 6);
});
