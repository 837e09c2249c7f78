// `npm run bench:job-limits`: what the operator's limits cost the web app. A job at the cell limit (500
// cells) planned and stored with its queue entry, and a 400,000-cell spec refused, each timed several
// times on a fresh embedded PostgreSQL. Prints figures; nothing is asserted.
import { createDb, createJob, releaseQueue } from '@scb/db';
import { estimateJobSeconds, parseJobSpec } from '@scb/shared';
import { DEFAULT_LIMITS, limitIssues, policyFromEnv } from '@scb/shared/policy';
import { startTestDatabase } from '../test/helpers/postgres';

const ROUNDS = Number(process.env.BENCH_REPEATS ?? 5);
const policy = policyFromEnv({});
if (!policy.ok) throw new Error(policy.error);
const spec = (clients: number, configurations: number, concurrencies: number, repeats: number) => {
  const p = parseJobSpec({
    clients: Array.from({ length: clients }, (_, i) => ({ language: 'node', version: `9.0.${i}` })),
    configurations: Array.from({ length: configurations }, (_, i) => ({ label: `c${i}` })),
    concurrency: Array.from({ length: concurrencies }, (_, i) => i + 1),
    repeats,
    workload: { warmupOps: 10, durationSeconds: 1 },
  });
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p.value;
};
const atLimit = spec(5, 5, 20, 1);
const huge = { ...atLimit, clients: Array.from({ length: 20 }, () => atLimit.clients[0]!), configurations: Array.from({ length: 20 }, () => atLimit.configurations[0]!), repeats: 50 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const tdb = await startTestDatabase();
const db = createDb(tdb.url);
try {
  await createJob(db, tdb.url, spec(1, 1, 1, 1)); // the queue's schema, once
  const store: number[] = [];
  const refuse: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t0 = performance.now();
    if (limitIssues(policy.policy, atLimit).length) throw new Error('the 500-cell job should be within the limits');
    await createJob(db, tdb.url, atLimit);
    store.push(performance.now() - t0);
    t0 = performance.now();
    if (!limitIssues(policy.policy, huge).length) throw new Error('the 400,000-cell job should be refused');
    refuse.push(performance.now() - t0);
  }
  console.log(`limits: ${DEFAULT_LIMITS.cellsPerJob} cells, ${DEFAULT_LIMITS.jobMinutes} min; the 500-cell job is estimated at ${Math.ceil(estimateJobSeconds(atLimit) / 60)} min`);
  console.table([
    { what: '500 cells checked, planned and stored with the queue entry', 'median ms': median(store).toFixed(1), 'max ms': Math.max(...store).toFixed(1), rounds: ROUNDS },
    { what: '400,000-cell spec refused', 'median ms': median(refuse).toFixed(3), 'max ms': Math.max(...refuse).toFixed(3), rounds: ROUNDS },
  ]);
} finally {
  await releaseQueue();
  await db.$disconnect();
  await tdb.stop();
}
