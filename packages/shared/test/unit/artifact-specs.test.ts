import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidateClient, gateJobSpec, parseGateSpec } from '../../src/gate/gate';
import { artifactIdsOf, resolveArtifacts } from '../../src/job/artifacts';
import { clientText, clientVersionKey, parseJobSpec } from '../../src/job/spec';

const ID = `sha256:${'ab'.repeat(32)}`;
const OTHER = `sha256:${'cd'.repeat(32)}`;
const stored = new Map([
  [ID, { id: ID, language: 'node', version: '9.0.1-SNAPSHOT', label: 'PR 7 @ 1a2b3c4' }],
  [OTHER, { id: OTHER, language: 'java', version: '6.104.1-SNAPSHOT', label: null }],
]);
const lookup = (id: string) => stored.get(id);

test('a job naming a build gets its version and label from what was stored, or an issue at the field', () => {
  const body = {
    clients: [
      { language: 'node', version: '9.0.0' },
      { language: 'node', artifact: ID },
    ],
    configurations: [{ label: 'd' }],
    concurrency: [1],
    workload: { measuredOps: 10 },
  };
  assert.deepEqual(artifactIdsOf(body), [ID]);
  const r = resolveArtifacts(body, lookup);
  assert.ok(r.ok);
  const spec = parseJobSpec(r.body);
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  assert.deepEqual(spec.value.clients[1], { language: 'node', version: '9.0.1-SNAPSHOT', artifact: ID, label: 'PR 7 @ 1a2b3c4' });
  // The spec's own label wins over the upload's.
  const own = resolveArtifacts({ clients: [{ language: 'node', artifact: ID, label: 'mine' }] }, lookup);
  assert.ok(own.ok && (own.body as { clients: { label: string }[] }).clients[0]!.label === 'mine');

  const bad = (clients: unknown[]) => {
    const x = resolveArtifacts({ clients }, lookup);
    assert.ok(!x.ok);
    return x.issues;
  };
  assert.deepEqual(bad([{ language: 'node', artifact: `sha256:${'0'.repeat(64)}` }]), [{ path: 'clients.0.artifact', message: 'no build with this id was uploaded here (POST /api/artifacts first)' }]);
  assert.match(bad([{ language: 'node', artifact: OTHER }])[0]!.message, /is a java build, not a node one/);
  assert.deepEqual(
    bad([{ language: 'node', artifact: ID, version: '9.0.0' }]).map((i) => i.path),
    ['clients.0.version'],
  );
  // Without the server's lookup the version is missing, and the schema says where it comes from.
  const unresolved = parseJobSpec({ clients: [{ language: 'node', artifact: ID }], configurations: [{ label: 'd' }], concurrency: [1], workload: { measuredOps: 10 } });
  assert.ok(!unresolved.ok && unresolved.issues.some((i) => i.path === 'clients.0.version' && /artifact/.test(i.message)));
});

test('a client names a build only with artifact; a build brings its own gRPC library', () => {
  const issues = (client: object) => {
    const r = parseJobSpec({ clients: [client], configurations: [{ label: 'd' }], concurrency: [1], workload: { measuredOps: 10 } });
    return r.ok ? [] : r.issues.map((i) => i.path);
  };
  assert.deepEqual(issues({ language: 'node', version: '9.0.0', label: 'x' }), ['clients.0.label']);
  assert.deepEqual(issues({ language: 'node', version: '9.0.0', artifact: ID, grpcVersion: '1.14.0' }), ['clients.0.grpcVersion']);
  assert.deepEqual(issues({ language: 'node', version: '9.0.0', artifact: 'sha256:short' }), ['clients.0.artifact']);
  assert.deepEqual(issues({ language: 'node', version: '9.0.0', artifact: ID, label: 'two\nlines' }), ['clients.0.label']);
});

test('a build is never shown as the release it was built from', () => {
  const build = { language: 'node', version: '9.0.0', artifact: ID, label: 'PR 7 @ 1a2b3c4' };
  assert.equal(clientText(build), 'node PR 7 @ 1a2b3c4 (build sha256:abababababab of 9.0.0)');
  assert.equal(clientVersionKey(build), 'PR 7 @ 1a2b3c4 (sha256:abababababab)');
  assert.equal(clientVersionKey({ version: '9.0.0' }), '9.0.0');
  assert.notEqual(clientText(build), clientText({ language: 'node', version: '9.0.0' }));
});

test('a gate with a candidate build: the candidate arm runs the build, the baseline the release', () => {
  const r = resolveArtifacts({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidateArtifact: ID }, lookup);
  assert.ok(r.ok);
  const g = parseGateSpec(r.body);
  assert.ok(g.ok, JSON.stringify(!g.ok && g.issues));
  assert.equal(g.value.candidate, '9.0.1-SNAPSHOT');
  assert.equal(g.value.candidateLabel, 'PR 7 @ 1a2b3c4');
  const job = gateJobSpec(g.value);
  assert.deepEqual(job.clients, [{ language: 'node', version: '9.0.0' }, candidateClient(g.value)]);
  assert.equal(job.clients[1]!.artifact, ID);
  const labelOnly = parseGateSpec({ scenario: 'steady-select1', language: 'node', baseline: '9.0.0', candidate: '9.0.1', candidateLabel: 'x' });
  assert.ok(!labelOnly.ok && labelOnly.issues[0]!.path === 'candidateLabel');
});
