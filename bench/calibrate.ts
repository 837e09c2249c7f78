// `npm run bench:calibrate -- --scenario <id> --language <l> --version <v> [--runs N] [--size-runs M]
// [--sizes 1,2,5,10] [--injection wait|busy] [--server URL]`: a gate scenario's calibration (issue 38). Runs the scenario's gate
// as A/A (the release on both arms) N times, and as A/B against candidate builds of the same release
// with a regression injected (a delay per operation of x% of the A/A baseline's p50, made by patching
// the release itself: @scb/languages slowedNodeBuild, slowedJavaBuild, slowedGoBuild, slowedPythonBuild) M times per size, through the queue of an
// embedded stack with uploads on (or --server URL, which must take uploads: SCB_ARTIFACTS=on). Stores
// the counts (POST /api/gate-calibrations) and appends their table to docs/findings/gate-calibration.md
// (--findings FILE, or - for none); `--adds-to <id>` counts its gates into a stored calibration (a top-up). A benchmark, not a test: one steady-select1 gate takes minutes here.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  addCalibration,
  additionProblem,
  calibrationMarkdown,
  DEFAULT_CALIBRATION_SIZES,
  INJECTIONS,
  parseGateCalibration,
  type CalibrationSize,
  type GateCalibration,
  type GateCalibrationInput,
  type Injection,
} from '@scb/shared/calibration';
import { GATE_SCENARIO_IDS, gateScenario, parseGateSpec } from '@scb/shared/gate';
import { SEMVER } from '@scb/shared/job';
import { STORED_ID } from '@scb/shared/stored';
import { median } from '@scb/shared/stats';
import { CliError, getJson, healthy, startEmbeddedStack, submitGate, uploadBuild, useToken, waitForVerdict, type GateCell, type StartedStack } from '../scripts/gate-client';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LANGUAGES_DONE = ['node', 'java', 'go', 'python'];
const CACHE_DIR = path.resolve(process.env.SCB_CACHE_DIR ?? path.join(ROOT, '.cache'));

const { values } = parseArgs({
  options: {
    scenario: { type: 'string' },
    language: { type: 'string' },
    version: { type: 'string' },
    runs: { type: 'string', default: '20' },
    'size-runs': { type: 'string' },
    /** Default: 1,2,5,10, or with --adds-to the sizes of the calibration it adds to. */
    sizes: { type: 'string' },
    server: { type: 'string' },
    /** Gate fields over the scenario's, as JSON (repeats, criteria, concurrency, workload, timeScale...): the CI form's shorter gates. */
    gate: { type: 'string' },
    findings: { type: 'string', default: path.join(ROOT, 'docs/findings/gate-calibration.md') },
    /** How the candidate builds spend their delay: wait (a timer or sleep; the default) or busy (the CPU kept busy that long, as a slower decoder). */
    injection: { type: 'string', default: 'wait' },
    /** Starts no new gate after this many minutes: the counts so far are stored (every size keeps at least what it has). */
    'budget-minutes': { type: 'string' },
    /** A stored calibration (its id) whose counts these gates add to: its baseline p50 sizes the delays, and what is stored counts both. */
    'adds-to': { type: 'string' },
  },
});
const say = (l: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);

function fail(field: string, why: string): never {
  throw new CliError(`--${field} ${why}`);
}

function options() {
  const scenario = values.scenario ?? fail('scenario', `is required: one of ${GATE_SCENARIO_IDS.join(', ')}`);
  if (!gateScenario(scenario)) fail('scenario', `must be one of ${GATE_SCENARIO_IDS.filter((s) => gateScenario(s)).join(', ')}, not "${scenario}"`);
  const language = values.language ?? fail('language', `is required (${LANGUAGES_DONE.join(', ')})`);
  if (!LANGUAGES_DONE.includes(language))
    fail('language', `must be ${LANGUAGES_DONE.slice(0, -1).join(', ')} or ${LANGUAGES_DONE.at(-1)}: candidate builds with an injected regression are made for those only, not "${language}"`);
  const version = values.version ?? fail('version', 'is required: the release to calibrate with, e.g. 9.0.0');
  if (!SEMVER.test(version)) fail('version', `must be a plain semver such as 9.0.0 (1.96.1 for Go), not "${version}"`);
  const count = (field: string, v: string, min: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > 1000) fail(field, `must be a whole number from ${min} to 1000, not "${v}"`);
    return n;
  };
  const runs = count('runs', values.runs!, values['adds-to'] === undefined ? 1 : 0);
  const sizeRuns = count('size-runs', values['size-runs'] ?? values.runs!, 0);
  if (runs + sizeRuns === 0) fail('runs', 'and --size-runs are both 0: no gate would run');
  const sizes = values.sizes?.split(',').map((s) => {
    const n = Number(s.trim());
    if (!(n > 0 && n <= 1000)) fail('sizes', `must be percentages above 0 and at most 1000, separated by commas, not "${values.sizes}"`);
    return n;
  });
  if (sizes && new Set(sizes).size !== sizes.length) fail('sizes', `names a size twice ("${values.sizes}")`);
  let overrides: Record<string, unknown> = {};
  if (values.gate !== undefined) {
    try {
      overrides = JSON.parse(values.gate) as Record<string, unknown>;
    } catch (e) {
      fail('gate', `is not valid JSON (${(e as Error).message})`);
    }
    if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) fail('gate', 'must be a JSON object of gate fields');
    for (const k of ['scenario', 'language', 'baseline', 'candidate', 'candidateArtifact', 'candidateLabel', 'name']) if (k in overrides) fail('gate', `may not set ${k}: the calibration sets it`);
  }
  const injection = INJECTIONS.find((i) => i === values.injection) ?? fail('injection', `must be ${INJECTIONS.join(' or ')}, not "${values.injection}"`);
  const budget = values['budget-minutes'] === undefined ? Number.POSITIVE_INFINITY : Number(values['budget-minutes']);
  if (!(budget > 0)) fail('budget-minutes', `must be a number of minutes above 0, not "${values['budget-minutes']}"`);
  const addsTo = values['adds-to'];
  if (addsTo !== undefined && !STORED_ID.test(addsTo)) fail('adds-to', `must be a stored calibration's id (lower-case letters and digits), not "${addsTo}"`);
  return { budgetMs: budget * 60_000, scenario, language, version, runs, sizeRuns, sizes: sizes && [...sizes].sort((a, b) => a - b), overrides, injection, addsTo };
}

/** A stored calibration as GET /api/gate-calibrations/<id> answers it, validated. */
async function storedCalibration(server: string, id: string): Promise<GateCalibration> {
  const body = await getJson<Record<string, unknown>>(new URL(`/api/gate-calibrations/${id}`, server)).catch((e: Error) => fail('adds-to', `${id}: ${e.message}`));
  const { id: storedId, createdAt, ...stored } = body;
  const parsed = parseGateCalibration(stored);
  if (!parsed.ok || storedId !== id || typeof createdAt !== 'string') fail('adds-to', `${id}: the server's answer is not a calibration`);
  return { ...parsed.value, id, createdAt };
}

/**
 * Why these gates cannot be added to `earlier`, known before any runs: what the server will make of the
 * gate fields (the shared gate parser: repeats, criteria, the judged operation) and this machine.
 */
function plannedProblem(earlier: GateCalibration, o: ReturnType<typeof options>): string | null {
  const gate = parseGateSpec({ scenario: o.scenario, language: o.language, baseline: o.version, candidate: o.version, ...o.overrides });
  if (!gate.ok) fail('gate', gate.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  const { repeats, criteria, operation } = gate.value;
  return additionProblem(earlier, {
    scenario: o.scenario as GateCalibration['scenario'],
    language: o.language as GateCalibration['language'],
    version: o.version,
    repeats,
    criteria,
    ...(operation && { operation }),
    injection: o.injection,
    machine: os.hostname(),
    cores: os.availableParallelism(),
    ...(Object.keys(o.overrides).length && { overrides: o.overrides }),
    sizes: [],
  });
}

/** The first gate that ran (an A/A one unless only A/B gates were asked for): what every gate's spec shares. */
function firstGate(aa: GateOutcome[], bySize: Map<number, { outcomes: GateOutcome[] }>): GateOutcome {
  const first = aa[0] ?? [...bySize.values()].flatMap((s) => s.outcomes)[0];
  if (!first) throw new CliError('no gate ran: nothing to store');
  return first;
}

/** The items at the lowest concurrency among them. */
function lowest<T extends { concurrency: number }>(xs: T[]): T[] {
  const c = Math.min(...xs.map((x) => x.concurrency));
  return xs.filter((x) => x.concurrency === c);
}

/** The gate as GET /api/gates/<id> answers it: what the calibration reads. */
interface GateAnswer {
  verdict: string;
  spec: { repeats: number; criteria: GateCalibrationInput['criteria']; operation?: GateCalibrationInput['operation'] };
  /** JSON has no NaN: an undefined change is null. */
  evaluation: { metrics: { metric: string; concurrency: number; changePct: number | null; baseline: number[] }[] } | null;
  reasons: string[];
}

interface GateOutcome {
  verdict: string;
  minutes: number;
  /** The median over the gate's concurrencies of the p50 change, in percent. */
  p50ChangePct: number;
  /** The baseline repeats' p50s at the gate's lowest concurrency, where the client is least loaded. */
  baselineP50s: number[];
  answer: GateAnswer;
}

function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}-dirty` : head;
  } catch {
    return 'unknown';
  }
}

/**
 * A delay on a grid of 5% steps (within 2.5% of the delay asked for: a +1% regression injects 0.975-1.025%):
 * calibrations on one machine then make the same few builds again, each an install in the client cache,
 * instead of a new one per run (90 MB for Node's, which filled the cache to its cap and so emptied Go's
 * module cache mid-run; at 2% steps the baseline's p50 still moved the delay to a new step in each of six
 * runs).
 */
function onGrid(ms: number): number {
  return Number((1.05 ** Math.round(Math.log(ms) / Math.log(1.05))).toPrecision(4));
}

/**
 * How to make the release with a delay per query, from the release itself: Node's published tarball
 * (npm pack), Go's module zip as the proxy serves it (installing the release puts it in the cache),
 * Python's wheel as PyPI serves it (pip download), Java's jar as Maven resolved it (a fragment).
 */
async function slowedBuilds(language: string, version: string, injection: Injection): Promise<(delayMs: number) => { bytes: Buffer } | Promise<{ bytes: Buffer }>> {
  // Loaded once the options are known to be good: a refusal answers at once.
  const { prepareDriver, publishedNodeTarball, publishedPythonWheel, slowedGoBuild, slowedJavaBuild, slowedNodeBuild, slowedPythonBuild } = await import('@scb/languages');
  if (language === 'node') {
    const published = await publishedNodeTarball(version);
    return (delayMs) => slowedNodeBuild(published, delayMs, injection);
  }
  if (language === 'python') {
    const published = await publishedPythonWheel(version);
    return (delayMs) => slowedPythonBuild(published, delayMs, injection);
  }
  if (language === 'java') {
    // The release's jars in the local Maven repository, as a cell of it resolves them.
    await prepareDriver({ language: 'java', version }, { cacheDir: CACHE_DIR, log: say });
    return (delayMs) => slowedJavaBuild(version, delayMs, CACHE_DIR, injection);
  }
  await prepareDriver({ language: 'go', version }, { cacheDir: CACHE_DIR, log: say });
  const zip = readFileSync(path.join(CACHE_DIR, 'go/mod/cache/download/cloud.google.com/go/spanner/@v', `v${version}.zip`));
  return (delayMs) => slowedGoBuild(zip, delayMs, injection);
}

async function main(): Promise<void> {
  const o = options();
  useToken(process.env.SCB_TOKEN);
  let stack: StartedStack | undefined;
  let base = values.server;
  if (base) {
    if (!(await healthy(base))) throw new CliError(`--server ${base}: nothing answers`);
  } else {
    const { freePort } = await import('../test/helpers/postgres');
    // The user's data folder (SCB_DATA_DIR or .data), so the calibration lands where their gates are.
    const env: NodeJS.ProcessEnv = { ...process.env, SCB_ARTIFACTS: 'on', PORT: process.env.PORT ?? String(await freePort()), SCB_PG_PORT: process.env.SCB_PG_PORT ?? String(await freePort()) };
    stack = await startEmbeddedStack(env);
    base = stack.base;
    say(`embedded stack at ${base}`);
  }
  try {
    await calibrate(o, base);
  } finally {
    await stack?.stop();
  }
}

async function calibrate(o: ReturnType<typeof options>, server: string): Promise<void> {
  const earlier = o.addsTo === undefined ? undefined : await storedCalibration(server, o.addsTo);
  const problem = earlier && plannedProblem(earlier, o);
  if (earlier && problem) fail('adds-to', `names calibration ${earlier.id}, whose gates are not these: ${problem}; only the same gates' counts add up`);
  const sizesAsked = o.sizes ?? (earlier ? earlier.sizes.map((s) => s.pct) : [...DEFAULT_CALIBRATION_SIZES]);
  const started = Date.now();
  // The commit measured, as it is when the gates start.
  const commit = commitOf();
  const slowed = await slowedBuilds(o.language, o.version, o.injection);

  async function oneGate(kind: string, candidate: { candidate: string } | { candidateArtifact: string; candidateLabel: string }): Promise<GateOutcome> {
    const t0 = Date.now();
    const created = await submitGate(server, {
      name: `calibration ${kind}: ${o.language} ${o.version} on ${o.scenario}`,
      scenario: o.scenario,
      language: o.language,
      baseline: o.version,
      ...candidate,
      ...o.overrides,
    });
    const cells: GateCell[] = [];
    const { verdict } = await waitForVerdict(server, created, { timeoutMs: 120 * 60_000, onCell: (c) => cells.push(c) });
    const answer = await getJson<GateAnswer>(new URL(`/api/gates/${created.id}`, server));
    const p50 = answer.evaluation?.metrics.filter((m) => m.metric === 'p50Ms') ?? [];
    // The p50 change of every cell with a result, harness-bound ones too (the gate may leave those out),
    // at the lowest concurrency (where the delay was sized): the candidates' median over the baselines'.
    const ran = cells.filter((c) => c.result);
    const atLowest = lowest(ran);
    const arm = (a: string) => atLowest.filter((c) => c.arm === a).map((c) => c.result!.p50Ms);
    const [b, c] = [arm('baseline'), arm('candidate')];
    const changes = b.length && c.length ? [(median(c) / median(b) - 1) * 100] : [];
    const outcome = {
      verdict,
      minutes: (Date.now() - t0) / 60_000,
      p50ChangePct: changes.length ? median(changes) : Number.NaN,
      // The judged repeats' p50s; where the gate left every cell out (harness-bound), the baseline cells' own.
      baselineP50s: lowest(p50).some((m) => m.baseline.length) ? lowest(p50).flatMap((m) => m.baseline) : lowest(ran.filter((c) => c.arm === 'baseline')).map((c) => c.result!.p50Ms),
      answer,
    };
    const judged = p50.map((m) => `C=${m.concurrency} ${m.changePct === null ? '–' : `${m.changePct >= 0 ? '+' : ''}${m.changePct.toFixed(1)}%`}`).join(', ');
    say(
      `${kind}: ${verdict.toUpperCase()} in ${outcome.minutes.toFixed(1)} min; p50 change judged ${judged}, of every cell at C=${atLowest[0]?.concurrency} ${changes.map((x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`).join(', ')} (${created.url})`,
    );
    if (verdict !== 'pass') for (const r of answer.reasons) say(`    ${r}`);
    return outcome;
  }

  const aa: GateOutcome[] = [];
  const bySize = new Map<number, { delayMs: number; label: string; artifact: string; outcomes: GateOutcome[] }>();
  // The first A/A gate measures the baseline p50 that sizes every injected delay; gates added to a
  // stored calibration keep its sizing (the same builds), so that their counts add up.
  if (o.runs > 0 && !earlier) aa.push(await oneGate('A/A 1', { candidate: o.version }));
  const baselineP50 = earlier?.baselineP50Ms ?? median(aa[0]!.baselineP50s);
  if (!(baselineP50 > 0)) throw new CliError(`the first A/A gate measured no baseline p50 (verdict ${aa[0]!.verdict}: ${aa[0]!.answer.reasons.join('; ')})`);
  const delayOf = (pct: number) => earlier?.sizes.find((s) => s.pct === pct)?.delayMs ?? onGrid((baselineP50 * pct) / 100);
  say(`baseline p50 ${baselineP50.toFixed(2)} ms${earlier ? ` (calibration ${earlier.id}'s)` : ''}: delays ${sizesAsked.map((s) => `+${s}% = ${delayOf(s)} ms`).join(', ')}`);
  if (o.sizeRuns > 0)
    for (const pct of sizesAsked) {
      const delayMs = delayOf(pct);
      const build = await slowed(delayMs);
      const label = `${o.version} +${pct}% (${delayMs} ms ${o.injection === 'busy' ? 'of CPU ' : ''}per query)`;
      const uploaded = await uploadBuild(server, build.bytes, o.language, label);
      bySize.set(pct, { delayMs, label, artifact: uploaded.id, outcomes: [] });
      say(`build ${uploaded.id.slice(0, 19)}: ${label}`);
    }
  // Interleaved rounds: an A/A gate and one gate per size each, so a slow spell of the shared machine falls on all alike.
  const unfinished = () => aa.length < o.runs || [...bySize.values()].some((s) => s.outcomes.length < o.sizeRuns);
  const inBudget = () => {
    const ok = Date.now() - started < o.budgetMs;
    if (!ok) say(`--budget-minutes ${values['budget-minutes']} spent: no more gates`);
    return ok;
  };
  rounds: while (unfinished()) {
    if (aa.length < o.runs) {
      if (!inBudget()) break;
      aa.push(await oneGate(`A/A ${aa.length + 1}`, { candidate: o.version }));
    }
    for (const [pct, s] of bySize)
      if (s.outcomes.length < o.sizeRuns) {
        if (!inBudget()) break rounds;
        s.outcomes.push(await oneGate(`A/B +${pct}% ${s.outcomes.length + 1}`, { candidateArtifact: s.artifact, candidateLabel: s.label }));
      }
  }

  const first = firstGate(aa, bySize).answer.spec;
  const sizes: CalibrationSize[] = [...bySize].map(([pct, s]) => ({
    pct,
    delayMs: s.delayMs,
    runs: s.outcomes.length,
    detections: s.outcomes.filter((x) => x.verdict === 'fail').length,
    inconclusive: s.outcomes.filter((x) => x.verdict === 'inconclusive').length,
    p50ChangesPct: s.outcomes.map((x) => x.p50ChangePct).filter(Number.isFinite),
  }));
  const all = [...aa, ...[...bySize.values()].flatMap((s) => s.outcomes)];
  const measured = {
    scenario: o.scenario,
    language: o.language,
    version: o.version,
    machine: os.hostname(),
    cores: os.availableParallelism(),
    commit,
    repeats: first.repeats,
    criteria: first.criteria,
    ...(first.operation && { operation: first.operation }),
    baselineP50Ms: baselineP50,
    aaRuns: aa.length,
    aaFalseAlarms: aa.filter((x) => x.verdict === 'fail').length,
    aaInconclusive: aa.filter((x) => x.verdict === 'inconclusive').length,
    aaP50ChangesPct: aa.map((x) => x.p50ChangePct).filter(Number.isFinite),
    sizes,
    gateMinutes: median(all.map((x) => x.minutes)),
    injection: o.injection,
    command: `npm run bench:calibrate -- ${process.argv.slice(2).join(' ')}`,
    ...(Object.keys(o.overrides).length && { overrides: o.overrides }),
  };
  let parsed = parseGateCalibration(measured);
  if (!parsed.ok) throw new CliError(`the calibration does not validate: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  if (earlier) {
    const problem = additionProblem(earlier, parsed.value);
    if (problem) throw new CliError(`--adds-to ${earlier.id}: ${problem}; these gates' counts are not added (the gates are on the server)`);
    parsed = parseGateCalibration(addCalibration(earlier, parsed.value));
    if (!parsed.ok) throw new CliError(`the added calibration does not validate: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
  const saved = path.join(os.tmpdir(), `scb-calibration-${o.scenario}-${o.language}-${Date.now()}.json`);
  writeFileSync(saved, JSON.stringify(parsed.value, null, 2));
  const res = await fetch(new URL('/api/gate-calibrations', server), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(process.env.SCB_TOKEN && { authorization: `Bearer ${process.env.SCB_TOKEN}` }) },
    body: JSON.stringify(parsed.value),
  });
  const body = (await res.json().catch(() => ({}))) as { id?: string; createdAt?: string; error?: string };
  if (!res.ok || !body.id) throw new CliError(`the server did not store the calibration (HTTP ${res.status} ${body.error ?? ''}); it is in ${saved}`);
  say(`stored calibration ${body.id} (also in ${saved})`);
  const table = calibrationMarkdown({ ...parsed.value, id: body.id, createdAt: body.createdAt ?? new Date().toISOString() });
  process.stdout.write(`\n${table}\n`);
  if (values.findings !== '-') {
    const file = path.resolve(values.findings!);
    const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Gate calibration\n';
    const head = before.includes('\n## Calibration\n') ? '' : '\n## Calibration\n';
    writeFileSync(file, `${before.trimEnd()}\n${head}\n${table}\n`);
    say(`appended to ${path.relative(process.cwd(), file)}`);
    // Aligned by the repository's formatter, as npm test's lint wants every Markdown file of it.
    const biome = path.join(ROOT, 'node_modules', '@biomejs', `cli-${process.platform}-${process.arch}`, 'biome');
    if (file.startsWith(`${ROOT}${path.sep}`) && existsSync(biome)) {
      try {
        execFileSync(biome, ['format', '--write', file], { stdio: 'ignore' });
      } catch {
        say(`${path.relative(process.cwd(), file)} is not formatted: npm run format formats it`);
      }
    }
  }
}

main().catch((e) => {
  console.error(`bench:calibrate: ${e instanceof CliError ? e.message : (e as Error).stack}`);
  process.exit(2);
});
