import type { GateSpec } from '@scb/shared/gate';
import type { GateEvaluation } from '@scb/shared/gate-stats';
import type { MarkdownGate } from '@scb/shared/gate-markdown';
import { db } from './db';
import { jobUrl } from './jobs';

/**
 * A gate's state: queued or running while its job is; `evaluating` between the job's end and the
 * runner storing the verdict; `finished` with a verdict.
 */
export type GateStatus = 'queued' | 'running' | 'evaluating' | 'finished';

/** What GET /api/gates/<id> answers and the gate page renders. */
export interface GateView {
  id: string;
  url: string;
  createdAt: string;
  finishedAt: string | null;
  status: GateStatus;
  verdict: string | null;
  reasons: string[];
  spec: GateSpec;
  evaluation: GateEvaluation | null;
  job: { id: string; url: string; status: string; error: string | null; cellsDone: number; cellsTotal: number };
  /** The gate's jobs (one today: both arms interleaved in it). */
  jobs: { id: string; url: string }[];
}

export function gateUrl(id: string, origin: string): string {
  return new URL(`/gates/${id}`, origin).toString();
}

function statusOf(verdict: string | null, jobStatus: string): GateStatus {
  if (verdict) return 'finished';
  return jobStatus === 'queued' || jobStatus === 'running' ? jobStatus : 'evaluating';
}

export async function getGate(id: string, origin: string): Promise<GateView | null> {
  const g = await db().gate.findUnique({ where: { id }, include: { job: true } });
  if (!g) return null;
  const cellsDone = await db().cell.count({ where: { jobId: g.jobId, status: { notIn: ['pending', 'running'] } } });
  const evaluation = g.evaluation as unknown as GateEvaluation | null;
  const url = jobUrl(g.jobId, origin);
  return {
    id: g.id,
    url: gateUrl(g.id, origin),
    createdAt: g.createdAt.toISOString(),
    finishedAt: g.finishedAt?.toISOString() ?? null,
    status: statusOf(g.verdict, g.job.status),
    verdict: g.verdict,
    reasons: evaluation?.reasons ?? [],
    spec: g.spec as unknown as GateSpec,
    evaluation,
    job: { id: g.jobId, url, status: g.job.status, error: g.job.error, cellsDone, cellsTotal: g.job.cellsTotal },
    jobs: [{ id: g.jobId, url }],
  };
}

export function markdownGate(g: GateView): MarkdownGate {
  return { id: g.id, url: g.url, jobUrl: g.job.url, spec: g.spec, evaluation: g.evaluation };
}

export interface GateListItem {
  id: string;
  createdAt: string;
  status: GateStatus;
  verdict: string | null;
  scenario: string;
  language: string;
  baseline: string;
  candidate: string;
  /** Options only the candidate runs with, in words ("" when both arms share them). */
  candidateOptions: string;
  repeats: number;
  jobId: string;
  firstReason: string | null;
}

export async function listGates(limit = 100, offset = 0): Promise<GateListItem[]> {
  const gates = await db().gate.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: limit, skip: offset, include: { job: { select: { status: true } } } });
  return gates.map((g) => {
    const s = g.spec as unknown as GateSpec;
    const e = g.evaluation as unknown as GateEvaluation | null;
    return {
      id: g.id,
      createdAt: g.createdAt.toISOString(),
      status: statusOf(g.verdict, g.job.status),
      verdict: g.verdict,
      scenario: s.scenario,
      language: s.language,
      baseline: s.baseline,
      candidate: s.candidate,
      candidateOptions: Object.entries(s.candidateConfiguration ?? {}).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', '),
      repeats: s.repeats,
      jobId: g.jobId,
      firstReason: e?.reasons[0] ?? null,
    };
  });
}
