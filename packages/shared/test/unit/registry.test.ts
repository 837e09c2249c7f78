// The registries are the seams: a kind or a language registered from here (as a plug-in module does)
// is validated by its own schema, placed, described and policed like a built-in one, and a name no
// one registered is refused, naming the field and the registered names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import {
  describeTarget,
  estimateJobSeconds,
  languageNames,
  parseJobSpec,
  placementFlags,
  policyIssues,
  policyFromEnv,
  refusedOption,
  registerLanguage,
  registerTargetKind,
  type TargetKind,
} from '../../src/index';

const BoxSchema = z.strictObject({ kind: z.literal('box'), size: z.number().int().min(1) });
const box: TargetKind<z.output<typeof BoxSchema>> = {
  name: 'box',
  title: 'a box',
  schema: BoxSchema,
  startedByRunner: () => true,
  policyIssues: (t) => (t.size > 10 ? [{ field: 'size', message: 'boxes are at most 10 here' }] : []),
  modeledLatencyMs: () => null,
  normalize: (t) => t,
  estimate: { setupSeconds: 100, operationMs: 1 },
  streamLimit: () => null,
  describe: (t) => `a box of ${t.size}`,
};
registerTargetKind(box);
registerLanguage({
  name: 'cobol',
  title: 'COBOL',
  packageName: 'spanner-cbl',
  exampleVersion: '1.0.0',
  cellSeconds: 1,
  refuse: (c) => (c.grpcGcp === 'on' ? { option: 'grpcGcp', message: 'no grpc-gcp in COBOL' } : null),
});

const spec = (target: unknown, language = 'cobol') =>
  parseJobSpec({ clients: [{ language, version: '1.0.0' }], configurations: [{ label: 'a' }], concurrency: [1], workload: { measuredOps: 10 }, target });

test('a registered kind and language: parsed by their schema, placed, described, estimated and policed', () => {
  const p = spec({ kind: 'box', size: 3 });
  assert.ok(p.ok, JSON.stringify(!p.ok && p.issues));
  assert.deepEqual(placementFlags(p.value), ['lang:cobol', 'target:box']);
  assert.equal(describeTarget(p.value), 'a box of 3');
  assert.ok(estimateJobSeconds(p.value) >= 100, "the kind's setup time counts");
  assert.ok(languageNames().includes('cobol'));
  assert.deepEqual(refusedOption('cobol', { grpcGcp: 'on' }), { option: 'grpcGcp', message: 'no grpc-gcp in COBOL' });
  const policy = policyFromEnv({});
  assert.ok(policy.ok);
  const big = spec({ kind: 'box', size: 11 });
  assert.ok(big.ok);
  assert.deepEqual(policyIssues(policy.policy, big.value.target), [{ path: 'target.size', message: 'boxes are at most 10 here' }]);
});

test("a registered kind's own schema names its fields; unknown kinds and languages name the registered ones", () => {
  const bad = spec({ kind: 'box', size: 0, colour: 'red' });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.issues.map((i) => i.path).sort(), ['target.colour', 'target.size']);
  const unknown = spec({ kind: 'crate' }, 'fortran');
  assert.ok(!unknown.ok);
  const at = (p: string) => unknown.issues.find((i) => i.path === p)?.message ?? '';
  assert.match(at('target.kind'), /fake, emulator, spanner, box/);
  assert.match(at('clients.0.language'), /node, java, go, python, cobol/);
});
