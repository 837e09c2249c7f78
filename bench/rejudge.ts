// `npm run bench:rejudge -- --scenario steady-select1 [--language java] [--since 2026-11-27T17:00]
// --criteria '{}' --criteria '{"p50RisePct":2}' ...`: the stored calibration gates (bench:calibrate's, known
// by their names) judged again from their cells under other criteria, to weigh a scenario's limits
// without running a gate: a gate's verdict is a function of its cells and its criteria (the bootstrap is
// seeded by the values; which cells are harness-bound does not depend on the criteria), so a stored A/A
// gate re-judged under criteria X gives exactly the verdict a gate with X would have stored on those cells.
// Each --criteria is a gate spec's `criteria` field, parsed with the gate's scenario: '{}' is the
// scenario's defaults as the code has them now. Prints, per language and release, each criteria set's
// A/A false alarms and inconclusive gates and each injected size's detections. Criteria chosen on these
// gates are then checked on fresh ones (bench:calibrate): a limit picked on the same runs it is reported
// on would flatter itself. Reads the data folder's database (DATABASE_URL, else the embedded cluster of
// SCB_DATA_DIR or .data, which no running stack may hold); changes nothing.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createDb, getGateToEvaluate, type Db } from '@scb/db';
import { startEmbeddedPostgres, type EmbeddedDb } from '@scb/db/setup';
import { GATE_SCENARIO_IDS, gateScenario, parseGateSpec, type GateSpec } from '@scb/shared/gate';
import { falseAlarmRate, detectionRate, intervalText } from '@scb/shared/calibration';
import { judgeGate } from '../apps/runner/src/gate';
import { freePort } from '../apps/runner/src/net';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    scenario: { type: 'string' },
    language: { type: 'string' },
    since: { type: 'string' },
    criteria: { type: 'string', multiple: true, default: ['{}'] },
    /** Also print each A/A gate's reasons where a criteria set did not pass it. */
    reasons: { type: 'boolean', default: false },
  },
});

class UsageError extends Error {}
const fail = (field: string, why: string): never => {
  throw new UsageError(`--${field} ${why}`);
};

/** The kind of a calibration gate, from the name bench:calibrate gives it: A/A, or A/B of a size. */
function kindOf(name: string | undefined): { aa: true } | { aa: false; pct: number } | null {
  const m = /^calibration (A\/A|A\/B \+([\d.]+)%) \d+:/.exec(name ?? '');
  if (!m) return null;
  return m[2] === undefined ? { aa: true } : { aa: false, pct: Number(m[2]) };
}

interface Tally {
  runs: number;
  fail: number;
  inconclusive: number;
}
const tally = (): Tally => ({ runs: 0, fail: 0, inconclusive: 0 });

async function database(): Promise<{ db: Db; stop: () => Promise<void> }> {
  let embedded: EmbeddedDb | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    const dataDir = path.resolve(process.env.SCB_DATA_DIR ?? path.join(ROOT, '.data'));
    embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: await freePort() });
    url = embedded.url;
  }
  const db = createDb(url);
  return {
    db,
    async stop() {
      await db.$disconnect();
      await embedded?.stop();
    },
  };
}

async function main(): Promise<void> {
  const scenario = values.scenario ?? fail('scenario', 'is required');
  if (!gateScenario(scenario)) fail('scenario', `must be one of ${GATE_SCENARIO_IDS.filter((s) => gateScenario(s)).join(', ')}, not "${scenario}"`);
  const since = values.since === undefined ? new Date(0) : new Date(values.since);
  if (Number.isNaN(since.getTime())) fail('since', `must be a date such as 2026-11-27T17:00, not "${values.since}"`);
  const sets = values.criteria!.map((text) => {
    try {
      return { text, criteria: JSON.parse(text) as unknown };
    } catch (e) {
      return fail('criteria', `is not valid JSON (${(e as Error).message}): ${text}`);
    }
  });
  const { db, stop } = await database();
  try {
    const stored = await db.gate.findMany({ where: { createdAt: { gte: since }, verdict: { not: null } }, orderBy: { createdAt: 'asc' }, select: { jobId: true, spec: true, verdict: true } });
    // Per language and release: per criteria set, the A/A tally and one per size.
    const groups = new Map<string, { aa: Tally; sizes: Map<number, Tally> }[]>();
    let mismatches = 0;
    let judged = 0;
    for (const g of stored) {
      const spec = parseGateSpec(g.spec);
      if (!spec.ok || spec.value.scenario !== scenario || (values.language && spec.value.language !== values.language)) continue;
      const kind = kindOf(spec.value.name);
      if (!kind) continue;
      const gate = await getGateToEvaluate(db, g.jobId);
      // A gate whose calibration was stopped (its job cancelled) is no run of it.
      if (!gate || gate.job.status === 'cancelled') continue;
      const own = judgeGate({ ...gate, spec: spec.value });
      // The method as it is now against the verdict stored then: they differ where the method changed since.
      if (own.verdict !== g.verdict) mismatches++;
      judged++;
      const key = `${spec.value.language} ${spec.value.baseline}`;
      const tallies = groups.get(key) ?? sets.map(() => ({ aa: tally(), sizes: new Map<number, Tally>() }));
      groups.set(key, tallies);
      sets.forEach((set, i) => {
        const { name: _n, ...rest } = g.spec as Record<string, unknown>;
        const reparsed = parseGateSpec({ ...rest, criteria: set.criteria });
        if (!reparsed.ok) fail('criteria', `does not make a gate of ${key}: ${reparsed.issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`);
        const criteria: GateSpec['criteria'] = (reparsed as { value: GateSpec }).value.criteria;
        const judgement = judgeGate({ ...gate, spec: spec.value }, criteria);
        const v = judgement.verdict;
        if (values.reasons && kind.aa && v !== 'pass') console.log(`${key} ${spec.value.name} under ${set.text}: ${v.toUpperCase()}: ${judgement.reasons.join(' | ')}`);
        const t = kind.aa ? tallies[i]!.aa : (tallies[i]!.sizes.get(kind.pct) ?? tallies[i]!.sizes.set(kind.pct, tally()).get(kind.pct)!);
        t.runs++;
        if (v === 'fail') t.fail++;
        if (v === 'inconclusive') t.inconclusive++;
      });
    }
    console.log(`${judged} calibration gates of ${scenario} since ${since.toISOString()}; ${mismatches} judged now otherwise than stored under their own criteria`);
    for (const [key, tallies] of groups) {
      const pcts = [...new Set(tallies.flatMap((t) => [...t.sizes.keys()]))].sort((a, b) => a - b);
      console.log(`\n${key}\n`);
      const head = ['criteria', 'A/A: false alarms, inconclusive (95% CI of false alarms)', ...pcts.map((p) => `+${p}%: detected, inconclusive (95% CI)`)];
      console.log(`| ${head.join(' | ')} |\n| ${head.map(() => '---').join(' | ')} |`);
      tallies.forEach((t, i) => {
        const fa = falseAlarmRate({ aaRuns: t.aa.runs, aaFalseAlarms: t.aa.fail });
        const cells = [
          `\`${sets[i]!.text}\``,
          `${t.aa.fail} of ${t.aa.runs}, ${t.aa.inconclusive} (${intervalText(fa)})`,
          ...pcts.map((p) => {
            const s = t.sizes.get(p) ?? tally();
            return `${s.fail} of ${s.runs}, ${s.inconclusive} (${intervalText(detectionRate({ runs: s.runs, detections: s.fail }))})`;
          }),
        ];
        console.log(`| ${cells.join(' | ')} |`);
      });
    }
  } finally {
    await stop();
  }
}

main().catch((e) => {
  console.error(`bench:rejudge: ${e instanceof UsageError ? e.message : (e as Error).stack}`);
  process.exit(2);
});
