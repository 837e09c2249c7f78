// `npm run bench:verdicts`: the measurements behind the verdict thresholds (docs/verdicts.md). Cells
// run the way the runner runs them (a fresh fake thread and driver process each) and print, per cell,
// what every process in the loop did while measuring, next to how far the cell fell from the ideal:
//   1. Node 9.0.0 at 65 ms, concurrency rising until its one event loop saturates;
//   2. Go 1.96.1 with the fake answering at once, concurrency rising until the fake's thread saturates;
//   3. a Node cell while other processes keep every core busy.
// `npm run bench:verdicts -- spec.json` runs a job spec's cells the same way instead (e.g.
// examples/node-select1.json). Prints figures and each cell's verdict; nothing is asserted.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { prepareDriver } from '@scb/languages';
import {
  clientText,
  decodeHistogram,
  describeConfiguration,
  idealQps,
  judgeCell,
  modeledLatencyMs,
  parseJobSpec,
  planCells,
  summarize,
  verdictReasons,
  warmStart,
  type Client,
  type JobSpec,
} from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { cellResultOf } from '../apps/runner/src/cell-result';
import { CACHE_DIR } from '../apps/runner/src/paths';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const cores = os.availableParallelism();

async function sweep(what: string, client: Pick<Client, 'language' | 'version'>, latencyMs: number, concurrency: number[], hogs = 0) {
  const spec = parsedSpec({
    clients: [client],
    configurations: [{ label: 'client default' }],
    concurrency,
    target: { kind: 'fake', latencyMs },
    workload: { warmupOps: { min: 200, perConcurrency: 4 }, durationSeconds: SECONDS },
  });
  console.log(`\n${what}: ${clientText(client)}, fake at ${latencyMs} ms, ${SECONDS} s measured per cell${hogs ? `, ${hogs} busy-loop processes beside it` : ''}`);
  console.table(await cellRows(spec, hogs));
}

function parsedSpec(input: unknown): JobSpec {
  const parsed = parseJobSpec(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

async function cellRows(spec: JobSpec, hogs = 0): Promise<Record<string, string | number>[]> {
  const latencyMs = modeledLatencyMs(spec) ?? 0;
  const many = spec.clients.length > 1 || spec.configurations.length > 1 || spec.repeats > 1;
  const rows: Record<string, string | number>[] = [];
  for (const plan of planCells(spec)) {
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const busy = Array.from({ length: hogs }, () => fork('-e', ['for(;;){}'], { execArgv: [], stdio: 'ignore' }));
    try {
      const out = await runCell(spec, plan, launch);
      const stored = cellResultOf(out);
      const s = summarize(decodeHistogram(out.result.histogram), out.result.elapsedMs);
      const v = judgeCell(stored, cores);
      const driverShare = stored.cpuMs / stored.elapsedMs / cores;
      const pct = (x: number | null | undefined) => (x == null ? '-' : `${Math.round(100 * x)}%`);
      rows.push({
        ...(many ? { cell: `${clientText(plan.client)} · ${describeConfiguration(plan.configuration)} · r${plan.repeat}` } : {}),
        C: plan.concurrency,
        qps: Math.round(s.qps),
        'of ideal': latencyMs > 0 ? pct(s.qps / idealQps(plan.concurrency, latencyMs)) : '-',
        'p50 ms': s.p50Ms.toFixed(1),
        'p99 ms': s.p99Ms.toFixed(1),
        connections: out.channels
          ? `${out.channels.connections.filter((c) => c.rpcs > 0).length} of ${out.channels.connections.length}, peak ${Math.max(0, ...out.channels.connections.map((c) => c.peakInFlight))}`
          : '-',
        'driver CPU': pct(driverShare),
        'driver loop / delay p99': stored.driverLoopUtilization == null ? '-' : `${pct(stored.driverLoopUtilization)} / ${stored.driverLoopDelayP99Ms!.toFixed(1)} ms`,
        'fake loop / delay p99': stored.targetLoopUtilization == null ? '-' : `${pct(stored.targetLoopUtilization)} / ${stored.targetLoopDelayP99Ms!.toFixed(1)} ms`,
        'fake added p50/p99 ms': stored.targetAddedP50Ms == null ? '-' : `${stored.targetAddedP50Ms.toFixed(2)} / ${stored.targetAddedP99Ms!.toFixed(2)}`,
        'machine busy / others': `${pct(stored.machineBusyShare)} / ${pct((stored.machineBusyShare ?? 0) - (stored.machineRunnerShare ?? 0) - driverShare - (stored.targetCpuShare ?? 0))}`,
        warm: ((w) => (w ? `${w.warm ? 'yes' : 'NO'} (${Math.round(w.firstRate)} vs ${Math.round(w.medianRate)}/s)` : '-'))(warmStart(out.result.timeline, s.p50Ms)),
        verdict: v.kind,
        why: verdictReasons(v),
      });
    } finally {
      for (const h of busy) h.kill('SIGKILL');
    }
    process.stderr.write('.');
  }
  return rows;
}

console.log(`${cores} cores, ${os.cpus()[0]?.model}`);
const file = process.argv[2];
if (file) {
  console.log(file);
  console.table(await cellRows(parsedSpec(JSON.parse(readFileSync(file, 'utf8')))));
  process.exit(0);
}
await sweep('1. the Node driver up to a saturated event loop', { language: 'node', version: '9.0.0' }, 65, [10, 50, 200, 400, 800, 1600]);
await sweep('2. the fake up to a saturated thread (Go client, no server time)', { language: 'go', version: '1.96.1' }, 0, [1, 10, 50, 200]);
await sweep('3. other processes on every core', { language: 'node', version: '9.0.0' }, 65, [10], cores);
