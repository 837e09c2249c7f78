import assert from 'node:assert/strict';
import { evaluateExpectations, parseJobSpec, reproduction, reproductionJobSpec, type ExpectationCell, type JobSpecInput } from '@scb/shared';
import type { useRunner } from './jobs';

type Runner = ReturnType<typeof useRunner>;
type Stored = Awaited<ReturnType<Runner['runSpec']>>;

/** A stored cell as an expectation reads it (the fake's connection count, as the job page shows it). */
const expectationCell = (c: Stored['cells'][number]): ExpectationCell => ({
  client: { language: c.clientLanguage, version: c.clientVersion, grpcVersion: c.clientGrpcVersion },
  configuration: { label: c.configLabel },
  concurrency: c.concurrency,
  status: c.status,
  result: c.result,
  operations: (c.result?.operations ?? null) as ExpectationCell['operations'],
  channels: c.channels,
  error: c.error,
});

/** A reproduction's workload cut to its smallest form: a short warm-up, two seconds measured. */
export const shorter = (s: JobSpecInput): JobSpecInput => ({ ...s, workload: { ...s.workload, warmupOps: 20, durationSeconds: 2 } });

/**
 * Runs a reproduction on `runner`, with its spec narrowed by `smaller` (fewer clients: the expectations
 * that name them only), and asserts its expectations are met on the stored cells, as the job page
 * evaluates them: the bug on the affected version, not on the fixed.
 */
export async function reproduce(runner: Runner, id: string, smaller: (s: JobSpecInput) => JobSpecInput = (s) => s): Promise<void> {
  const r = reproduction(id);
  assert.ok(r, id);
  const spec = smaller(structuredClone(reproductionJobSpec(r)));
  const names = (s: { version?: string; grpcVersion?: string }) =>
    spec.clients.some((c) => (s.version === undefined || c.version === s.version) && (s.grpcVersion === undefined || (c.grpcVersion ?? '') === s.grpcVersion));
  spec.expectations = spec.expectations?.filter((e) => (e.kind === 'ratio' ? [e.of, e.to] : [e.cells]).every(names));
  const parsed = parseJobSpec(spec);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  const job = await runner.runSpec(spec, 600_000);
  const { met, outcomes } = evaluateExpectations(parsed.value.expectations ?? [], job.cells.map(expectationCell));
  for (const o of outcomes) console.log(`# ${id}: ${o.met ? 'met' : 'NOT MET'}: ${o.text}`);
  for (const c of job.cells) if (c.error) console.log(`# ${id}: ${c.clientVersion}: ${c.error.slice(0, 200)}`);
  assert.equal(met, true, `${id}: ${outcomes.map((o) => o.text).join('; ')}`);
}
