import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JobEnvironmentSchema, toolchainsOf } from '../../src/stored';

test("a job's toolchains read from `toolchains`, and from the language-named fields of rows stored before it", () => {
  const now = JobEnvironmentSchema.parse({ cores: 2, toolchains: { node: 'v20.20.2', java: '17.0.12', go: null, rust: '1.80' } });
  assert.deepEqual(toolchainsOf(now), { node: 'v20.20.2', java: '17.0.12', go: null, rust: '1.80' });
  const before = JobEnvironmentSchema.parse({ cores: 2, node: 'v20.19.0', java: null, go: 'go1.22.5', host: 'h' });
  assert.deepEqual(toolchainsOf(before), { node: 'v20.19.0', java: null, go: 'go1.22.5' });
  assert.deepEqual(toolchainsOf(JobEnvironmentSchema.parse({ java: 17 })), {}, 'a field that is not a version is no toolchain');
});
