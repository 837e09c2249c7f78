// A reproduction as a gate scenario: its job with the candidate in place of the release that behaves,
// judged by its expectations, so a bug that comes back fails that release's gate by the reproduction's
// name. The affected releases still run: they show the trigger worked in this run.
import type { CellSelector, Expectation, ExpectationCell, ExpectationOutcome } from '../expect/expectation';
import { evaluateExpectations } from '../expect/expectation';
import { parseJobSpec, type JobSpecInput } from '../job/spec';
import { REPRODUCTIONS, type Reproduction } from '../reproductions/index';
import type { GateEvaluation, Verdict } from './gate-stats';

/** Reproductions a gate can run: seen here, with one release of their client that behaves. */
export const GATE_REPRODUCTIONS = REPRODUCTIONS.filter((r): r is Reproduction & { fixedVersion: string } => r.status === 'reproduced' && r.fixedVersion !== undefined);

export function gateReproduction(id: string): (Reproduction & { fixedVersion: string }) | undefined {
  return GATE_REPRODUCTIONS.find((r) => r.id === id);
}

/** The gate spec fields a reproduction scenario leaves to its reproduction's own spec. */
export const REPRODUCTION_OWN_FIELDS = ['configuration', 'candidateConfiguration', 'concurrency', 'arrivalRates', 'target', 'workload', 'timeScale', 'operation'] as const;

const selectors = (e: Expectation | NonNullable<JobSpecInput['expectations']>[number]): CellSelector[] => (e.kind === 'ratio' ? [e.of, e.to] : [e.cells]) as CellSelector[];

/** Whether an expectation reads a version's cells (a side naming no version reads every cell). */
const reads = (e: Expectation | NonNullable<JobSpecInput['expectations']>[number], version: string) => selectors(e).some((s) => s.version === undefined || s.version === version);

/**
 * The job of a reproduction gate: the reproduction's spec with `candidate` where it runs `fixedVersion`,
 * in its cells and in its expectations, and only the clients its expectations read. A candidate that is
 * one of the affected releases runs once, and the expectations about it as an affected release are
 * dropped: the gate asks it to behave.
 */
export function reproductionGateJobSpec(
  r: Reproduction & { fixedVersion: string },
  g: { candidate: string; candidateArtifact?: string; candidateLabel?: string; repeats?: number; name?: string },
): JobSpecInput {
  const swap = <T extends { version?: string }>(x: T): T => (x.version === r.fixedVersion ? { ...x, version: g.candidate } : x);
  // The candidate client is the uploaded build where the gate names one; expectations select it by its version.
  const build = g.candidateArtifact ? { artifact: g.candidateArtifact, ...(g.candidateLabel && { label: g.candidateLabel }) } : {};
  const expectations = r.spec.expectations
    .filter((e) => g.candidate === r.fixedVersion || !selectors(e).some((s) => s.version === g.candidate))
    .map((e) => ({ ...e, ...(e.says && { says: e.says.split(r.fixedVersion).join(g.candidate) }) }))
    .map((e) => (e.kind === 'ratio' ? { ...e, of: swap(e.of), to: swap(e.to) } : { ...e, cells: swap(e.cells) }));
  // Only the clients the expectations read: a reproduction may run more for its page's sake. With
  // pairing zip (client i runs configuration i) a client's configuration goes with it.
  const kept = r.spec.clients
    .map((c, i) => ({ client: c.version === r.fixedVersion ? { ...swap(c), ...build } : c, configuration: r.spec.configurations[i], from: c }))
    .filter(({ from }) => from.version !== g.candidate || from.version === r.fixedVersion)
    .filter(({ client }) => expectations.some((e) => reads(e, client.version)));
  const zip = r.spec.pairing === 'zip';
  return {
    ...r.spec,
    name: g.name ?? `gate: ${r.language} ${g.candidateLabel ?? g.candidate} on reproduction ${r.id}`,
    clients: kept.map((k) => k.client),
    ...(zip && { configurations: kept.map((k) => k.configuration!) }),
    expectations,
    ...(g.repeats !== undefined && { repeats: g.repeats }),
  };
}

export const REPRODUCTION_GATE_METHOD =
  "the reproduction's job with the candidate in place of the release that behaves; pass when every expectation is met, fail when one that reads the candidate is not met while those about the affected releases are (the bug is back), inconclusive otherwise (the trigger did not show the bug this run, or a figure is missing)";

/**
 * The verdict of a reproduction gate from its job's cells. `failedCells`: each cell that did not
 * succeed; a candidate's cell that failed once running (a crash, a hang) is the bug's shape too, one that
 * `couldNotRun` (not installed, or without an option the reproduction sets) is no evidence either way.
 */
export function evaluateReproductionGate(
  r: Reproduction & { fixedVersion: string },
  g: { candidate: string; repeats?: number },
  cells: ExpectationCell[],
  job: { status: string; error?: string | null },
  failedCells: { version: string; error: string | null; couldNotRun: boolean }[] = [],
): GateEvaluation {
  const spec = parseJobSpec(reproductionGateJobSpec(r, g));
  if (!spec.ok)
    return {
      verdict: 'inconclusive',
      reasons: [`the reproduction makes an invalid job: ${spec.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`],
      metrics: [],
      errors: [],
      method: REPRODUCTION_GATE_METHOD,
    };
  const { outcomes } = evaluateExpectations(spec.value.expectations ?? [], cells);
  const onCandidate = outcomes.filter((o) => reads(o.expectation, g.candidate));
  const trigger = outcomes.filter((o) => !onCandidate.includes(o));
  const line = (o: ExpectationOutcome) => `${o.expectation.says ? `${o.expectation.says}: ` : ''}${o.text}`;
  const crashed = failedCells.some((c) => c.version === g.candidate && !c.couldNotRun);
  const missed = onCandidate.filter((o) => o.met === false || (o.met === null && crashed));
  const triggerShown = trigger.every((o) => o.met === true);
  let verdict: Verdict;
  let reasons: string[];
  if (missed.length && triggerShown) {
    verdict = 'fail';
    reasons = [`${r.id}: the bug is back in ${g.candidate}`, ...missed.map(line), ...trigger.map(line)];
  } else if (outcomes.every((o) => o.met === true)) {
    verdict = 'pass';
    reasons = [`${r.id}: ${g.candidate} behaves as ${r.fixedVersion} did`, ...outcomes.map(line)];
  } else {
    verdict = 'inconclusive';
    const unshown = trigger.filter((o) => o.met !== true);
    reasons = [
      unshown.length ? `${r.id}: the affected releases did not show the bug in this run, so the candidate's figures decide nothing` : `${r.id}: a figure the expectations need is missing`,
      ...outcomes.map(line),
    ];
  }
  for (const c of failedCells) reasons.push(`${c.version}: the cell failed${c.error ? `: ${c.error}` : ''}`);
  if (job.status !== 'succeeded') {
    reasons.push(`the gate's job ${job.status}${job.error ? `: ${job.error}` : ''}`);
    if (verdict === 'pass') verdict = 'inconclusive';
  }
  return { verdict, reasons, metrics: [], errors: [], method: REPRODUCTION_GATE_METHOD };
}
