import {
  judgesP99,
  ARMS,
  CellOperationsSchema,
  CellTimelineSchema,
  ConfigurationSchema,
  evaluateGate,
  evaluateReproductionGate,
  gateReproduction,
  gateJobSpec,
  gateScenario,
  candidateText,
  MIN_GATE_REPEATS,
  invalidText,
  isUnfinishedJob,
  judgeCell,
  judgeCellWithCeiling,
  judgeUnfinished,
  levelText,
  parseJobSpec,
  scanFigures,
  verdictReasons,
  type Arm,
  type CellVerdict,
  type ExpectationCell,
  type GateEvaluation,
  type GateSample,
  type GateSpec,
  type Verdict,
} from '@scb/shared';
import { clientExtras, findPendingGateJobIds, getGateToEvaluate, knownClientVersions, storeGateVerdict, type Db, type GateCell, type GateToEvaluate } from '@scb/db';

/**
 * Judges the gate a finished job belongs to, from its succeeded cells, and stores the verdict.
 * Failed cells and an unfinished job are reasons too: a gate never passes on fewer repeats silently.
 */
export async function evaluateGateOfJob(db: Db, jobId: string, log: (line: string) => void): Promise<void> {
  const gate = await getGateToEvaluate(db, jobId);
  if (!gate || gate.verdict !== null) return;
  if (isUnfinishedJob(gate.job.status)) return;
  const spec = gate.spec;
  if (!spec.ok) {
    await storeGateVerdict(db, gate.id, { verdict: 'inconclusive', reasons: [invalidText('stored gate', spec.issues)], metrics: [], errors: [], method: '' });
    return;
  }
  const repro = gateReproduction(spec.value.scenario);
  if (repro) {
    await storeGateVerdict(db, gate.id, await reproductionVerdict(db, repro, spec.value, gate));
    log(`gate ${gate.id} (job ${jobId}, reproduction ${repro.id}): done`);
    return;
  }
  const judgement = judgeGate({ ...gate, spec: spec.value });
  await storeGateVerdict(db, gate.id, judgement);
  log(`gate ${gate.id} (job ${jobId}): ${judgement.verdict}`);
}

/**
 * A finished gate's verdict from its cells, under its own criteria or others (`criteria`: a calibration
 * re-judging stored gates under the criteria it weighs, bench/rejudge.ts). Reads nothing, stores nothing.
 */
export function judgeGate(gate: Omit<GateToEvaluate, 'spec'> & { spec: GateSpec }, criteria: GateSpec['criteria'] = gate.spec.criteria): GateEvaluation {
  const job = gate.job;
  const spec = { ok: true as const, value: { ...gate.spec, criteria } };
  const cells = gate.cells.flatMap((c) => (isArm(c.arm) ? [{ ...c, arm: c.arm }] : []));
  const jobSpec = parseJobSpec(gateJobSpec(spec.value));
  /** The cell's verdict as its job page shows it: with its ceiling where the job's spec parses. */
  const verdictOf = (c: GateCell, r: NonNullable<GateCell['result']>): CellVerdict => {
    if (!jobSpec.ok) return judgeCell(r, gate.cores);
    const configuration = ConfigurationSchema.safeParse(c.config);
    const operations = CellOperationsSchema.safeParse(r.operations);
    const timeline = CellTimelineSchema.safeParse(r.timeline);
    return judgeCellWithCeiling(
      jobSpec.value,
      { concurrency: c.concurrency, client: { language: c.clientLanguage }, configuration: configuration.success ? configuration.data : {}, channels: c.channels },
      { ...r, operations: operations.success ? operations.data : null, timeline: timeline.success ? timeline.data : null },
      gate.cores,
    ).verdict;
  };
  const judged = cells.flatMap((c) => (c.status === 'succeeded' && c.result ? [{ cell: c, verdict: verdictOf(c, c.result) }] : []));
  const bound = (kind: CellVerdict['kind'], keep: (v: CellVerdict) => boolean = () => true) =>
    judged.filter((j) => j.verdict.kind === kind && keep(j.verdict)).map((j) => ({ cell: j.cell, reasons: verdictReasons(j.verdict) }));
  // A harness-bound cell measured the fake or the machine, not the client: it is no evidence either way;
  // unless the fake's added time was past its share at p99 alone, when only its p99 is not the client's.
  const harnessBound = bound('harness-bound', (v) => !p99Only(v));
  const p99Bound = bound('harness-bound', p99Only);
  // A configuration-bound one measured the client as configured: evidence like a clean one, and said.
  const configurationBound = bound('configuration-bound');
  // The figures judged: the gate's operation kind, or the cell's total.
  const kind = spec.value.operation;
  const figuresOf = (r: NonNullable<(typeof cells)[number]['result']>) => {
    if (!kind) return r;
    const ops = CellOperationsSchema.safeParse(r.operations);
    return ops.success ? ops.data?.[kind] : undefined;
  };
  // A scan's figures of the cell (result-set/figures.ts), from the gate job's result set.
  const shape = jobSpec.ok ? jobSpec.value.workload.resultSet : undefined;
  const scanOf = (r: NonNullable<GateCell['result']>): Pick<GateSample, 'rowsPerSecond' | 'cpuMsPer1kRows' | 'firstRowP50Ms'> => {
    const ops = CellOperationsSchema.safeParse(r.operations);
    const f = shape && ops.success ? scanFigures(shape.rows, { ...r, operations: ops.data }) : null;
    return { ...(f && { rowsPerSecond: f.rowsPerSecond, cpuMsPer1kRows: f.cpuMsPer1kRows }), ...(r.firstRowP50Ms !== null && { firstRowP50Ms: r.firstRowP50Ms }) };
  };
  const withoutKind: typeof cells = [];
  // A scenario with a bimodal outcome classifies each repeat from its cell's connections.
  const mode = gateScenario(spec.value.scenario)?.mode;
  const samples: GateSample[] = cells.flatMap((c) => {
    const r = c.result;
    if (c.status !== 'succeeded' || !r || harnessBound.some((h) => h.cell === c)) return [];
    const tailLeftOut = p99Bound.some((h) => h.cell === c);
    const f = figuresOf(r);
    if (!f) {
      withoutKind.push(c);
      return [];
    }
    const calls = f.count + f.errorCount;
    const bad = mode?.classify(c) ?? null;
    return [
      {
        arm: c.arm,
        concurrency: c.concurrency,
        repeat: c.repeat,
        qps: f.qps,
        p50Ms: f.p50Ms,
        // Not a value: evaluateGate judges p99 on the other repeats.
        p99Ms: tailLeftOut ? Number.NaN : f.p99Ms,
        ...scanOf(r),
        errorPct: calls ? (100 * f.errorCount) / calls : 0,
        ...(bad !== null && { bad }),
      },
    ];
  });
  const concurrency = [...new Set(cells.map((c) => c.concurrency))];
  const levelOf = (level: number) => (jobSpec.ok ? levelText(jobSpec.value, level) : `C=${level}`);
  const evaluation = evaluateGate(samples, {
    criteria: { ...spec.value.criteria, worstRepeat: spec.value.criteria.worstRepeat ?? false },
    concurrency,
    levelText: levelOf,
    ...(mode && { mode, names: { baseline: spec.value.baseline, candidate: candidateText(spec.value) } }),
  });

  // Cells that did not finish: a crash in some candidate cold starts is a regression, not noise.
  const unfinished = (arm: Arm) => cells.filter((c) => c.arm === arm && c.status !== 'succeeded');
  const [base, cand] = [unfinished('baseline'), unfinished('candidate')];
  const candidateCells = cells.filter((c) => c.arm === 'candidate').length;
  const notes: string[] = [];
  let verdict: Verdict = evaluation.verdict;
  const first = (cs: typeof cells) => `${cs[0].arm} ${cs[0].clientVersion} ${levelOf(cs[0].concurrency)} repeat ${cs[0].repeat}: ${cs[0].error ?? cs[0].status}`;
  if (base.length || cand.length) {
    // Compared as counts: a candidate whose cells fail more often than chance allows fails the gate (unless
    // none finished: nothing then measured it); fewer, and the gate cannot pass either (below).
    const unfinishedTest = judgeUnfinished({ bad: base.length, of: cells.length - candidateCells }, { bad: cand.length, of: candidateCells }, (1 - criteria.confidence) / 2);
    const note = `${unfinishedTest.reason} (first: ${first(unfinishedTest.fail ? cand : [...base, ...cand].sort((a, b) => a.index - b.index))})`;
    if (job.status === 'succeeded' && unfinishedTest.fail && cand.length < candidateCells) {
      verdict = 'fail';
      notes.unshift(note);
    } else notes.push(note);
  }
  if (job.status !== 'succeeded') notes.push(`the gate's job ${job.status}${job.error ? `: ${job.error}` : ''}`);
  // Cells left out (harness-bound, or without the judged kind's figures): the gate is judged on the
  // remaining repeats where each arm keeps at least MIN_GATE_REPEATS at every level, else it cannot pass.
  const remaining = leftOutRule(samples, concurrency, levelOf);
  const judgedOn = remaining.enough
    ? `judged on the remaining repeats (at least ${remaining.fewest} per arm and level)`
    : `too few repeats remain to judge (${remaining.short}; at least ${MIN_GATE_REPEATS} each needed)`;
  if (harnessBound.length) {
    const h = harnessBound[0]!;
    notes.push(
      `${harnessBound.length} of ${cells.length} cells were harness-bound and left out (first: ${h.cell.arm} ${h.cell.clientVersion} ${levelOf(h.cell.concurrency)} repeat ${h.cell.repeat}: ${h.reasons}); ${judgedOn}`,
    );
  }
  if (p99Bound.length) {
    const h = p99Bound[0]!;
    // A gate that judges no p99 (result-set-decode's) loses nothing by them.
    notes.push(
      `${p99Bound.length} of ${cells.length} cells were harness-bound at p99 only${judgesP99(criteria) ? ' and left out of p99' : ', which this gate does not judge'}, their other figures judged (first: ${h.cell.arm} ${h.cell.clientVersion} ${levelOf(h.cell.concurrency)} repeat ${h.cell.repeat}: ${h.reasons})`,
    );
  }
  if (withoutKind.length) notes.push(`${withoutKind.length} of ${cells.length} cells stored no ${kind} figures and were left out; ${judgedOn}`);
  if (configurationBound.length) {
    const h = configurationBound[0]!;
    notes.push(
      `${configurationBound.length} of ${cells.length} cells were configuration-bound and count like clean ones (first: ${h.cell.arm} ${h.cell.clientVersion} ${levelOf(h.cell.concurrency)} repeat ${h.cell.repeat}: ${h.reasons})`,
    );
  }
  // Cells that did not finish, or a job that did not, may still fail on what was measured, but never
  // pass; cells left out as no evidence (harness-bound) only where too few repeats remain.
  if (verdict === 'pass' && (base.length || cand.length || !remaining.enough || job.status !== 'succeeded')) verdict = 'inconclusive';
  const reasons = verdict === 'fail' && evaluation.verdict !== 'fail' ? notes : [...evaluation.reasons, ...notes];
  return { ...evaluation, verdict, reasons, ...(evaluation.persisting !== undefined && { persisting: verdict === 'pass' && evaluation.persisting }) };
}

/** The fake's added time past its share of the client's p99, and nothing else of the harness: the cell's p99 is the fake's, its other figures the client's. */
const TAIL_LIMITS: ReadonlySet<string> = new Set(['targetAddedP99Share', 'targetWireP99Share']);
function p99Only(v: CellVerdict): boolean {
  const harness = v.limits.filter((l) => l.process !== 'driver');
  return harness.length > 0 && harness.every((l) => TAIL_LIMITS.has(l.name));
}

/**
 * Whether every arm keeps at least MIN_GATE_REPEATS judged repeats at every level of the gate, after
 * cells were left out; the fewest it keeps, and where it has too few, in words.
 */
export function leftOutRule(
  samples: Pick<GateSample, 'arm' | 'concurrency'>[],
  levels: number[],
  text: (level: number) => string = (l) => `C=${l}`,
): { enough: boolean; fewest: number; short: string } {
  let fewest = Number.POSITIVE_INFINITY;
  const short: string[] = [];
  for (const level of levels)
    for (const arm of ARMS) {
      const n = samples.filter((s) => s.arm === arm && s.concurrency === level).length;
      fewest = Math.min(fewest, n);
      if (n < MIN_GATE_REPEATS) short.push(`${n} ${arm} at ${text(level)}`);
    }
  return { enough: short.length === 0, fewest: Number.isFinite(fewest) ? fewest : 0, short: short.join(', ') };
}

/** A reproduction gate: its expectations on the stored cells, as the job page evaluates them. */
async function reproductionVerdict(db: Db, repro: NonNullable<ReturnType<typeof gateReproduction>>, spec: Parameters<typeof evaluateReproductionGate>[1], gate: GateToEvaluate) {
  const installs = await knownClientVersions(db, repro.language);
  const cells: ExpectationCell[] = gate.cells.map((c) => {
    const configuration = ConfigurationSchema.safeParse(c.config);
    const operations = CellOperationsSchema.safeParse(c.result?.operations);
    return {
      client: { language: c.clientLanguage, version: c.clientVersion, grpcVersion: c.clientGrpcVersion, ...clientExtras(c) },
      configuration: { label: configuration.success ? configuration.data.label : '' },
      concurrency: c.concurrency,
      status: c.status,
      result: c.result,
      operations: operations.success ? operations.data : null,
      channels: c.channels,
      error: c.error,
    };
  });
  const failed = gate.cells
    .filter((c) => c.status !== 'succeeded')
    .map((c) => ({ version: c.clientVersion, error: c.error, couldNotRun: installs.get(c.clientVersion)?.ok === false || UNSUPPORTED_OPTION.test(c.error ?? '') }));
  return evaluateReproductionGate(repro, spec, cells, gate.job, failed);
}

/** How every driver says a version lacks an option ("option X is not supported by go 1.97.0"). */
const UNSUPPORTED_OPTION = /\boption \S+ is not supported by /;

const isArm = (a: string | null): a is Arm => (ARMS as readonly (string | null)[]).includes(a);

/** Gates whose job has ended without a verdict (the runner stopped in between): judge them now. */
export async function evaluatePendingGates(db: Db, log: (line: string) => void): Promise<void> {
  for (const jobId of await findPendingGateJobIds(db)) await evaluateGateOfJob(db, jobId, log).catch((e) => log(`gate of job ${jobId}: evaluation failed: ${(e as Error).message}`));
}
