// Talking to a spanner-client-bench server about gates: find or start a server, queue a gate, follow
// its cells, wait for the verdict. Used by `npm run gate` and the trustworthiness benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isFinishedCell } from '@scb/shared';
import { nodeArgs } from './test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let bearer: string | undefined;

/** The API token every request of this process presents (--token / SCB_TOKEN): a team server needs one to write. */
export function useToken(token: string | undefined): void {
  bearer = token;
}

const auth = (): Record<string, string> => (bearer ? { authorization: `Bearer ${bearer}` } : {});
const JSON_HEADERS = () => ({ 'content-type': 'application/json', ...auth() });

/** A failure to show as one line, without a stack trace. */
export class CliError extends Error {}

/** Whether a spanner-client-bench answers /api/health at `base` within `timeoutMs` (a refused connection answers at once). */
export async function healthy(base: string, timeoutMs = 2000): Promise<boolean> {
  try {
    return (await fetch(new URL('/api/health', base), { signal: AbortSignal.timeout(timeoutMs) })).ok;
  } catch {
    return false;
  }
}

export interface StartedStack {
  base: string;
  stop(): Promise<void>;
}

/** The README's start command as a child process, until it says it is ready. */
export async function startEmbeddedStack(env: NodeJS.ProcessEnv = process.env): Promise<StartedStack> {
  const child: ChildProcess = spawn(process.execPath, nodeArgs('scripts/start.ts'), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new CliError(`the stack was not ready within 5 minutes:\n${lines.slice(-20).join('\n')}`));
    }, 300_000);
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
  return {
    base,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise<void>((r) => setTimeout(r, 30_000).unref())]);
    },
  };
}

export interface GateCell {
  index: number;
  status: string;
  error: string | null;
  concurrency: number;
  repeat: number;
  client: { version: string };
  /** baseline or candidate */
  arm: string | null;
  result: { qps: number; p50Ms: number; p99Ms: number } | null;
  channelSummary: { hottestShare: number; hottestPeakInFlight: number };
}

export interface CreatedGate {
  id: string;
  url: string;
  jobId: string;
}

/** GET `url` as JSON with the token; a refusal is a CliError carrying the server's `error`. */
export async function getJson<T>(url: URL): Promise<T> {
  const res = await fetch(url, { headers: auth(), signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new CliError(`GET ${url.pathname}: HTTP ${res.status}: ${(await jsonOrError(res)).error ?? ''}`);
  return (await res.json()) as T;
}

async function jsonOrError(res: Response): Promise<Record<string, unknown>> {
  if (res.headers.get('content-type')?.includes('json')) return (await res.json()) as Record<string, unknown>;
  return { error: `HTTP ${res.status} ${(await res.text()).slice(0, 200)}` };
}

export interface UploadedBuild {
  id: string;
  language: string;
  module: string;
  version: string;
  label: string | null;
  bytes: number;
  url: string;
}

/** POST /api/artifacts: the build's bytes as the body; the server's refusal says why it is not taken. */
export async function uploadBuild(base: string, bytes: Buffer, language: string, label: string | undefined): Promise<UploadedBuild> {
  const url = new URL('/api/artifacts', base);
  url.searchParams.set('language', language);
  if (label !== undefined) url.searchParams.set('label', label);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...auth() }, body: new Uint8Array(bytes), signal: AbortSignal.timeout(300_000) });
  const body = (await jsonOrError(res)) as Partial<UploadedBuild> & { error?: string; issues?: { path: string; message: string }[] };
  if (!res.ok || !body.id) {
    throw new CliError(`the server refused the build: ${body.error ?? `HTTP ${res.status}`}${body.issues ? `\n${body.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}` : ''}`);
  }
  return body as UploadedBuild;
}

/** POST /api/gates; the server's refusal names every bad field. */
export async function submitGate(base: string, gate: unknown): Promise<CreatedGate> {
  const res = await fetch(new URL('/api/gates', base), { method: 'POST', headers: JSON_HEADERS(), body: JSON.stringify(gate), signal: AbortSignal.timeout(30_000) });
  const body = (await jsonOrError(res)) as Partial<CreatedGate> & { error?: string; issues?: { path: string; message: string }[] };
  if (!res.ok || !body.id || !body.url || !body.jobId) {
    throw new CliError(`the server refused the gate: ${body.error ?? `HTTP ${res.status}`}${body.issues ? `\n${body.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}` : ''}`);
  }
  return { id: body.id, url: body.url, jobId: body.jobId };
}

export function cancelGateJob(base: string, gate: CreatedGate): Promise<unknown> {
  return fetch(new URL(`/api/jobs/${gate.jobId}/cancel`, base), { method: 'POST', headers: JSON_HEADERS(), body: '{}', signal: AbortSignal.timeout(10_000) });
}

export interface WaitOptions {
  /** Gives up with a CliError when there is no verdict by then. */
  timeoutMs: number;
  /** Sees each cell once, when it has ended. */
  onCell: (c: GateCell, done: number, total: number) => void;
  /** Told every few minutes that the gate is still queued or being evaluated. */
  onWaiting?: (status: string) => void;
}

/** How often the gate is polled: 5 s, or SCB_GATE_POLL_MS (the tests' short gates take 1 s, so that a finished gate is not waited on for seconds). */
export function pollMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.SCB_GATE_POLL_MS?.trim();
  if (!v) return 5000;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 200 || n > 60_000) throw new CliError(`SCB_GATE_POLL_MS must be a whole number of milliseconds from 200 to 60000, not "${v}"`);
  return n;
}

/**
 * Polls the gate (small) every 5 s (pollMs) and its job (every cell) only when a cell has ended: the
 * cells being measured share this machine.
 */
export async function waitForVerdict(base: string, gate: CreatedGate, o: WaitOptions): Promise<{ verdict: string; markdown: string }> {
  const every = pollMs();
  const seen = new Set<number>();
  const t0 = Date.now();
  let lastDone = 0;
  let stuckSince = Date.now();
  for (;;) {
    const g = await getJson<{ status: string; verdict: string | null; job: { cellsDone: number } }>(new URL(`/api/gates/${gate.id}`, base));
    if (g.job.cellsDone !== lastDone || (g.status === 'finished' && seen.size < g.job.cellsDone)) {
      lastDone = g.job.cellsDone;
      stuckSince = Date.now();
      const job = await getJson<{ cells: GateCell[] }>(new URL(`/api/jobs/${gate.jobId}`, base));
      for (const c of job.cells) {
        if (seen.has(c.index) || !isFinishedCell(c.status)) continue;
        seen.add(c.index);
        o.onCell(c, seen.size, job.cells.length);
      }
    }
    if (g.status === 'finished' && g.verdict) {
      const markdown = await fetch(new URL(`/api/gates/${gate.id}/markdown`, base), { headers: auth() }).then((r) => r.text());
      return { verdict: g.verdict, markdown };
    }
    if (Date.now() - t0 > o.timeoutMs) throw new CliError(`no verdict within ${Math.round(o.timeoutMs / 60_000)} minutes (gate ${g.status}); it goes on at ${gate.url}`);
    if ((g.status === 'queued' || g.status === 'evaluating') && Date.now() - stuckSince > 120_000) {
      o.onWaiting?.(g.status);
      stuckSince = Date.now();
    }
    await new Promise((r) => setTimeout(r, every));
  }
}

/** "baseline 6.104.0 C=400 repeat 2: 597 qps, p50 654.0 ms, p99 775.0 ms" or the cell's failure. */
export function cellLine(c: GateCell): string {
  const what = `${c.arm} ${c.client.version} C=${c.concurrency} repeat ${c.repeat}`;
  const r = c.result;
  return `${what}: ${r ? `${r.qps.toFixed(0)} qps, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms` : `${c.status}${c.error ? `: ${c.error}` : ''}`}`;
}
