// A reproduction as a gate scenario: its gate spec, the job it runs (the candidate in place of the
// release that behaves) and the verdict its expectations give; a watch uses it like any scenario.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  evaluateReproductionGate,
  GATE_REPRODUCTIONS,
  GATE_SCENARIO_IDS,
  gateJobSpec,
  gateMarkdown,
  gateReproduction,
  parseGateSpec,
  parseJobSpec,
  parseWatchSpec,
  watchGateSpec,
  type ExpectationCell,
} from '../../src/index';

const java = (version: string, status = 'succeeded', errorCount = 0): ExpectationCell => ({
  client: { language: 'java', version },
  configuration: { label: 'client default' },
  concurrency: 10,
  status,
  result: status === 'succeeded' ? { qps: 100, p50Ms: 10, p99Ms: 20, maxMs: 30, count: 1000 - errorCount, errorCount } : null,
});
const mux = gateReproduction('java-mux-session-error-cached')!;

test('reproductions that were seen and name a release that behaves are gate scenarios; the others are not', () => {
  assert.ok(GATE_SCENARIO_IDS.includes('java-mux-session-error-cached'));
  assert.ok(GATE_REPRODUCTIONS.length >= 8);
  assert.equal(gateReproduction('go-mux-creation-deadlock'), undefined, 'not reproduced: nothing to guard');
  assert.equal(gateReproduction('go-grpc-slow-reconnect'), undefined, 'its fix is a grpc-go release, not a client release');
  for (const r of GATE_REPRODUCTIONS)
    assert.ok(
      r.spec.clients.some((c) => c.version === r.fixedVersion),
      `${r.id} runs ${r.fixedVersion}`,
    );
});

test('a reproduction gate takes its language and versions only: the rest is the reproduction’s, refused by field', () => {
  const ok = parseGateSpec({ scenario: 'java-mux-session-error-cached', language: 'java', baseline: '6.111.1', candidate: '6.112.0' });
  assert.ok(ok.ok);
  assert.equal(ok.value.repeats, 1, "the reproduction's own repeats");
  assert.ok(parseGateSpec(ok.value).ok, 'the stored spec parses again');
  const few = parseGateSpec({ scenario: 'steady-select1', language: 'java', baseline: '6.111.1', candidate: '6.112.0', repeats: 2 });
  assert.ok(!few.ok && few.issues[0]?.path === 'repeats', 'a comparison still needs 3 repeats');
  const wrong = parseGateSpec({ scenario: 'java-mux-session-error-cached', language: 'go', baseline: '1.0.0', candidate: '1.0.1', timeScale: 2 });
  assert.ok(!wrong.ok);
  assert.deepEqual(
    wrong.issues.map((i) => i.path),
    ['language', 'timeScale'],
  );
  assert.match(wrong.issues[0]!.message, /must be java/);
});

test("a reproduction gate's job runs the candidate in the fixed release's place, only the clients its expectations read, and parses", () => {
  const g = parseGateSpec({ scenario: 'java-mux-session-error-cached', language: 'java', baseline: '6.111.1', candidate: '6.112.0' });
  assert.ok(g.ok);
  const job = gateJobSpec(g.value);
  assert.deepEqual(
    job.clients.map((c) => c.version),
    ['6.105.0', '6.106.0', '6.112.0'],
  );
  assert.ok(job.expectations?.some((e) => e.kind === 'bound' && e.cells.version === '6.112.0' && e.atMost === 1));
  assert.ok(parseJobSpec(job).ok);
  // The abort backoff's preset also runs Java, Node and Go 0.36.0: no expectation reads them.
  const abort = parseGateSpec({ scenario: 'go-abort-backoff', language: 'go', baseline: '1.96.1', candidate: '1.97.0' });
  assert.ok(abort.ok);
  assert.deepEqual(
    gateJobSpec(abort.value).clients.map((c) => `${c.language} ${c.version}`),
    ['go 0.35.0', 'go 0.37.0', 'go 1.97.0'],
  );
  // A candidate that is an affected release runs once and is asked to behave.
  const affected = parseGateSpec({ scenario: 'java-mux-session-error-cached', language: 'java', baseline: '6.105.0', candidate: '6.106.0' });
  assert.ok(affected.ok);
  const again = gateJobSpec(affected.value);
  assert.deepEqual(
    again.clients.map((c) => c.version),
    ['6.105.0', '6.106.0'],
  );
  assert.ok(!again.expectations?.some((e) => e.kind === 'bound' && e.cells.version === '6.106.0' && e.atLeast !== undefined));
});

test('a reproduction gate on a zip-paired reproduction keeps each client with its configuration', () => {
  const json = parseGateSpec({ scenario: 'go-json-number-float64', language: 'go', baseline: '1.96.1', candidate: '1.97.0' });
  assert.ok(json.ok, JSON.stringify(!json.ok && json.issues));
  const job = gateJobSpec(json.value);
  assert.deepEqual(
    job.clients.map((c, i) => `${c.version} ${job.configurations[i]!.label}`),
    ['1.33.0 client default', '1.97.0 UseNumber', '1.96.1 client default', '1.96.1 UseNumber'],
  );
  assert.ok(parseJobSpec(job).ok);
  // A candidate the reproduction also runs as an affected release: its pairs go, the configurations with them.
  const affected = parseGateSpec({ scenario: 'go-json-number-float64', language: 'go', baseline: '1.95.0', candidate: '1.96.1' });
  assert.ok(affected.ok);
  const again = gateJobSpec(affected.value);
  assert.deepEqual(
    again.clients.map((c, i) => `${c.version} ${again.configurations[i]!.label}`),
    ['1.33.0 client default', '1.96.1 UseNumber'],
  );
  const parsed = parseJobSpec(again);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
});

test('the verdict: pass when the candidate behaves, fail by name when the bug is back, inconclusive when the trigger did not show it', () => {
  const g = { candidate: '6.112.0' };
  const affected = [java('6.105.0', 'succeeded', 1000), java('6.106.0', 'succeeded', 1000)];
  const pass = evaluateReproductionGate(mux, g, [...affected, java('6.112.0')], { status: 'succeeded' });
  assert.equal(pass.verdict, 'pass', pass.reasons.join('\n'));
  assert.match(pass.reasons[0]!, /6\.112\.0 behaves as 6\.111\.1 did/);

  const back = evaluateReproductionGate(mux, g, [...affected, java('6.112.0', 'succeeded', 990)], { status: 'succeeded' });
  assert.equal(back.verdict, 'fail');
  assert.equal(back.reasons[0], 'java-mux-session-error-cached: the bug is back in 6.112.0');
  assert.match(back.reasons[1]!, /share of failed calls of 6\.112\.0 is 99\.0%: expected at most 1\.0% — not met/);

  // The affected releases served: this run's trigger did not work, so the candidate's figures decide nothing.
  const noTrigger = evaluateReproductionGate(mux, g, [java('6.105.0'), java('6.106.0'), java('6.112.0', 'succeeded', 990)], { status: 'succeeded' });
  assert.equal(noTrigger.verdict, 'inconclusive');
  assert.match(noTrigger.reasons[0]!, /did not show the bug/);

  // A candidate that crashed once running is the bug's shape; one that could not run (not installed, an option it lacks) is not.
  const crashed = evaluateReproductionGate(mux, g, [...affected, java('6.112.0', 'failed')], { status: 'succeeded' }, [{ version: '6.112.0', error: 'driver exited', couldNotRun: false }]);
  assert.equal(crashed.verdict, 'fail');
  assert.ok(crashed.reasons.includes('6.112.0: the cell failed: driver exited'));
  const notInstalled = evaluateReproductionGate(mux, g, [...affected, java('6.112.0', 'failed')], { status: 'succeeded' }, [{ version: '6.112.0', error: 'not on Maven Central', couldNotRun: true }]);
  assert.equal(notInstalled.verdict, 'inconclusive');
});

test("a watch may use a reproduction of its language, judged on the reproduction's repeats; the gate's Markdown carries the reasons without a metric table", () => {
  const bad = parseWatchSpec({ language: 'go', scenarios: ['java-mux-session-error-cached'] });
  assert.ok(!bad.ok);
  assert.equal(bad.issues[0]!.path, 'scenarios.0');
  assert.match(bad.issues[0]!.message, /runs java, not go/);
  const w = parseWatchSpec({ language: 'java', scenarios: ['affinity-burst', 'java-mux-session-error-cached'], repeats: 4 });
  assert.ok(w.ok);
  const pair = { version: '6.112.0', predecessor: '6.111.1' };
  assert.equal(watchGateSpec(w.value, 'affinity-burst', pair).repeats, 4);
  const gate = watchGateSpec(w.value, 'java-mux-session-error-cached', pair);
  assert.equal(gate.repeats, 1);
  const evaluation = evaluateReproductionGate(mux, gate, [java('6.105.0', 'succeeded', 1000), java('6.106.0', 'succeeded', 1000), java('6.112.0', 'succeeded', 500)], { status: 'succeeded' });
  const md = gateMarkdown({ id: 'g1', url: 'https://bench.example/gates/g1', jobUrl: 'https://bench.example/jobs/j1', spec: gate, evaluation });
  assert.match(md, /scenario reproduction java-mux-session-error-cached: the candidate in place of 6\.111\.1/);
  assert.match(md, /\*\*Verdict: .*\*\*\n\n- java-mux-session-error-cached: the bug is back in 6\.112\.0/);
  assert.doesNotMatch(md, /\| metric \|/);
});
