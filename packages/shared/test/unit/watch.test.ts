import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GATE_SCENARIO_IDS, gateScenario, newReleasePairs, parseWatchSpec, releasePairs, watchGateSpec, type WatchSpec } from '../../src/index';

// Maven Central's order is not semver order: a patch on an older line comes after a newer minor.
const LISTED = ['6.103.0', '6.104.0', '6.105.0', '6.104.1', '6.106.0-rc1', '6.106.0', 'not-a-version', '6.105.0'];

const watch = (over: Record<string, unknown>): WatchSpec => {
  const r = parseWatchSpec({ language: 'java', scenarios: ['affinity-burst'], ...over });
  assert.ok(r.ok, JSON.stringify(!r.ok && r.issues));
  return r.value;
};

test('a watch since X gates X and every later release against the newest stable release below it; until bounds it', () => {
  assert.deepEqual(releasePairs(LISTED, watch({ since: '6.105.0' })), [
    { version: '6.105.0', predecessor: '6.104.1' },
    { version: '6.106.0', predecessor: '6.105.0' },
  ]);
  assert.deepEqual(
    releasePairs(LISTED, watch({ since: '6.104.0', until: '6.104.1' })),
    [
      { version: '6.104.0', predecessor: '6.103.0' },
      { version: '6.104.1', predecessor: '6.104.0' },
    ],
    'a patch on an older line is judged against that line',
  );
  assert.deepEqual(releasePairs(LISTED, watch({ since: '6.103.0', until: '6.103.0' })), [], 'the first release listed has no predecessor');
  assert.deepEqual(
    releasePairs(LISTED, watch({ since: '6.106.0-rc1', prereleases: true })).map((p) => `${p.version}<${p.predecessor}`),
    ['6.106.0-rc1<6.105.0', '6.106.0<6.105.0'],
    'a pre-release counts when asked for, and is never a predecessor',
  );
});

test('a poll queues only releases the watch has not seen', () => {
  const w = watch({ since: '6.104.0' });
  const seen = new Set(releasePairs(LISTED, w).map((p) => p.version));
  assert.deepEqual(newReleasePairs(LISTED, seen, w), []);
  assert.deepEqual(newReleasePairs([...LISTED, '6.107.0'], seen, w), [{ version: '6.107.0', predecessor: '6.106.0' }]);
});

test("each release's gate: the scenario, the watch's repeats and criteria unless the scenario sets its own, the pair as baseline and candidate", () => {
  const w = watch({ name: 'nightly', repeats: 3, criteria: { qpsDropPct: 15 }, scenarios: ['affinity-burst', { scenario: 'steady-select1', repeats: 4, concurrency: [10] }] });
  const pair = { version: '6.106.0', predecessor: '6.105.0' };
  const [a, b] = w.scenarios.map((s) => watchGateSpec(w, s, pair));
  assert.equal(a!.scenario, 'affinity-burst');
  assert.deepEqual([a!.baseline, a!.candidate, a!.repeats, a!.criteria.qpsDropPct], ['6.105.0', '6.106.0', 3, 15]);
  assert.equal(a!.name, 'watch nightly: java 6.106.0 vs 6.105.0 (affinity-burst)');
  assert.deepEqual([b!.scenario, b!.repeats, b!.concurrency], ['steady-select1', 4, [10]]);
  // A scan criterion of the watch applies to its scenarios that run a scan, and is left out of the others' gates.
  const scans = watch({ criteria: { cpuPer1kRowsRisePct: 5 }, scenarios: ['steady-select1', 'result-set-decode'] });
  const [s1, rs] = scans.scenarios.map((s) => watchGateSpec(scans, s, pair));
  assert.deepEqual([s1!.criteria.cpuPer1kRowsRisePct, rs!.criteria.cpuPer1kRowsRisePct, rs!.criteria.firstRowP50RisePct], [undefined, 5, 20]);
});

test('bad watches are refused field by field, a scenario of their own as the gate it becomes', () => {
  const issues = (input: unknown) => {
    const r = parseWatchSpec(input);
    return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
  };
  assert.deepEqual(issues({ language: 'cobol', scenarios: [] }), ['language: must be one of node, java, go, python', 'scenarios: list at least one scenario']);
  assert.deepEqual(issues({ language: 'java', scenarios: ['nope'] }), [`scenarios.0: must be one of ${GATE_SCENARIO_IDS.join(', ')}, or a gate spec (an object)`]);
  assert.deepEqual(issues({ language: 'java', scenarios: ['affinity-burst'], since: 'latest', until: '1.0.0; rm -rf /' }), [
    'since: must be a plain semver such as 6.105.0',
    'until: must be a plain semver such as 6.105.0',
  ]);
  assert.deepEqual(issues({ language: 'java', scenarios: ['affinity-burst'], since: '6.106.0', until: '6.105.0' }), ['until: must not be before since (6.106.0)']);
  assert.deepEqual(issues({ language: 'java', scenarios: [{ scenario: 'steady-select1', repeats: 2, baseline: '6.1.0' }] }), [
    "scenarios.0.baseline: is the watch's to set, not a scenario's",
    'scenarios.0.repeats: must be at least 3: fewer repeats can never decide',
  ]);
  assert.equal(issues({ language: 'go', scenarios: [{ scenario: 'steady-select1', configuration: { grpcGcp: 'on' } }] }).length, 1, "a scenario the watch's language cannot run");
});

test("a watch's criteria set no load level's limits (its scenarios run different levels); a scenario's own may, and its gates keep the scenario's", () => {
  const levels = parseWatchSpec({ language: 'go', scenarios: ['steady-select1'], criteria: { levels: { '50': { p50RisePct: 5 } } } });
  assert.ok(!levels.ok);
  assert.deepEqual(levels.issues, [{ path: 'criteria.levels', message: "sets limits of load levels, which differ by scenario: give them in a scenario's own criteria" }]);
  const own = watch({ scenarios: [{ scenario: 'steady-select1', criteria: { levels: { '50': { p99RisePct: 30 } } } }, 'steady-select1'], criteria: { qpsDropPct: 15 } });
  const [mine, scenarios] = own.scenarios.map((s) => watchGateSpec(own, s, { version: '9.1.0', predecessor: '9.0.0' }));
  assert.equal(mine!.criteria.levels?.['50']?.p99RisePct, 30);
  // The watch's qps limit over the scenario's default; the scenario's level limits kept.
  assert.equal(scenarios!.criteria.qpsDropPct, 15);
  assert.deepEqual(scenarios!.criteria.levels, gateScenario('steady-select1')!.criteria!.levels);
});
