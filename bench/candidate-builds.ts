// `npm run bench:candidate-builds`: the Java candidate-build gates of issue 37 in their full form. A
// Maven fragment of 6.105.0's jars (google-cloud-spanner and its sibling modules) relabelled
// 6.104.1-SNAPSHOT is gated against the published 6.104.0 on affinity-burst (the known grpc-gcp
// collapse: it should fail), and 6.104.0's own jars relabelled the same way (it should pass), through
// the queue of an embedded stack with uploads on (or --server URL with SCB_ARTIFACTS=on). Prints each
// verdict with its reasons and candidate repeats. A benchmark, not a test: about 10 minutes a gate here.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeMavenFragment, prepareDriver } from '@scb/languages';
import { healthy, startEmbeddedStack, submitGate, uploadBuild, waitForVerdict, type GateCell, type StartedStack } from '../scripts/gate-client';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    repeats: { type: 'string' },
    server: { type: 'string' },
    cache: { type: 'string', default: process.env.SCB_CACHE_DIR ?? path.resolve('.cache') },
    /** Only the case whose jars come from this release (6.105.0 or 6.104.0). */
    from: { type: 'string' },
  },
});
const runs = Number(values.runs);
const say = (l: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);

const BASELINE = '6.104.0';
const SNAPSHOT = '6.104.1-SNAPSHOT';
const CASES = [
  { name: '6.105.0 relabelled', from: '6.105.0', expected: 'fail' },
  { name: '6.104.0 relabelled', from: '6.104.0', expected: 'pass' },
].filter((c) => values.from === undefined || c.from === values.from);

async function main(): Promise<void> {
  // Both releases' jars in the local Maven repository (as a cell of each would put them there).
  for (const c of CASES) await prepareDriver({ language: 'java', version: c.from }, { cacheDir: values.cache!, log: say });
  let stack: StartedStack | undefined;
  let base = values.server;
  if (!base) {
    stack = await startEmbeddedStack({ ...process.env, SCB_ARTIFACTS: 'on' });
    base = stack.base;
  } else if (!(await healthy(base))) throw new Error(`--server ${base}: no spanner-client-bench answers there`);
  const lines: string[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      for (const c of CASES) {
        const bytes = makeMavenFragment({ from: c.from, to: SNAPSHOT });
        writeFileSync(path.join(os.tmpdir(), `scb-fragment-${c.from}.tar.gz`), bytes);
        const label = `${c.from} as ${SNAPSHOT}`;
        const build = await uploadBuild(base, bytes, 'java', label);
        const t0 = Date.now();
        const gate = await submitGate(base, {
          name: `candidate build: ${label} vs ${BASELINE}`,
          scenario: 'affinity-burst',
          language: 'java',
          baseline: BASELINE,
          candidateArtifact: build.id,
          candidateLabel: label,
          ...(values.repeats ? { repeats: Number(values.repeats) } : {}),
        });
        say(`run ${run}: ${c.name} (${build.id.slice(0, 19)}): gate ${gate.url}`);
        const cells: GateCell[] = [];
        const { verdict } = await waitForVerdict(base, gate, { timeoutMs: 90 * 60_000, onCell: (cell) => cells.push(cell) });
        const record = (await (await fetch(new URL(`/api/gates/${gate.id}`, base))).json()) as { reasons: string[] };
        const candidate = cells
          .filter((x) => x.arm === 'candidate')
          .map((x) => (x.result ? `${x.result.qps.toFixed(0)} qps (${Math.round(x.channelSummary.hottestShare * 100)}% on one connection)` : x.status));
        const line = `run ${run}: ${c.name} vs ${BASELINE}: ${verdict.toUpperCase()} (expected ${c.expected}) in ${((Date.now() - t0) / 60_000).toFixed(1)} min; ${record.reasons.join('; ')}; candidate repeats: ${candidate.join(', ')}`;
        say(line);
        lines.push(line);
      }
    }
  } finally {
    await stack?.stop();
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

main().catch((e) => {
  console.error(`bench:candidate-builds: ${(e as Error).message}`);
  process.exit(2);
});
