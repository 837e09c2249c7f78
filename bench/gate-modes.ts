// `npx tsx bench/gate-modes.ts --server URL GATE_ID...`: re-judges finished affinity-burst gates from their
// stored cells with EVERY succeeded cell counted, harness-bound ones included, and prints per gate the
// collapsed count of each arm and the verdict the gate's method gives on them. For a machine that other
// work saturated (every cell harness-bound, so the gate itself could only say INCONCLUSIVE): what its
// cells showed, not a verdict. Reads the API only; changes nothing.
import { parseArgs } from 'node:util';
import { evaluateGate, gateScenario, parseGateSpec, type GateSample } from '@scb/shared';

const { values, positionals } = parseArgs({ options: { server: { type: 'string' } }, allowPositionals: true });
if (!values.server || !positionals.length) {
  console.error('usage: npx tsx bench/gate-modes.ts --server URL GATE_ID...');
  process.exit(2);
}
const get = async (p: string) => {
  const r = await fetch(new URL(p, values.server));
  if (!r.ok) throw new Error(`${p}: ${r.status}`);
  return r.json() as Promise<Record<string, unknown>>;
};

interface ApiCell {
  arm: 'baseline' | 'candidate' | null;
  concurrency: number;
  repeat: number;
  status: string;
  channelSource: string | null;
  channels: { rpcs: number; peakInFlight: number }[];
  result: { qps: number; p50Ms: number; p99Ms: number; count: number; errorCount: number } | null;
}

for (const id of positionals) {
  const gate = (await get(`/api/gates/${id}`)) as { spec: unknown; verdict: string; jobs: { id: string }[] };
  const spec = parseGateSpec(gate.spec);
  if (!spec.ok) throw new Error(`gate ${id}: its spec does not parse`);
  const mode = gateScenario(spec.value.scenario)?.mode;
  if (!mode) throw new Error(`gate ${id}: scenario ${spec.value.scenario} has no mode`);
  const job = (await get(`/api/jobs/${gate.jobs[0]!.id}`)) as { cells: ApiCell[] };
  const samples: GateSample[] = job.cells.flatMap((c) => {
    if (c.status !== 'succeeded' || !c.result || !c.arm) return [];
    const bad = mode.classify({ channels: c.channels.map((ch) => ({ ...ch, source: c.channelSource ?? 'fake' })) });
    const calls = c.result.count + c.result.errorCount;
    return [
      {
        arm: c.arm,
        concurrency: c.concurrency,
        repeat: c.repeat,
        qps: c.result.qps,
        p50Ms: c.result.p50Ms,
        p99Ms: c.result.p99Ms,
        errorPct: calls ? (100 * c.result.errorCount) / calls : 0,
        ...(bad !== null && { bad }),
      },
    ];
  });
  const e = evaluateGate(samples, {
    criteria: { ...spec.value.criteria, worstRepeat: spec.value.criteria.worstRepeat ?? false },
    concurrency: [...new Set(samples.map((s) => s.concurrency))],
    mode,
    names: { baseline: spec.value.baseline, candidate: spec.value.candidate },
  });
  console.log(`gate ${id} (stored verdict ${gate.verdict}): ${spec.value.candidate} vs ${spec.value.baseline}, every succeeded cell counted (${samples.length} of ${job.cells.length})`);
  console.log(`  verdict on them: ${e.verdict}${e.persisting ? ' (persisting)' : ''}`);
  for (const r of e.reasons) console.log(`  - ${r}`);
}
