// `npm run gate -- --client java --baseline 6.104.0 --candidate 6.105.0 --scenario affinity-burst`
// `npm run gate -- --language java --baseline 6.123.0 --candidate-artifact ./staging.tar.gz --label "PR 4321 @ abc1234" --scenario affinity-burst --scenario java-mux-session-error-cached`
// Runs release gates (one per --scenario) through the queue of a server (--server URL, a stack already
// running on localhost, or an embedded one it starts and stops), uploading a candidate build first where
// one is given, prints progress, each Markdown summary and permanent link. Exit code: 0 every gate
// passed, 1 one failed, 2 one was inconclusive or an error (and none failed).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GATE_SCENARIO_IDS, parseGateSpec } from '@scb/shared/gate';
import { env } from './env';
import { CliError, cancelGateJob, cellLine, healthy, pollMs, startEmbeddedStack, submitGate, uploadBuild, useToken, waitForVerdict } from './gate-client';
const EXIT = { pass: 0, fail: 1, inconclusive: 2, error: 2 } as const;

const USAGE = `usage: npm run gate -- --client java|node|go --baseline X.Y.Z (--candidate X.Y.Z | --candidate-artifact FILE) [options]
  --candidate-artifact FILE a build of the client (npm pack's .tgz, a Maven repository fragment .tar.gz,
                            a Go module .zip or .tar.gz), uploaded (POST /api/artifacts) as the candidate
  --label TEXT              the build's name in pages and Markdown, e.g. "PR 4321 @ abc1234"
  --scenario ID             ${GATE_SCENARIO_IDS.join(' | ')} (default affinity-burst);
                            repeat it for several gates of the same candidate
  --repeats N               repeats per arm (default: the scenario's, 27 for affinity-burst, else 5)
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

function number(flag: string, v: string): number {
  if (!/^\d+$/.test(v.trim())) throw new CliError(`--${flag}: "${v}" is not a whole number`);
  return Number(v);
}

/** Flags -> validated gate specs (one per --scenario) and the candidate build to upload; every bad field is named. */
function gateFromArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      client: { type: 'string' },
      language: { type: 'string' },
      baseline: { type: 'string' },
      candidate: { type: 'string' },
      'candidate-artifact': { type: 'string' },
      label: { type: 'string' },
      scenario: { type: 'string', multiple: true },
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
  const artifact = values['candidate-artifact'];
  if (artifact && values.candidate) throw new CliError('--candidate-artifact: give --candidate or --candidate-artifact, not both (the build says its own version)');
  if (values.label !== undefined && !artifact) throw new CliError('--label: names a candidate build: give it with --candidate-artifact');
  let build: Buffer | undefined;
  if (artifact) {
    try {
      build = readFileSync(artifact);
    } catch (e) {
      throw new CliError(`--candidate-artifact: cannot read ${artifact} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  const scenarios = values.scenario?.length ? values.scenario : [typeof base.scenario === 'string' ? base.scenario : 'affinity-burst'];
  const gates = scenarios.map((scenario) => gateInput(values, base, scenario, Boolean(artifact)));
  const timeoutMinutes = values.timeout === undefined ? 180 : number('timeout', values.timeout);
  const language = typeof gates[0]!.language === 'string' ? gates[0]!.language : '';
  return { gates, build: build && { bytes: build, language, label: values.label }, server: values.server, token: values.token ?? env.SCB_TOKEN, timeoutMs: timeoutMinutes * 60_000 };
}

/** One scenario's gate from the flags, checked here as far as it can be before the server fills in an uploaded build's version. */
function gateInput(values: Record<string, unknown> & { spec?: string }, base: Record<string, unknown>, scenario: string, withBuild: boolean): Record<string, unknown> {
  const v = values as Record<string, string | undefined>;
  const input: Record<string, unknown> = {
    ...base,
    ...((v.client ?? v.language) ? { language: v.client ?? v.language } : {}),
    ...(v.baseline ? { baseline: v.baseline } : {}),
    ...(v.candidate ? { candidate: v.candidate } : {}),
    scenario,
    ...(v.name ? { name: v.name } : {}),
    ...(v.repeats ? { repeats: number('repeats', v.repeats) } : {}),
    ...(v.concurrency ? { concurrency: v.concurrency.split(',').map((c) => number('concurrency', c)) } : {}),
    ...(v.operation ? { operation: v.operation } : {}),
    ...(v.config ? { configuration: json('config', v.config) } : {}),
    ...(v['candidate-config'] ? { candidateConfiguration: json('candidate-config', v['candidate-config']) } : {}),
  };
  // The build's version is the server's to read: a version no release has stands in for the check.
  const parsed = parseGateSpec(
    withBuild ? { ...input, candidate: '0.0.0-candidate', candidateArtifact: `sha256:${'0'.repeat(64)}`, ...(v.label !== undefined && { candidateLabel: v.label }) } : input,
  );
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
      candidateArtifact: '--candidate-artifact',
      candidateLabel: '--label',
      name: '--name',
    };
    const where = (p: string) => flags[p.split('.')[0]] ?? (values.spec ? `in --spec ${values.spec}` : 'the gate');
    throw new CliError(`invalid gate${scenario ? ` (${scenario})` : ''}:\n${parsed.issues.map((i) => `  ${where(i.path)} (${i.path}): ${i.message}`).join('\n')}\n\n${USAGE}`);
  }
  return input;
}

type Build = { bytes: Buffer; language: string; label: string | undefined };

/** Uploads the candidate build (where there is one), queues every gate, then waits for each in turn: the worst verdict's exit code. */
async function runGates(base: string, gates: Record<string, unknown>[], build: Build | undefined, timeoutMs: number, onInterrupt: () => Promise<void>): Promise<number> {
  let withBuild = gates;
  if (build) {
    const up = await uploadBuild(base, build.bytes, build.language, build.label);
    say(`build ${up.id}: ${up.module} ${up.version}${up.label ? ` "${up.label}"` : ''}, ${up.bytes} bytes · ${up.url}`);
    withBuild = gates.map((g) => ({ ...g, candidateArtifact: up.id, ...(build.label !== undefined && { candidateLabel: build.label }) }));
  }
  const codes: number[] = [];
  for (const gate of withBuild) codes.push(await runGate(base, gate, timeoutMs, onInterrupt));
  return codes.includes(EXIT.fail) ? EXIT.fail : codes.some((c) => c !== EXIT.pass) ? EXIT.error : EXIT.pass;
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

const SERVER_HEALTH_MS = 15_000;

async function main(): Promise<number> {
  const { gates, build, server, token, timeoutMs } = gateFromArgs(process.argv.slice(2));
  pollMs(); // a bad SCB_GATE_POLL_MS is refused before anything is queued
  useToken(token);
  const nothing = async () => {};
  if (server) {
    // A named server may be a busy shared one: it gets longer to answer than the local probe below.
    if (!(await healthy(server, SERVER_HEALTH_MS))) throw new CliError(`--server ${server}: no spanner-client-bench answers at ${new URL('/api/health', server)} within ${SERVER_HEALTH_MS / 1000} s`);
    return runGates(server, gates, build, timeoutMs, nothing);
  }
  const local = `http://127.0.0.1:${env.PORT}`;
  if (await healthy(local)) {
    say(`gate: using the stack running at ${local}`);
    return runGates(local, gates, build, timeoutMs, nothing);
  }
  say('gate: no server given and none running on localhost: starting the embedded stack (npm start)');
  const stack = await startEmbeddedStack();
  say(`gate: stack ready at ${stack.base}; it stops when the gate ends, so the link below works while \`npm start\` runs`);
  try {
    return await runGates(stack.base, gates, build, timeoutMs, () => stack.stop());
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
