// The fake CLI in a process of its own, on free ports, as a user runs it: for benchmarks that keep the
// fake off their own process. Its admin API resets and reads its stats.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface FakeProcess {
  host: string;
  port: number;
  /** Forgets the stats so far (POST /reset). */
  reset(): Promise<void>;
  /** The fake's own added time per RPC since the last reset. */
  added(): Promise<{ p50Ms: number; p99Ms: number } | null>;
  stop(): void;
}

export async function startFakeProcess(latencyMs: number): Promise<FakeProcess> {
  const child = spawn(process.execPath, ['packages/fake-spanner/bin/fake-spanner.mjs', '--port', '0', '--admin-port', '0', '--latency', `${latencyMs}ms`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  const [, port, admin] = /listening on [^:]+:(\d+) .* on http:\/\/[^:]+:(\d+)/.exec(line)!;
  const api = `http://127.0.0.1:${admin}`;
  return {
    host: '127.0.0.1',
    port: Number(port),
    reset: async () => void (await fetch(`${api}/reset`, { method: 'POST' })),
    added: async () => ((await (await fetch(`${api}/stats`)).json()) as { added?: { p50Ms: number; p99Ms: number } }).added ?? null,
    stop: () => void child.kill(),
  };
}
