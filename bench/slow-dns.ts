// `npm run bench:slow-dns -- [ageMs] [lookupDelayMs] [seconds]`: one cell per client against the fake,
// whose name resolves through the cell's DNS server answering each query in `lookupDelayMs` (default
// 1 s) while the fake closes every connection at `ageMs` (default 5 s); with CONTROL=1 each client runs
// again without the DNS server. Prints, per client, every DNS query and connection event of the measured
// phase and each second's p99: whether a reconnect waits for the lookup. Nothing is asserted; issue 26's
// table is written from this output.
import { prepareDriver } from '@scb/languages';
import { parseJobSpec, planCells } from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { benchHeader, clientsFromEnv, numberArgs } from './cli';

const [ageMs, lookupDelayMs, seconds] = numberArgs([5000, 1000, 40]);
const CLIENTS = clientsFromEnv('go 0.37.0 1.17.0,go 0.37.0 1.18.0,go 1.33.0,go 1.96.1,node 9.0.0');

console.log(benchHeader());
console.log(`# connections closed at ${ageMs} ms of age, each DNS query answered in ${lookupDelayMs} ms; SELECT 1 at 10 ms, C=10, ${seconds} s measured`);
for (const client of CLIENTS) {
  for (const dns of process.env.CONTROL ? [true, false] : [true]) {
    const spec = parseJobSpec({
      clients: [client],
      configurations: [{ label: 'client default' }],
      concurrency: [10],
      target: { kind: 'fake', latencyMs: 10, server: { maxConnectionAgeMs: ageMs, maxConnectionAgeGraceMs: 1000 }, ...(dns && { dns: { lookupDelayMs } }) },
      workload: { operation: 'select1', warmupOps: 20, durationSeconds: seconds },
    });
    if (!spec.ok) throw new Error(JSON.stringify(spec.issues));
    const plan = planCells(spec.value)[0]!;
    const who = `${client.language} ${client.version}${client.grpcVersion ? ` (grpc ${client.grpcVersion})` : ''}${dns ? '' : ', no DNS server (control)'}`;
    try {
      const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
      const out = await runCell(spec.value, plan, launch);
      const at = (ms: number) => (ms / 1000).toFixed(1);
      const lookups = (out.events ?? []).flatMap((e) => (e.kind === 'schedule-change' && e.text.startsWith('DNS lookup') ? [`${at(e.atMs)} ${e.text.replace('DNS lookup ', '')}`] : []));
      const closed = (out.events ?? []).filter((e) => e.kind === 'connection-closed').map((e) => at(e.atMs));
      const timeline = out.result.timeline;
      const stalls = timeline.filter((s) => s.p99Ms > lookupDelayMs * 0.8);
      console.log(`\n## ${who}: ${out.result.count} ops, errors ${JSON.stringify(out.result.errors)}`);
      console.log(`DNS queries in the measured phase (s): ${lookups.join('; ') || 'none'}`);
      console.log(`connections closed (s): ${closed.join(', ') || 'none'}`);
      console.log(`seconds with p99 over ${Math.round(lookupDelayMs * 0.8)} ms: ${stalls.map((s) => `${s.second} (${Math.round(s.p99Ms)} ms)`).join(', ') || 'none'}`);
      console.log(`p99 per second: ${timeline.map((s) => Math.round(s.p99Ms)).join(' ')}`);
    } catch (e) {
      console.log(`\n## ${who}: failed: ${(e as Error).message.slice(0, 400)}`);
    }
  }
}
