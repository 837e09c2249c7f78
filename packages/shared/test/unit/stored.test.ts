import assert from 'node:assert/strict';
import { test } from 'node:test';
import { environmentAsAnswered, JobEnvironmentSchema, targetVersionsOf, toolchainsOf } from '../../src/stored';

test("a job's toolchains read from `toolchains`, and from the language-named fields of rows stored before it", () => {
  const now = JobEnvironmentSchema.parse({ cores: 2, toolchains: { node: 'v20.20.2', java: '17.0.12', go: null, rust: '1.80' } });
  assert.deepEqual(toolchainsOf(now), { node: 'v20.20.2', java: '17.0.12', go: null, rust: '1.80' });
  const before = JobEnvironmentSchema.parse({ cores: 2, node: 'v20.19.0', java: null, go: 'go1.22.5', host: 'h' });
  assert.deepEqual(toolchainsOf(before), { node: 'v20.19.0', java: null, go: 'go1.22.5' });
  assert.deepEqual(toolchainsOf(JobEnvironmentSchema.parse({ java: 17 })), {}, 'a field that is not a version is no toolchain');
});

test("a job's target versions read from `targets`, and from the `emulator` field of rows stored before it; the API answers both", () => {
  const now = JobEnvironmentSchema.parse({ cores: 2, targets: { fake: null, emulator: '1.5.30', twin: '1.0' } });
  assert.deepEqual(targetVersionsOf(now), { fake: null, emulator: '1.5.30', twin: '1.0' });
  assert.equal(environmentAsAnswered(now)!.emulator, '1.5.30', 'the field the API answered before `targets`');
  assert.deepEqual(environmentAsAnswered(now)!.targets, now.targets);
  const before = JobEnvironmentSchema.parse({ cores: 2, emulator: '1.5.28' });
  assert.deepEqual(targetVersionsOf(before), { emulator: '1.5.28' });
  assert.equal(environmentAsAnswered(before)!.emulator, '1.5.28');
  const without = environmentAsAnswered(JobEnvironmentSchema.parse({ cores: 2, targets: { fake: null } }))!;
  assert.equal(without.emulator, null, 'a runner without the emulator');
  assert.deepEqual(targetVersionsOf(without), { fake: null }, 'what the API adds is not read back as a target');
  assert.equal(environmentAsAnswered(null), null);
});
