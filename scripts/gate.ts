// `npm run gate -- --client java --baseline 6.104.0 --candidate 6.105.0 --scenario affinity-burst`
// Runs a release gate through the queue of a server (--server URL, a stack already running on
// localhost, or an embedded one it starts and stops), prints progress, the Markdown summary and the
// permanent link. Exit code: 0 pass, 1 fail, 2 inconclusive or error.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GATE_SCENARIO_IDS, parseGateSpec } from '@scb/shared/gate';
import { env } from './env';
import { CliError, cancelGateJob, cellLine, healthy, startEmbeddedStack, submitGate, useToken, waitForVerdict } from './gate-client';
const EXIT = { pass: 0, fail: 1, inconclusive: 2, error: 2 } as const;

const USAGE = `usage: npm run gate -- --client java|node|go --baseline X.Y.Z --candidate X.Y.Z [options]
  --scenario ID             ${GATE_SCENARIO_IDS.join(' | ')} (default affinity-burst)
  --repeats N               repeats per arm (default: the scenario's, 10 for affinity-burst, else 5)
  --concurrency N[,N...]    override the scenario's concurrency
  --operation KIND          judge this operation kind of the workload's mix (default: the scenario's, else all)
  --config JSON             client options for both arms, e.g. '{"numChannels":16}'
  --candidate-config JSON   client options for the candidate only, e.g. '{"grpcGcp":"off"}'
  --spec FILE               a whole gate spec (JSON, as POST /api/gates takes); flags override it
  --timeout MINUTES         give up (exit 2) when there is no verdict by then (default 180)
  --server URL              a running spanner-client-bench (default: the one on localhost:$PORT,
                            else an embedded stack started for this gate and stopped after it)
  --token TOKEN             an API token for a server that needs one to write (default: SCB_TOKEN)
exit code: 0 pass, 1 fail, 2 inconclusive or error`;

const say = (line: string) => process.stderr.write(`${line}\n`);

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
      operation: { type: 'string' },
      config: { type: 'string' },
      'candidate-config': { type: 'string' },
      spec: { type: 'string' },
      server: { type: 'string' },
      token: { type: 'string' },
      timeout: { type: 'string' },
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
    const parsed = json('spec', text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError(`--spec: ${values.spec} must hold a JSON object (a gate spec as POST /api/gates takes)`);
    base = parsed as Record<string, unknown>;
  }
  const number = (flag: string, v: string) => {
    if (!/^\d+$/.test(v.trim())) throw new CliError(`--${flag}: "${v}" is not a whole number`);
    return Number(v);
  };
  const input: Record<string, unknown> = {
    scenario: 'affinity-burst',
    ...base,
    ...((values.client ?? values.language) ? { language: values.client ?? values.language } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    ...(values.candidate ? { candidate: values.candidate } : {}),
    ...(values.scenario ? { scenario: values.scenario } : {}),
    ...(values.name ? { name: values.name } : {}),
    ...(values.repeats ? { repeats: number('repeats', values.repeats) } : {}),
    ...(values.concurrency ? { concurrency: values.concurrency.split(',').map((c) => number('concurrency', c)) } : {}),
    ...(values.operation ? { operation: values.operation } : {}),
    ...(values.config ? { configuration: json('config', values.config) } : {}),
    ...(values['candidate-config'] ? { candidateConfiguration: json('candidate-config', values['candidate-config']) } : {}),
  };
  const parsed = parseGateSpec(input);
  if (!parsed.ok) {
    const flags: Record<string, string> = {
      language: '--client',
      baseline: '--baseline',
      candidate: '--candidate',
      scenario: '--scenario',
      repeats: '--repeats',
      concurrency: '--concurrency',
      operation: '--operation',
      configuration: '--config',
      candidateConfiguration: '--candidate-config',
      name: '--name',
    };
    const where = (p: string) => flags[p.split('.')[0]] ?? (values.spec ? `in --spec ${values.spec}` : 'the gate');
    throw new CliError(`invalid gate:\n${parsed.issues.map((i) => `  ${where(i.path)} (${i.path}): ${i.message}`).join('\n')}\n\n${USAGE}`);
  }
  const timeoutMinutes = values.timeout === undefined ? 180 : number('timeout', values.timeout);
  return { gate: input, server: values.server, token: values.token ?? env.SCB_TOKEN, timeoutMs: timeoutMinutes * 60_000 };
}

async function runGate(base: string, gate: Record<string, unknown>, timeoutMs: number, onInterrupt: () => Promise<void>): Promise<number> {
  const created = await submitGate(base, gate);
  say(`gate ${created.id}: ${created.url} (job ${created.jobId})`);
  // Ctrl-C cancels the gate's job on the server too, and stops a stack this command started.
  process.once('SIGINT', () => {
    say('gate: interrupted, cancelling its job');
    void cancelGateJob(base, created)
      .catch(() => {})
      .then(onInterrupt)
      .finally(() => process.exit(EXIT.error));
  });
  const t0 = Date.now();
  const seconds = () => Math.round((Date.now() - t0) / 1000);
  const { verdict, markdown } = await waitForVerdict(base, created, {
    timeoutMs,
    onCell: (c, done, total) => say(`  [${done}/${total}, ${seconds()} s] ${cellLine(c)}`),
    onWaiting: (status) => say(`gate: still ${status} after ${seconds()} s${status === 'queued' ? ': is a runner up? (npm start runs one; other jobs run first)' : ''}`),
  });
  process.stdout.write(`\n${markdown}\n`);
  say(`gate ${created.id}: ${verdict.toUpperCase()} after ${seconds()} s · ${created.url}`);
  return EXIT[verdict as keyof typeof EXIT] ?? EXIT.error;
}

async function main(): Promise<number> {
  const { gate, server, token, timeoutMs } = gateFromArgs(process.argv.slice(2));
  useToken(token);
  const nothing = async () => {};
  if (server) {
    if (!(await healthy(server))) throw new CliError(`--server ${server}: no spanner-client-bench answers at ${new URL('/api/health', server)}`);
    return runGate(server, gate, timeoutMs, nothing);
  }
  const local = `http://127.0.0.1:${env.PORT}`;
  if (await healthy(local)) {
    say(`gate: using the stack running at ${local}`);
    return runGate(local, gate, timeoutMs, nothing);
  }
  say('gate: no server given and none running on localhost: starting the embedded stack (npm start)');
  const stack = await startEmbeddedStack();
  say(`gate: stack ready at ${stack.base}; it stops when the gate ends, so the link below works while \`npm start\` runs`);
  try {
    return await runGate(stack.base, gate, timeoutMs, () => stack.stop());
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
