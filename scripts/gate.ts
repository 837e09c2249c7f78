// `npm run gate -- --client java --baseline 6.104.0 --candidate 6.105.0 --scenario affinity-burst`
// Runs a release gate through the queue of a server (--server URL, a stack already running on
// localhost, or an embedded one it starts and stops), prints progress, the Markdown summary and the
// permanent link. Exit code: 0 pass, 1 fail, 2 inconclusive or error.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { GATE_SCENARIO_IDS, parseGateSpec } from '@scb/shared/gate';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXIT = { pass: 0, fail: 1, inconclusive: 2, error: 2 } as const;

const USAGE = `usage: npm run gate -- --client java|node --baseline X.Y.Z --candidate X.Y.Z [options]
  --scenario ID             ${GATE_SCENARIO_IDS.join(' | ')} (default affinity-burst)
  --repeats N               repeats per arm (default 5)
  --concurrency N[,N...]    override the scenario's concurrency
  --config JSON             client options for both arms, e.g. '{"numChannels":16}'
  --candidate-config JSON   client options for the candidate only, e.g. '{"grpcGcp":"off"}'
  --spec FILE               a whole gate spec (JSON, as POST /api/gates takes); flags override it
  --server URL              a running spanner-client-bench (default: the one on localhost:$PORT,
                            else an embedded stack started for this gate and stopped after it)
exit code: 0 pass, 1 fail, 2 inconclusive or error`;

const say = (line: string) => process.stderr.write(`${line}\n`);

class CliError extends Error {}

function json(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`--${flag}: not valid JSON (${(e as Error).message})`);
  }
}

/** Flags -> a validated gate spec; every bad field is named. */
function gateFromArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      client: { type: 'string' },
      language: { type: 'string' },
      baseline: { type: 'string' },
      candidate: { type: 'string' },
      scenario: { type: 'string' },
      repeats: { type: 'string' },
      concurrency: { type: 'string' },
      config: { type: 'string' },
      'candidate-config': { type: 'string' },
      spec: { type: 'string' },
      server: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    process.exit(0);
  }
  let base: Record<string, unknown> = {};
  if (values.spec) {
    let text: string;
    try {
      text = readFileSync(values.spec, 'utf8');
    } catch (e) {
      throw new CliError(`--spec: cannot read ${values.spec} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    base = json('spec', text) as Record<string, unknown>;
  }
  const number = (flag: string, v: string) => {
    if (!/^\d+$/.test(v.trim())) throw new CliError(`--${flag}: "${v}" is not a whole number`);
    return Number(v);
  };
  const input: Record<string, unknown> = {
    scenario: 'affinity-burst',
    ...base,
    ...(values.client ?? values.language ? { language: values.client ?? values.language } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    ...(values.candidate ? { candidate: values.candidate } : {}),
    ...(values.scenario ? { scenario: values.scenario } : {}),
    ...(values.name ? { name: values.name } : {}),
    ...(values.repeats ? { repeats: number('repeats', values.repeats) } : {}),
    ...(values.concurrency ? { concurrency: values.concurrency.split(',').map((c) => number('concurrency', c)) } : {}),
    ...(values.config ? { configuration: json('config', values.config) } : {}),
    ...(values['candidate-config'] ? { candidateConfiguration: json('candidate-config', values['candidate-config']) } : {}),
  };
  const parsed = parseGateSpec(input);
  if (!parsed.ok) {
    const flagOf: Record<string, string> = { language: '--client', configuration: '--config', candidateConfiguration: '--candidate-config' };
    throw new CliError(
      `invalid gate:\n${parsed.issues.map((i) => `  ${flagOf[i.path.split('.')[0]] ?? `--${i.path.split('.')[0]}`} (${i.path}): ${i.message}`).join('\n')}\n\n${USAGE}`,
    );
  }
  return { gate: input, server: values.server };
}

async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(new URL('/api/health', base), { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** The README's start command as a child process, until it says it is ready. */
async function startEmbeddedStack(): Promise<{ base: string; stop(): Promise<void> }> {
  say('gate: no server given and none running on localhost: starting the embedded stack (npm start)');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/start.ts')], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CliError(`the stack was not ready within 5 minutes:\n${lines.slice(-20).join('\n')}`)), 300_000);
    for (const s of [child.stdout!, child.stderr!]) {
      createInterface({ input: s }).on('line', (l) => {
        lines.push(l);
        const ready = /is ready: (\S+)/.exec(l);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1].replace('localhost', '127.0.0.1'));
        }
      });
    }
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new CliError(`the stack exited (code ${code}) before it was ready:\n${lines.slice(-20).join('\n')}`));
    });
  });
  say(`gate: stack ready at ${base}; it stops when the gate ends, so the link below works while \`npm start\` runs`);
  return {
    base,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise<void>((r) => setTimeout(r, 30_000))]);
    },
  };
}

interface CellJson {
  index: number;
  status: string;
  error: string | null;
  concurrency: number;
  repeat: number;
  client: { version: string };
  configuration: { label: string };
  result: { qps: number; p50Ms: number; p99Ms: number } | null;
}

async function getJson<T>(url: URL): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new CliError(`GET ${url.pathname}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function runGate(base: string, gate: Record<string, unknown>): Promise<number> {
  const res = await fetch(new URL('/api/gates', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(gate) });
  const created = (await res.json()) as { id?: string; url?: string; jobId?: string; error?: string; issues?: { path: string; message: string }[] };
  if (!res.ok || !created.id) {
    throw new CliError(`the server refused the gate: ${created.error ?? `HTTP ${res.status}`}${created.issues ? `\n${created.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}` : ''}`);
  }
  say(`gate ${created.id}: ${created.url} (job ${created.jobId})`);
  // Ctrl-C cancels the gate's job on the server too.
  process.once('SIGINT', () => {
    say('gate: interrupted, cancelling its job');
    void fetch(new URL(`/api/jobs/${created.jobId}/cancel`, base), { method: 'POST' }).finally(() => process.exit(EXIT.error));
  });
  const seen = new Set<number>();
  const t0 = Date.now();
  for (;;) {
    const g = await getJson<{ status: string; verdict: string | null; job: { status: string; cellsDone: number; cellsTotal: number } }>(new URL(`/api/gates/${created.id}`, base));
    const job = await getJson<{ cells: CellJson[] }>(new URL(`/api/jobs/${created.jobId}`, base));
    for (const c of job.cells) {
      if (seen.has(c.index) || c.status === 'pending' || c.status === 'running') continue;
      seen.add(c.index);
      const what = `${c.configuration.label} ${c.client.version} C=${c.concurrency} repeat ${c.repeat}`;
      const r = c.result;
      say(`  [${seen.size}/${job.cells.length}, ${Math.round((Date.now() - t0) / 1000)} s] ${what}: ${r ? `${r.qps.toFixed(0)} qps, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms` : `${c.status}${c.error ? `: ${c.error}` : ''}`}`);
    }
    if (g.status === 'finished' && g.verdict) {
      const markdown = await fetch(new URL(`/api/gates/${created.id}/markdown`, base)).then((r) => r.text());
      process.stdout.write(`\n${markdown}\n`);
      say(`gate ${created.id}: ${g.verdict.toUpperCase()} after ${Math.round((Date.now() - t0) / 1000)} s · ${created.url}`);
      return EXIT[g.verdict as keyof typeof EXIT] ?? EXIT.error;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function main(): Promise<number> {
  const { gate, server } = gateFromArgs(process.argv.slice(2));
  if (server) {
    if (!(await healthy(server))) throw new CliError(`--server ${server}: no spanner-client-bench answers at ${new URL('/api/health', server)}`);
    return runGate(server, gate);
  }
  const local = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  if (await healthy(local)) {
    say(`gate: using the stack running at ${local}`);
    return runGate(local, gate);
  }
  const stack = await startEmbeddedStack();
  try {
    return await runGate(stack.base, gate);
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    say(e instanceof CliError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `gate: ${(e as Error).message}` : `gate: error: ${(e as Error).message}`);
    process.exit(EXIT.error);
  },
);
