import type { GateSpec } from '@scb/shared/gate';
import type { GateEvaluation } from '@scb/shared/gate-stats';
import type { MarkdownGate } from '@scb/shared/gate-markdown';
import { optionText, type FieldIssue } from '@scb/shared/job';
import { isUnfinishedJob } from '@scb/shared/status';
import { countGates, gateCalibrationFor, getGate as readGate, listGates as readGates } from '@scb/db';
import type { GateCalibration } from '@scb/shared/calibration';
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
  /** Who queued it; null before submitters were recorded. */
  createdBy: string | null;
  /** The scenario's calibration for the gate's language (at its baseline version if there is one, else the newest), or null when it was never calibrated. */
  calibration: GateCalibration | null;
}

export function gateUrl(id: string, origin: string): string {
  return new URL(`/gates/${id}`, origin).toString();
}

function statusOf(verdict: string | null, jobStatus: string): GateStatus {
  if (verdict) return 'finished';
  return isUnfinishedJob(jobStatus) ? jobStatus : 'evaluating';
}

/** A stored gate whose JSON columns do not parse: what can still be said about it, and why. */
export interface InvalidGate {
  id: string;
  url: string;
  createdAt: string;
  status: GateStatus;
  verdict: string | null;
  job: { id: string; url: string; status: string };
  /** One sentence naming every column that did not parse. */
  invalid: string;
  issues: FieldIssue[];
}

export function isInvalidGate(g: GateView | InvalidGate): g is InvalidGate {
  return 'invalid' in g;
}

/** A gate as the API and its page show it; InvalidGate when its stored row does not parse; null when there is none. */
export async function getGate(id: string, origin: string): Promise<GateView | InvalidGate | null> {
  const g = await readGate(db(), id);
  if (!g) return null;
  const url = jobUrl(g.jobId, origin);
  const status = statusOf(g.verdict, g.job.status);
  if (!g.ok) {
    return {
      id: g.id,
      url: gateUrl(g.id, origin),
      createdAt: g.createdAt.toISOString(),
      status,
      verdict: g.verdict,
      job: { id: g.jobId, url, status: g.job.status },
      invalid: g.invalid,
      issues: g.issues,
    };
  }
  return {
    id: g.id,
    url: gateUrl(g.id, origin),
    createdAt: g.createdAt.toISOString(),
    finishedAt: g.finishedAt?.toISOString() ?? null,
    status,
    verdict: g.verdict,
    reasons: g.evaluation?.reasons ?? [],
    spec: g.spec,
    evaluation: g.evaluation,
    job: { id: g.jobId, url, status: g.job.status, error: g.job.error, cellsDone: g.job.cellsDone, cellsTotal: g.job.cellsTotal },
    jobs: [{ id: g.jobId, url }],
    createdBy: g.createdBy,
    calibration: await gateCalibrationFor(db(), g.spec),
  };
}

export function markdownGate(g: GateView): MarkdownGate {
  return { id: g.id, url: g.url, jobUrl: g.job.url, spec: g.spec, evaluation: g.evaluation, calibration: g.calibration };
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
  createdBy: string | null;
  /** Set (and the spec's fields empty) when the stored gate does not parse. */
  invalid?: string;
}

export async function listGates(limit = 100, offset = 0): Promise<GateListItem[]> {
  return (await readGates(db(), { limit, offset })).map((g) => {
    const s = g.ok ? g.spec : null;
    return {
      id: g.id,
      createdAt: g.createdAt.toISOString(),
      status: statusOf(g.verdict, g.jobStatus),
      verdict: g.verdict,
      scenario: s?.scenario ?? '',
      language: s?.language ?? '',
      baseline: s?.baseline ?? '',
      candidate: s?.candidate ?? '',
      candidateOptions: optionText(s?.candidateConfiguration, { keepDefault: true }),
      repeats: s?.repeats ?? 0,
      jobId: g.jobId,
      firstReason: g.ok ? (g.evaluation?.reasons[0] ?? null) : null,
      createdBy: g.createdBy,
      ...(g.ok ? {} : { invalid: g.invalid }),
    };
  });
}

/** How many gates there are (for the pager). */
export function gateCount(): Promise<number> {
  return countGates(db());
}
