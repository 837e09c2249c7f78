// Reproductions in their smallest forms, end to end on real client versions (those that mostly wait on
// a deadline or a keepalive are in reproductions-waits.test.ts): each job runs on the
// runner against the fake with the fault its bug needs, and its expectations, evaluated on the stored
// cells as the job page evaluates them, are met: the bug on the affected version, not on the fixed.
// Each entry's full form (every version it names, its seconds and agents) runs with
// `npm run bench:reproductions -- <id>`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createGate, getGate } from '@scb/db';
import { parseGateSpec, type JobSpecInput } from '@scb/shared';
import { useRunner, waitForJob } from '../helpers/jobs';
import { reproduce as reproduceOn, shorter } from '../helpers/reproductions';

const runner = useRunner();
const reproduce = (id: string, smaller?: (s: JobSpecInput) => JobSpecInput) => reproduceOn(runner, id, smaller);

// Two agents, 200 operations measured, not 1 s: 6.105.0's agents fail as fast as they can ask (a core
// each, so a second of them was most of the machine's CPU for that second), and 200 failed operations show
// every operation failing as well as a second's worth; 6.111.1 serves its 200 in about the second it had
// (10 ms queries at C=2), so its error share is judged on as many operations as before.
test('Java 6.105.0 keeps a failed multiplexed CreateSession and fails every operation; 6.111.1 creates it again', { timeout: 600_000 }, () =>
  reproduce('java-mux-session-error-cached', (s) => {
    const small = shorter({ ...s, clients: s.clients.filter((c) => c.version !== '6.106.0'), concurrency: [2] });
    const { durationSeconds: _seconds, ...workload } = small.workload;
    return { ...small, workload: { ...workload, measuredOps: 200 } };
  }),
);

// Queries of 200 ms, not 65: the same 200 in flight (past one connection's 100 streams), a third of the RPCs.
test('Node 7.21.0 puts every RPC on one connection; 9.0.0 spreads them', { timeout: 600_000 }, () =>
  reproduce('node-7-one-connection', (s) => shorter({ ...s, target: { ...s.target, kind: 'fake', latencyMs: 200 } })),
);

test('grpc-js 1.8.2 ends the calls in flight at a GOAWAY and Node 6.16.0 retries them; on 1.8.3 they finish', { timeout: 600_000 }, () =>
  reproduce('node-grpc-js-goaway-mid-stream', (s) => ({ ...s, clients: s.clients.filter((c) => c.grpcVersion !== '1.8.1'), workload: { ...s.workload, durationSeconds: 4 } })),
);

test('a reproduction as a release gate: a Node release that waits for the trailers fails the gate by the reproduction’s name', { timeout: 600_000 }, async () => {
  // 7.21.0 in 8.2.1's place: a release with the bug, judged beside 8.0.0, which shows the trigger works.
  const spec = parseGateSpec({ scenario: 'node-waits-for-trailers', language: 'node', baseline: '7.20.0', candidate: '7.21.0' });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const { id, jobId } = await createGate(runner.db, runner.databaseUrl, spec.value);
  const job = await waitForJob(runner.db, jobId, 600_000, runner.logs);
  assert.deepEqual(
    job.cells.map((c) => c.clientVersion),
    ['8.0.0', '7.21.0'],
  );
  let gate = await getGate(runner.db, id);
  for (let i = 0; i < 40 && gate?.ok && !gate.verdict; i++) {
    await new Promise((r) => setTimeout(r, 250));
    gate = await getGate(runner.db, id);
  }
  assert.ok(gate?.ok && gate.evaluation, `not judged: ${JSON.stringify(gate)}\n${runner.logs.slice(-10).join('\n')}`);
  for (const r of gate.evaluation.reasons) console.log(`# gate: ${r}`);
  assert.equal(gate.verdict, 'fail', gate.evaluation.reasons.join('\n'));
  assert.equal(gate.evaluation.reasons[0], 'node-waits-for-trailers: the bug is back in 7.21.0');
  assert.ok(
    gate.evaluation.reasons.some((r) => /8\.0\.0 waits for the trailers held 100 ms: p50 of 8\.0\.0 is .* — met/.test(r)),
    'the trigger shown on 8.0.0',
  );
});
