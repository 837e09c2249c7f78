// `npm run bench:token-refresh -- [lifetimeMs] [delayMs] [seconds]`: one credentials-mode cell per
// client against the fake, tokens living `lifetimeMs` (default 20 s) and the metadata server taking
// `delayMs` (default 1 s) to answer. Prints, per client, every token request of the measured phase and
// each second's p99 and count, and the seconds whose p99 is over the delay: whether a client stalls on
// its token refresh. Nothing is asserted; issue 26's table is written from this output.
import { prepareDriver } from '@scb/languages';
import { parseJobSpec, planCells } from '@scb/shared';
import { runCell } from '../apps/runner/src/cell';
import { CACHE_DIR } from '../apps/runner/src/paths';
import { benchHeader, clientsFromEnv, numberArgs } from './cli';

const [lifetimeMs, delayMs, seconds] = numberArgs([20_000, 1000, 40]);
const CLIENTS = clientsFromEnv('go 0.37.0 1.17.0,go 1.33.0,go 1.96.1,java 6.104.0,java 6.123.0,node 9.0.0');

console.log(benchHeader());
console.log(`# tokens live ${lifetimeMs} ms, the metadata server answers in ${delayMs} ms; SELECT 1 at 10 ms, C=4, ${seconds} s measured`);
for (const client of CLIENTS) {
  const spec = parseJobSpec({
    clients: [client],
    configurations: [{ label: 'client default' }],
    concurrency: [4],
    target: { kind: 'fake', latencyMs: 10, credentials: { tokenLifetimeMs: lifetimeMs, tokenDelayMs: delayMs } },
    workload: { operation: 'select1', warmupOps: 20, durationSeconds: seconds },
  });
  if (!spec.ok) throw new Error(JSON.stringify(spec.issues));
  const plan = planCells(spec.value)[0]!;
  const who = `${client.language} ${client.version}${client.grpcVersion ? ` (grpc ${client.grpcVersion})` : ''}`;
  try {
    const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
    const out = await runCell(spec.value, plan, launch);
    const marks = (out.events ?? []).filter((e) => e.kind === 'schedule-change' && e.text.startsWith('token request'));
    const timeline = out.result.timeline;
    const stalls = timeline.filter((s) => s.p99Ms > delayMs * 0.8);
    console.log(`\n## ${who}: ${out.result.count} ops, errors ${JSON.stringify(out.result.errors)}, tokens ${JSON.stringify(out.tokens)}`);
    console.log(`token requests in the measured phase (s): ${marks.map((m) => (m.atMs / 1000).toFixed(1)).join(', ') || 'none'}`);
    console.log(`seconds with p99 over ${Math.round(delayMs * 0.8)} ms: ${stalls.map((s) => `${s.second} (${Math.round(s.p99Ms)} ms)`).join(', ') || 'none'}`);
    console.log(`p99 per second: ${timeline.map((s) => Math.round(s.p99Ms)).join(' ')}`);
  } catch (e) {
    console.log(`\n## ${who}: failed: ${(e as Error).message.slice(0, 400)}`);
  }
}
