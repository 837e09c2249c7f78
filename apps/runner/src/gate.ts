import { evaluateGate, parseGateSpec, type Arm, type GateEvaluation, type GateSample } from '@scb/shared';
import type { Db } from '@scb/db';

/**
 * Judges the gate a finished job belongs to, from its succeeded cells, and stores the verdict.
 * Failed cells and an unfinished job are reasons too: a gate never passes on fewer repeats silently.
 */
export async function evaluateGateOfJob(db: Db, jobId: string, log: (line: string) => void): Promise<void> {
  const gate = await db.gate.findUnique({ where: { jobId }, include: { job: true } });
  if (!gate || gate.verdict !== null) return;
  const job = gate.job;
  if (job.status === 'queued' || job.status === 'running') return;
  const spec = parseGateSpec(gate.spec);
  if (!spec.ok) {
    await store(db, gate.id, { verdict: 'inconclusive', reasons: [`stored gate is invalid: ${spec.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`], metrics: [], method: '' });
    return;
  }
  const cells = await db.cell.findMany({ where: { jobId }, include: { result: true }, orderBy: { index: 'asc' } });
  const samples: GateSample[] = cells
    .filter((c) => c.status === 'succeeded' && c.result)
    .map((c) => ({ arm: c.configLabel as Arm, concurrency: c.concurrency, repeat: c.repeat, qps: c.result!.qps, p50Ms: c.result!.p50Ms, p99Ms: c.result!.p99Ms }));
  const concurrency = [...new Set(cells.map((c) => c.concurrency))];
  const evaluation = evaluateGate(samples, { criteria: { ...spec.value.criteria, worstRepeat: spec.value.criteria.worstRepeat ?? false }, concurrency });

  const notes: string[] = [];
  const failed = cells.filter((c) => c.status === 'failed');
  if (failed.length) notes.push(`${failed.length} of ${cells.length} cells failed (first: ${failed[0].configLabel} ${failed[0].clientVersion}, repeat ${failed[0].repeat}: ${failed[0].error ?? 'no message'})`);
  if (job.status !== 'succeeded') notes.push(`the gate's job ${job.status}${job.error ? `: ${job.error}` : ''}`);
  // An unfinished gate may still fail on what it measured, but it does not pass.
  const verdict = job.status !== 'succeeded' && evaluation.verdict === 'pass' ? 'inconclusive' : evaluation.verdict;
  await store(db, gate.id, { ...evaluation, verdict, reasons: [...evaluation.reasons, ...notes] });
  log(`gate ${gate.id} (job ${jobId}): ${verdict}`);
}

async function store(db: Db, id: string, evaluation: GateEvaluation): Promise<void> {
  await db.gate.update({ where: { id }, data: { verdict: evaluation.verdict, evaluation: JSON.parse(JSON.stringify(evaluation)), finishedAt: new Date() } });
}
