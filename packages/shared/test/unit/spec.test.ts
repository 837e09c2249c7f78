import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalJson,
  compareSemver,
  describeConfiguration,
  describeOperations,
  driverWorkload,
  oldestFirst,
  optionText,
  parseJobSpec,
  planCells,
  placementFlags,
  missingFor,
  placementProblem,
  idealQps,
  modeledLatencyMs,
  scenarioKey,
} from '../../src/index';
import affinityExample from '../../../../examples/affinity-burst-java.json' with { type: 'json' };
import example from '../../../../examples/node-select1.json' with { type: 'json' };

const good = {
  clients: [{ language: 'node', version: '9.0.0' }],
  configurations: [
    { label: 'on', grpcGcp: 'on' },
    { label: 'off', grpcGcp: 'off' },
  ],
  concurrency: [10, 50],
  workload: { warmupOps: 100, durationSeconds: 2 },
};

test('a minimal spec gets its defaults', () => {
  const r = parseJobSpec(good);
  assert.ok(r.ok);
  assert.deepEqual(r.value.target, { kind: 'fake', latencyMs: 65 });
  assert.equal(r.value.repeats, 1);
  assert.equal(r.value.timeScale, 1);
  assert.equal(r.value.workload.operation, 'select1');
});

test('the shipped example is accepted as is', () => {
  assert.ok(parseJobSpec(example).ok);
});

function pathsOf(input: unknown): string[] {
  const r = parseJobSpec(input);
  assert.ok(!r.ok, 'expected the spec to be refused');
  return r.issues.map((i) => i.path);
}

test('versions must be plain semver: ranges, tags, paths, URLs and shell text are refused', () => {
  for (const version of ['file:../x', 'latest; rm -rf /', 'git+https://github.com/x/y.git', 'latest', '^9.0.0', '9.0', '9.0.0 && ls', '../9.0.0', '09.0.0', '']) {
    const paths = pathsOf({ ...good, clients: [{ language: 'node', version }] });
    assert.deepEqual(paths, ['clients.0.version'], `version ${JSON.stringify(version)}`);
  }
  for (const version of ['9.0.0', '7.21.0', '8.0.0-rc.1']) assert.ok(parseJobSpec({ ...good, clients: [{ language: 'node', version }] }).ok, version);
});

test('concurrency outside 1..2000, empty lists and unknown fields are named', () => {
  assert.deepEqual(pathsOf({ ...good, concurrency: [0, 2001, 1.5] }), ['concurrency.0', 'concurrency.1', 'concurrency.2']);
  assert.deepEqual(pathsOf({ ...good, concurrency: [] }), ['concurrency']);
  assert.deepEqual(pathsOf({ ...good, configurations: [] }), ['configurations']);
  assert.deepEqual(pathsOf({ ...good, clients: [] }), ['clients']);
  assert.deepEqual(pathsOf({ ...good, color: 'red' }), ['color']);
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, extra: 1 } }), ['workload.extra']);
  assert.deepEqual(pathsOf({ ...good, clients: [{ language: 'cobol', version: '1.0.0' }] }), ['clients.0.language']);
});

test('the workload needs exactly one of measuredOps and durationSeconds', () => {
  assert.deepEqual(pathsOf({ ...good, workload: { warmupOps: 1 } }), ['workload.measuredOps']);
  assert.deepEqual(pathsOf({ ...good, workload: { warmupOps: 1, measuredOps: 10, durationSeconds: 1 } }), ['workload.measuredOps']);
});

test('agents: a weighted mix of known operations, each once, and a think time; the driver gets both, scaled', () => {
  const mix = [
    { operation: 'readOnlyTxn', weight: 4 },
    { operation: 'readWriteTxn', weight: 1 },
  ];
  const r = parseJobSpec({ ...good, timeScale: 2, workload: { ...good.workload, mix, thinkTime: { ms: 100, distribution: 'exponential' } } });
  assert.ok(r.ok);
  const w = driverWorkload(r.value.workload, 10, r.value.timeScale);
  assert.deepEqual(w.operations, [
    { kind: 'readOnlyTxn', weight: 4 },
    { kind: 'readWriteTxn', weight: 1 },
  ]);
  assert.deepEqual(w.load.shape === 'closed' && w.load.thinkTime, { ms: 200, distribution: 'exponential' }, 'the time scale stretches think time as it does latency');
  assert.equal(describeOperations(r.value.workload), 'readOnlyTxn 4 : readWriteTxn 1, think 100 ms exponential');
  assert.equal('thinkTime' in driverWorkload({ operation: 'select1', warmupOps: 1, durationSeconds: 1 }, 1).load, false, 'no think time: a closed loop');
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, mix: [...mix, { operation: 'readOnlyTxn', weight: 1 }] } }), ['workload.mix.2.operation']);
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, mix: [{ operation: 'deleteAll', weight: 1 }] } }), ['workload.mix.0.operation']);
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, mix: [{ operation: 'select1', weight: 0 }] } }), ['workload.mix.0.weight']);
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, mix: [] } }), ['workload.mix']);
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, thinkTime: { ms: -1 } } }), ['workload.thinkTime.ms']);
  assert.deepEqual(pathsOf({ ...good, workload: { ...good.workload, thinkTime: { ms: 10, distribution: 'pareto' } } }), ['workload.thinkTime.distribution']);
});

test('a gRPC pin is for the go and node clients; a context deadline per operation and tracked session handles are Go options, refused elsewhere by field', () => {
  const spec = (language: string, version: string, client: object = {}, configuration: object = {}) => ({
    ...good,
    clients: [{ language, version, ...client }],
    configurations: [{ label: 'c', ...configuration }],
  });
  assert.ok(parseJobSpec(spec('node', '6.16.0', { grpcVersion: '1.8.2' })).ok);
  const java = parseJobSpec(spec('java', '6.105.0', { grpcVersion: '1.18.0' }));
  assert.ok(!java.ok);
  assert.deepEqual(
    java.issues.map((i) => `${i.path}: ${i.message}`),
    ['clients.0.grpcVersion: only the node and go clients can be pinned to a gRPC version'],
  );
  assert.deepEqual(pathsOf(spec('node', '6.16.0', { grpcVersion: '1.8.2 && ls' })), ['clients.0.grpcVersion']);
  assert.ok(parseJobSpec(spec('go', '1.88.0', {}, { operationTimeoutMs: 300, sessionPool: { maxSessions: 1, trackSessionHandles: true } })).ok);
  const node = parseJobSpec(spec('node', '9.0.0', {}, { operationTimeoutMs: 300 }));
  assert.ok(!node.ok);
  assert.deepEqual(
    node.issues.map((i) => `${i.path}: ${i.message}`),
    ['configurations.0.operationTimeoutMs: is a go driver option (a context deadline per operation); the node driver has none'],
  );
  assert.deepEqual(pathsOf(spec('java', '6.105.0', {}, { sessionPool: { trackSessionHandles: true } })), ['configurations.0.sessionPool']);
  assert.deepEqual(pathsOf(spec('go', '1.88.0', {}, { operationTimeoutMs: 0 })), ['configurations.0.operationTimeoutMs']);
});

test("go clients: the module follows the version, grpcVersion is not Java's, grpc-gcp on is refused", () => {
  const go = (client: object, configurations: object[] = [{ label: 'd' }]) => ({ ...good, clients: [{ language: 'go', ...client }], configurations });
  assert.ok(parseJobSpec(go({ version: '1.33.0' })).ok);
  assert.ok(parseJobSpec(go({ version: '0.37.0', module: 'cloud.google.com/go', grpcVersion: '1.17.0' })).ok);
  assert.deepEqual(pathsOf(go({ version: '1.33.0', module: 'cloud.google.com/go' })), ['clients.0.module']);
  assert.deepEqual(pathsOf(go({ version: '1.33.0', module: 'example.com/evil' })), ['clients.0.module']);
  assert.deepEqual(pathsOf(go({ version: '1.33.0', grpcVersion: 'v1.18.0; ls' })), ['clients.0.grpcVersion']);
  assert.deepEqual(pathsOf({ ...good, clients: [{ language: 'java', version: '6.105.0', grpcVersion: '1.18.0' }] }), ['clients.0.grpcVersion']);
  const r = parseJobSpec(
    go({ version: '1.33.0' }, [
      { label: 'on', grpcGcp: 'on' },
      { label: 'off', grpcGcp: 'off' },
    ]),
  );
  assert.ok(!r.ok);
  assert.deepEqual(
    r.issues.map((i) => `${i.path}: ${i.message}`),
    ['configurations.0.grpcGcp: grpc-gcp is not available in the Go client: use default or off'],
  );
  // Paired with another language only, grpc-gcp on is fine.
  const [java, goClient] = [
    { language: 'java', version: '6.105.0' },
    { language: 'go', version: '1.33.0' },
  ];
  assert.ok(parseJobSpec({ ...good, pairing: 'zip', clients: [java, goClient], configurations: [{ label: 'on', grpcGcp: 'on' }, { label: 'off' }] }).ok);
});

test('configuration labels must be unique', () => {
  assert.deepEqual(pathsOf({ ...good, configurations: [{ label: 'a' }, { label: 'a' }] }), ['configurations']);
});

test('the plan is the cross product, repeats outermost, indexes in order', () => {
  const r = parseJobSpec({
    ...good,
    repeats: 2,
    clients: [
      { language: 'node', version: '9.0.0' },
      { language: 'node', version: '8.13.0' },
    ],
  });
  assert.ok(r.ok);
  const cells = planCells(r.value);
  assert.equal(cells.length, 2 * 2 * 2 * 2);
  assert.deepEqual(
    cells.map((c) => c.index),
    [...cells.keys()],
  );
  assert.deepEqual(
    cells.slice(0, 4).map((c) => [c.client.version, c.concurrency, c.configuration.label, c.repeat]),
    [
      ['9.0.0', 10, 'on', 1],
      ['9.0.0', 10, 'off', 1],
      ['9.0.0', 50, 'on', 1],
      ['9.0.0', 50, 'off', 1],
    ],
  );
  assert.ok(cells.slice(8).every((c) => c.repeat === 2));
});

test('ideal qps is concurrency over the scaled latency', () => {
  const r = parseJobSpec({ ...good, timeScale: 10 });
  assert.ok(r.ok);
  assert.equal(modeledLatencyMs(r.value), 650);
  assert.ok(Math.abs(idealQps(400, 650) - 615.38) < 0.01);
  assert.ok(Math.abs(idealQps(50, 65) - 769.23) < 0.01);
});

test('the affinity-burst example is the preset at C=400 with the client default, and scales its bursts', async () => {
  const { affinityBurstSpec, opsAt } = await import('../../src/index');
  const example = (await import('../../../../examples/affinity-burst-java.json', { with: { type: 'json' } })).default;
  const r = parseJobSpec(example);
  assert.ok(r.ok);
  const preset = parseJobSpec({ ...affinityBurstSpec({ versions: ['6.104.0', '6.105.0'], concurrency: [400], configurations: 'default' }), name: example.name });
  assert.ok(preset.ok);
  assert.deepEqual(r.value, preset.value);
  assert.equal(planCells(r.value).length, 2 * 3);
  assert.equal(opsAt(r.value.workload.warmupOps, 400), 1600);
  assert.equal(opsAt(r.value.workload.warmupOps, 50), 500);
  assert.equal(opsAt(r.value.workload.measuredOps!, 400), 12000);
  assert.equal(opsAt(r.value.workload.measuredOps!, 50), 2000);
});

test('scenario keys ignore clients, configurations, concurrency and repeats, and name what differs', async () => {
  const { scenarioKey, scenarioDifferences } = await import('../../src/index');
  const a = parseJobSpec(good);
  const b = parseJobSpec({ ...good, clients: [{ language: 'java', version: '6.105.0' }], configurations: [{ label: 'x' }], concurrency: [400], repeats: 3 });
  const c = parseJobSpec({ ...good, timeScale: 10, target: { kind: 'fake', latencyMs: 65, server: { latency: { commit: 5 } } } });
  assert.ok(a.ok && b.ok && c.ok);
  assert.equal(scenarioKey(a.value), scenarioKey(b.value));
  assert.notEqual(scenarioKey(a.value), scenarioKey(c.value));
  assert.deepEqual(scenarioDifferences(a.value, b.value), []);
  assert.deepEqual(scenarioDifferences(a.value, c.value).sort(), ['target.server.latency.commit', 'timeScale']);
  // A server block that only spells out the defaults is the same scenario as none.
  const d = parseJobSpec({ ...good, target: { kind: 'fake', latencyMs: 65, server: { maxConcurrentStreams: 100 } } });
  assert.ok(d.ok);
  assert.equal(scenarioKey(a.value), scenarioKey(d.value));
});

test('semver order: numbers compare as numbers, prereleases before their release', () => {
  assert.deepEqual(oldestFirst(['6.104.0', '6.10.0', '6.9.0', '6.105.0', '6.10.0']), ['6.9.0', '6.10.0', '6.104.0', '6.105.0']);
  assert.deepEqual(oldestFirst(['9.0.0', '9.0.0-rc.1', '8.13.0', '9.0.0-beta.2', '9.0.0-beta.10', '10.0.0', '9.0.0-alpha', '7.21.0']), [
    '7.21.0',
    '8.13.0',
    '9.0.0-alpha',
    '9.0.0-beta.2',
    '9.0.0-beta.10',
    '9.0.0-rc.1',
    '9.0.0',
    '10.0.0',
  ]);
  assert.ok(compareSemver('6.9.0', '6.10.0') < 0);
  assert.ok(compareSemver('6.10.0', '6.104.0') < 0);
  assert.ok(compareSemver('6.104.0', '6.104.0') === 0);
  assert.ok(compareSemver('1.0.0-alpha.1', '1.0.0-alpha') > 0);
  assert.ok(compareSemver('1.0.0-1', '1.0.0-alpha') < 0, 'numeric identifiers before alphanumeric');
  assert.ok(compareSemver('not-a-version', '0.0.1') > 0, 'non-semver after semver');
});

test('scenario keys never change: stored links hold them', () => {
  const key = (input: unknown) => {
    const r = parseJobSpec(input);
    assert.ok(r.ok);
    return scenarioKey(r.value);
  };
  // The example as it was when the key was first stored (its warm-up has grown since).
  assert.equal(key({ ...example, workload: { operation: 'select1', warmupOps: 200, durationSeconds: 3 } }), 'ebce861b345c');
  assert.equal(key(affinityExample), '76ea2d50b524');
  const faults = { kind: 'fake', latencyMs: 10, server: { faults: [{ kind: 'query', code: 'ABORTED', ratio: 0.1 }], latency: { session: 5 } } };
  assert.equal(key({ clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'a' }], concurrency: [1], workload: { durationSeconds: 1 }, target: faults }), '09da97edc2a1');
});

test('canonical JSON: keys sorted at every depth, undefined fields left out', () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: undefined, c: 'x' }, null], e: { g: true, f: 2 } }), '{"a":[{"c":"x"},null],"b":1,"e":{"f":2,"g":true}}');
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  assert.equal(canonicalJson('x'), '"x"');
});

test('a configuration in words: options beyond the label, alphabetical, client defaults left out', () => {
  const c = { label: 'pool', numChannels: 32, grpcGcp: 'default', sessionPool: { minSessions: 10 }, multiplexedSessions: false, dynamicChannelPool: undefined };
  assert.equal(optionText(c), 'multiplexedSessions=false, numChannels=32, sessionPool={"minSessions":10}');
  assert.equal(describeConfiguration(c), 'pool (multiplexedSessions=false, numChannels=32, sessionPool={"minSessions":10})');
  assert.equal(describeConfiguration({ label: 'client default', grpcGcp: 'default' }), 'client default');
  // A gate arm's explicit 'default' overrides the scenario's option, so it is said.
  assert.equal(optionText({ numChannels: 8, grpcGcp: 'default' }, { keepDefault: true }), 'grpcGcp=default, numChannels=8');
  assert.equal(optionText(undefined), '');
  assert.equal(optionText(null, { keepDefault: true }), '');
});

test('placement: a job needs its clients’ toolchains, its target and its requirements; the closest runner’s gaps are named', () => {
  const p = parseJobSpec({
    clients: [
      { language: 'java', version: '6.123.0' },
      { language: 'go', version: '1.96.1' },
    ],
    configurations: [{ label: 'a' }],
    concurrency: [10],
    workload: { durationSeconds: 1 },
    target: { kind: 'emulator' },
    requirements: { minCores: 8, labels: ['perf-lab'] },
  });
  assert.ok(p.ok);
  const flags = placementFlags(p.value);
  assert.deepEqual(flags, ['cores>=8', 'label:perf-lab', 'lang:go', 'lang:java', 'target:emulator']);
  const laptop = { cores: 2, memoryGiB: 24, languages: ['node', 'java'], targets: ['fake', 'emulator'], labels: [] };
  const lab = { cores: 16, memoryGiB: 64, languages: ['node', 'java', 'go'], targets: ['fake', 'emulator'], labels: ['perf-lab'] };
  assert.deepEqual(flags.map((f) => missingFor(f, laptop)).filter(Boolean), ['at least 8 cores', 'the label perf-lab', 'the go toolchain']);
  assert.equal(placementProblem(flags, [laptop, lab]), null);
  // A runner without the emulator's binary lacks the kind. The flag `emulator` of jobs queued before kinds
  // had flags is no name of placement's (the migration 20261212095000_target_flags rewrote it).
  const noEmulator = { ...lab, targets: ['fake'] };
  assert.equal(missingFor('target:emulator', noEmulator), 'the Cloud Spanner emulator');
  assert.equal(missingFor('emulator', lab), 'an unknown need (emulator)');
  assert.deepEqual(placementFlags({ ...p.value, target: { kind: 'emulator', emulatorHost: '127.0.0.1:9010' } }), ['cores>=8', 'label:perf-lab', 'lang:go', 'lang:java']);
  assert.equal(placementProblem(flags, [laptop]), 'no alive runner can take this job: the closest one (of 1) lacks at least 8 cores, the label perf-lab, the go toolchain');
  assert.match(placementProblem(flags, []) ?? '', /no runner is alive/);
  const bad = parseJobSpec({ ...p.value, requirements: { minCores: 0, labels: ['Perf Lab'], gpu: true } });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.issues.map((i) => i.path).sort(), ['requirements.gpu', 'requirements.labels.0', 'requirements.minCores']);
});

test('an open loop: arrivalRates in place of concurrency, its arrivals filled in, think time refused; the driver gets the open shape', () => {
  const base = { clients: [{ language: 'go', version: '1.96.1' }], configurations: [{ label: 'd' }], workload: { durationSeconds: 2 } };
  const r = parseJobSpec({ ...base, arrivalRates: [100, 400] });
  assert.ok(r.ok, JSON.stringify(!r.ok && r.issues));
  assert.deepEqual(r.value.workload.arrivals, { distribution: 'poisson', maxOutstanding: 1000 });
  assert.deepEqual(
    planCells(r.value).map((c) => c.concurrency),
    [100, 400],
    'a cell per rate',
  );
  assert.ok(parseJobSpec(r.value).ok, 'the parsed spec parses again as stored');
  const w = driverWorkload(r.value.workload, 400, 4, true);
  assert.deepEqual(w.load, { shape: 'open', ratePerSecond: 400, distribution: 'poisson', maxOutstanding: 1000, warmupOps: 200, measuredOps: undefined, durationMs: 2000 }, 'a rate is not time-scaled');
  assert.match(describeOperations(r.value.workload), /open loop: poisson arrivals, at most 1000 outstanding/);
  const issues = (input: unknown) => {
    const p = parseJobSpec(input);
    return p.ok ? [] : p.issues.map((i) => `${i.path}: ${i.message}`);
  };
  assert.deepEqual(issues({ ...base, concurrency: [10], arrivalRates: [100] }), ['arrivalRates: give exactly one of concurrency (a closed loop) or arrivalRates (an open loop)']);
  assert.deepEqual(issues(base), ['concurrency: give exactly one of concurrency (a closed loop) or arrivalRates (an open loop)']);
  assert.deepEqual(issues({ ...base, arrivalRates: [100], workload: { durationSeconds: 2, thinkTime: { ms: 5 } } }), [
    'workload.thinkTime: is for the agents of a closed loop; an open loop (arrivalRates) has none',
  ]);
  assert.deepEqual(issues({ ...base, concurrency: [10], workload: { durationSeconds: 2, arrivals: {} } }), ['workload.arrivals: is for an open loop: give arrivalRates in place of concurrency']);
  assert.deepEqual(issues({ ...base, arrivalRates: [0, 20_001], workload: { durationSeconds: 2, arrivals: { maxOutstanding: 0 } } }), [
    'arrivalRates.0: must be at least 1',
    'arrivalRates.1: must be at most 20000',
    'workload.arrivals.maxOutstanding: must be at least 1',
  ]);
});

test('target.dns: clients whose resolver cannot ask the cell DNS server are refused by name', () => {
  const target = { kind: 'fake', dns: { lookupDelayMs: 1000 } };
  const plain = { ...good, configurations: [{ label: 'client default' }] };
  const clients = [
    { language: 'go', version: '1.96.1' },
    { language: 'node', version: '9.0.0' },
    { language: 'java', version: '6.123.0' },
    { language: 'node', version: '6.16.0', grpcVersion: '1.8.3' },
    { language: 'node', version: '9.0.0', grpcVersion: '1.11.0' },
  ];
  const r = parseJobSpec({ ...plain, clients, target });
  assert.ok(!r.ok);
  assert.deepEqual(
    r.issues.map((i) => [i.path, i.message.split(':')[0]]),
    [
      ['clients.2', 'java 6.123.0 cannot resolve through target.dns'],
      ['clients.3', 'node 6.16.0 on grpc-js 1.8.3 cannot resolve through target.dns'],
    ],
  );
  const ok = parseJobSpec({ ...plain, clients: [clients[0], clients[1], clients[4]], target });
  assert.ok(ok.ok);
  assert.deepEqual(ok.value.target, { kind: 'fake', latencyMs: 65, dns: { lookupDelayMs: 1000 } });
  assert.deepEqual(pathsOf({ ...good, target: { kind: 'fake', dns: { lookupDelayMs: -1 } } }), ['target.dns.lookupDelayMs']);
  assert.ok(parseJobSpec({ ...plain, target: { kind: 'fake', dns: {}, credentials: {} } }).ok, 'with TLS and tokens too');
});
