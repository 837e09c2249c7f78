// `npm run bench:gate`: how often a release gate says what it should. Runs, alternately, an A/B gate
// that should fail (java 6.104.0 -> 6.105.0 on affinity-burst) and an A/A gate that should pass
// (6.104.0 -> 6.104.0), N times each, through the queue of an embedded stack (or --server URL), and
// prints every verdict, the tally against the goal (the right verdict in at least 4 of 5) and the
// time one gate takes. A benchmark, not a test: at the scenario's 27 repeats a side a gate took 21-25
// minutes on a busy machine (findings/gate-calibration.md; about 14 expected on a quiet one, at ~15 s a
// cell), so the defaults (5 runs of two gates) take hours; --runs 1 or --repeats N for less.
import { median } from '@scb/shared/stats';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CliError, healthy, startEmbeddedStack, submitGate, waitForVerdict, type GateCell, type StartedStack } from '../scripts/gate-client';
import { freePort } from '../test/helpers/postgres';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    client: { type: 'string', default: 'java' },
    baseline: { type: 'string', default: '6.104.0' },
    candidate: { type: 'string', default: '6.105.0' },
    scenario: { type: 'string', default: 'affinity-burst' },
    repeats: { type: 'string' },
    server: { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench:gate: --runs must be a whole number of at least 1, not "${values.runs}"`);
  process.exit(2);
}
const say = (l: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);

interface Outcome {
  kind: 'A/B' | 'A/A';
  expected: 'fail' | 'pass';
  verdict: string;
  minutes: number;
  reasons: string[];
  /** Per candidate repeat: qps and the hottest connection (share of RPCs, peak in flight). */
  candidateCells: string[];
}

async function oneGate(base: string, kind: Outcome['kind']): Promise<Outcome> {
  const candidate = kind === 'A/B' ? values.candidate! : values.baseline!;
  const spec = {
    name: `trust ${kind}: ${values.client} ${candidate} vs ${values.baseline}`,
    scenario: values.scenario,
    language: values.client,
    baseline: values.baseline,
    candidate,
    ...(values.repeats ? { repeats: Number(values.repeats) } : {}),
  };
  const t0 = Date.now();
  const created = await submitGate(base, spec);
  say(`${kind} gate ${created.id} (${created.url})`);
  const cells: GateCell[] = [];
  const { verdict } = await waitForVerdict(base, created, { timeoutMs: 60 * 60_000, onCell: (c) => cells.push(c) });
  const gate = (await (await fetch(new URL(`/api/gates/${created.id}`, base))).json()) as { reasons: string[] };
  const show = (c: GateCell) =>
    c.result ? `${c.result.qps.toFixed(0)} qps p99 ${c.result.p99Ms.toFixed(0)} (${Math.round(c.channelSummary.hottestShare * 100)}%, ${c.channelSummary.hottestPeakInFlight})` : c.status;
  return {
    kind,
    expected: kind === 'A/B' ? 'fail' : 'pass',
    verdict,
    minutes: (Date.now() - t0) / 60_000,
    reasons: gate.reasons,
    candidateCells: cells.filter((c) => c.arm === 'candidate').map(show),
  };
}

async function main(): Promise<void> {
  let stack: StartedStack | undefined;
  let dataDir: string | undefined;
  let base = values.server;
  if (base) {
    if (!(await healthy(base))) throw new CliError(`--server ${base}: nothing answers`);
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'scb-gate-bench-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), SCB_PG_PORT: String(await freePort()), SCB_DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    stack = await startEmbeddedStack(env);
    base = stack.base;
    say(`embedded stack at ${base}`);
  }
  const outcomes: Outcome[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      for (const kind of ['A/B', 'A/A'] as const) {
        const o = await oneGate(base, kind);
        outcomes.push(o);
        say(`${kind} run ${i + 1}: ${o.verdict.toUpperCase()} (expected ${o.expected}) in ${o.minutes.toFixed(1)} min`);
        for (const r of o.reasons) say(`    ${r}`);
        say(`    candidate repeats: ${o.candidateCells.join(' · ')}`);
      }
    }
  } finally {
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }

  const minutes = outcomes.map((o) => o.minutes).sort((a, b) => a - b);
  console.log(`\nRelease gate trustworthiness: ${values.client} ${values.baseline} vs ${values.candidate} on ${values.scenario}, ${values.repeats ?? "the scenario's"} repeats per arm`);
  console.log('| gate | expected | verdicts | right |');
  console.log('|---|---|---|---|');
  for (const kind of ['A/B', 'A/A'] as const) {
    const mine = outcomes.filter((o) => o.kind === kind);
    const right = mine.filter((o) => o.verdict === o.expected).length;
    const label = kind === 'A/B' ? `${values.baseline} -> ${values.candidate}` : `${values.baseline} -> ${values.baseline}`;
    console.log(
      `| ${kind} ${label} | ${mine[0]?.expected} | ${mine.map((o) => o.verdict).join(', ')} | ${right} of ${mine.length} ${right >= Math.ceil(0.8 * mine.length) ? '(goal met)' : '(goal: 4 of 5, not met)'} |`,
    );
  }
  console.log(`One gate took ${median(minutes).toFixed(1)} min (median; ${minutes[0].toFixed(1)}–${minutes[minutes.length - 1].toFixed(1)}).`);
}

main().catch((e) => {
  console.error(`bench:gate: ${(e as Error).message}`);
  process.exit(2);
});
