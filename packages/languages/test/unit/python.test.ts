// Python's configurations in a job spec: its own options refused for other languages by name, and what a
// Python version lacks refused before anything is installed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJobSpec, refusedOption } from '@scb/shared';

const spec = (version: string, configuration: Record<string, unknown>, operation = 'select1', language = 'python') =>
  parseJobSpec({
    clients: [{ language, version }],
    configurations: [{ label: 'c', ...configuration }],
    concurrency: [1],
    workload: { operation, warmupOps: 1, measuredOps: 1, ...(operation === 'scan' ? { resultSet: { rows: 2, columns: [{ type: 'INT64' }] } } : {}) },
  });

const issue = (r: ReturnType<typeof parseJobSpec>) => (r.ok ? null : `${r.issues[0]!.path}: ${r.issues[0]!.message}`);

test('a Python job takes its pools, multiplexed sessions and lazy_decode where the version has them', () => {
  assert.equal(issue(spec('3.71.0', { pythonPool: 'bursty', sessionPool: { maxSessions: 20 }, multiplexedSessions: false })), null);
  assert.equal(issue(spec('3.71.0', { pythonLazyDecode: true }, 'scan')), null);
  assert.equal(issue(spec('1.17.0', { pythonPool: 'pinging' })), null);
});

test('what a Python version lacks, or the Python client never has, is refused at its field', () => {
  assert.match(
    issue(spec('3.50.0', { pythonLazyDecode: true }, 'scan'))!,
    /^configurations\.0\.pythonLazyDecode: is not supported by python 3\.50\.0: lazy_decode came in google-cloud-spanner 3\.51\.0/,
  );
  assert.match(issue(spec('3.71.0', { pythonLazyDecode: true }))!, /^configurations\.0\.pythonLazyDecode: changes when the scan operation's values decode, which the workload does not run/);
  assert.match(
    issue(spec('3.54.0', { multiplexedSessions: true }))!,
    /^configurations\.0\.multiplexedSessions: is not supported by python 3\.54\.0: multiplexed sessions came in google-cloud-spanner 3\.55\.0/,
  );
  assert.match(issue(spec('3.71.0', { numChannels: 4 }))!, /^configurations\.0\.numChannels: is not exposed by the Python client/);
  assert.match(issue(spec('3.71.0', { grpcGcp: 'on' }))!, /^configurations\.0\.grpcGcp: grpc-gcp is not available in the Python driver/);
  assert.match(issue(spec('3.71.0', { sessionPool: { maxIdle: 3 } }))!, /^configurations\.0\.sessionPool: maxIdle is not a python pool option/);
  assert.match(issue(spec('3.71.0', { decodeMode: 'DIRECT' }))!, /^configurations\.0\.decodeMode: is a java client option .*; the python client has none/);
});

test("Python's own options are refused for every other language by name", () => {
  for (const language of ['node', 'java', 'go']) {
    assert.match(refusedOption(language, { pythonPool: 'fixed' })!.message, new RegExp(`^is a python client option .*; the ${language} client has none$`));
    assert.equal(refusedOption(language, { pythonLazyDecode: true })!.option, 'pythonLazyDecode');
  }
});
