// The launch form's state without a browser: what the fields send is a spec the API accepts, and a
// preset the fields can show comes back from them unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJobSpec } from '@scb/shared/job';
import { PRESETS } from '@scb/shared/presets';
import { configOptions, configsFor, fitsFields, fromSpec, INITIAL, TARGET_FORMS, toSpec } from '../../app/jobs/new/form-state';

test('the initial form is a valid spec: Node 9.0.0 on the fake, grpc-gcp on and off at three concurrencies', () => {
  const parsed = parseJobSpec(toSpec(INITIAL));
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  assert.deepEqual(parsed.value.clients, [{ language: 'node', version: '9.0.0' }]);
  assert.deepEqual(parsed.value.concurrency, [10, 50, 100]);
  assert.deepEqual(
    parsed.value.configurations.map((c) => c.label),
    ['grpc-gcp on', 'grpc-gcp off'],
  );
  assert.equal(parsed.value.target.kind, 'fake');
});

test('weights become one operation or a mix; empty and 0 leave an operation out', () => {
  const one = toSpec({ ...INITIAL, weights: { select1: '', readOnlyTxn: '0', readWriteTxn: '2', pointRead: '', scan: '' } }).workload;
  assert.equal(one.operation, 'readWriteTxn');
  assert.equal(one.mix, undefined);
  const mix = toSpec({ ...INITIAL, weights: { select1: '3', readOnlyTxn: '', readWriteTxn: '1', pointRead: '0', scan: '' } }).workload;
  assert.deepEqual(mix.mix, [
    { operation: 'select1', weight: 3 },
    { operation: 'readWriteTxn', weight: 1 },
  ]);
});

test('the runner fields ask nothing when empty, and what they say otherwise', () => {
  assert.equal(toSpec(INITIAL).requirements, undefined);
  assert.deepEqual(toSpec({ ...INITIAL, runner: { minCores: '4', minMemoryGiB: '', labels: ' perf-lab, ,gpu ' } }).requirements, { minCores: 4, labels: ['perf-lab', 'gpu'] });
});

test('the simple presets fit the fields and survive the round trip through them unchanged', () => {
  const shown = PRESETS.filter(fitsFields).map((p) => p.id);
  assert.ok(shown.includes('node-select1'), `presets that fit the fields: ${shown.join(', ')}`);
  for (const p of PRESETS.filter(fitsFields)) {
    const direct = parseJobSpec(p.spec);
    const back = parseJobSpec(toSpec(fromSpec(p.spec)));
    assert.ok(direct.ok && back.ok, p.id);
    assert.deepEqual(back.value, direct.value, p.id);
  }
});

test('a Cloud Spanner target keeps its database and caps through the fields; blanks are trimmed away', () => {
  const spanner = { projectId: ' my-project ', instanceId: 'inst', databaseId: 'db1', endpoint: ' ', maxOpsPerCell: 100, maxSecondsPerCell: 10 };
  const target = toSpec({ ...INITIAL, targetKind: 'spanner', targets: { ...INITIAL.targets, spanner } }).target;
  assert.deepEqual(target, { kind: 'spanner', projectId: 'my-project', instanceId: 'inst', databaseId: 'db1', maxOpsPerCell: 100, maxSecondsPerCell: 10 });
});

test('each target kind of the form round-trips through the spec, and a kind the form has no fields for leaves fitsFields false', () => {
  for (const { kind } of TARGET_FORMS) {
    const spec = toSpec({ ...INITIAL, targetKind: kind });
    assert.equal(spec.target?.kind, kind);
    const back = fromSpec(spec);
    assert.equal(back.targetKind, kind);
    assert.deepEqual(toSpec(back).target, spec.target, kind);
  }
  const plugin = { ...PRESETS[0]!, spec: { ...PRESETS[0]!.spec, target: { kind: 'a-plug-in-kind', speed: 3 } } };
  assert.equal(fromSpec(plugin.spec).targetKind, INITIAL.targetKind);
  assert.equal(fitsFields(plugin), false);
});

test("a language's own configuration boxes: Python's session pools, two ticked when it is picked, and back through the spec", () => {
  assert.deepEqual(
    configOptions('python').map((o) => o.label),
    ['FixedSizePool', 'BurstyPool', 'PingingPool'],
  );
  const configs = configsFor('python', INITIAL.configs);
  assert.deepEqual(configs, { fixed: true, bursty: true, pinging: false });
  const form = { ...INITIAL, language: 'python' as const, versions: ['3.61.0', '3.71.0'], concurrency: '10, 100', configs };
  const parsed = parseJobSpec(toSpec(form));
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  assert.deepEqual(
    parsed.value.configurations.map((c) => [c.label, c.pythonPool]),
    [
      ['FixedSizePool', 'fixed'],
      ['BurstyPool', 'bursty'],
    ],
  );
  // The spec comes back as the same boxes; a pool with a size the boxes do not carry needs the JSON.
  assert.deepEqual(fromSpec(toSpec(form)).configs, configs);
  const sized = { ...toSpec(form), configurations: [{ label: 'fixed 10', pythonPool: 'fixed' as const, sessionPool: { maxSessions: 10 } }] };
  assert.deepEqual(fromSpec(sized).configs, { fixed: false, bursty: false, pinging: false });
  // Back to Node: grpc-gcp's boxes again, as they were before Python was picked.
  assert.deepEqual(configsFor('node', configs), INITIAL.configs);
  assert.deepEqual(configsFor('go', INITIAL.configs), { on: false, off: true, default: false, dynamic: false });
});
