// A fresh emulator process on a free port, ready when it accepts connections.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { TargetError } from '@scb/shared/target-plugin';
import { freePort } from '@scb/languages/local';

export interface EmulatorProcess {
  port: number;
  pid: number | undefined;
  stop(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = net.connect({ host: '127.0.0.1', port }, () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

/** Starts `binary` on a free port of 127.0.0.1; fails with its last output when it exits or does not listen within the time. */
export async function startEmulatorProcess(binary: string, readyWithinMs = 30_000): Promise<EmulatorProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['--host_port', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr!.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-2000)));
  let exited: string | null = null;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = signal ?? `code ${code}`;
      resolve();
    }),
  );
  child.once('error', (e) => (exited = e.message));
  const stop = async () => {
    if (exited === null) child.kill('SIGKILL');
    await exit;
  };
  const t0 = performance.now();
  while (!(await accepts(port))) {
    if (exited !== null || performance.now() - t0 > readyWithinMs) {
      await stop();
      const why = tail.trim().split('\n').slice(-3).join(' ');
      throw new TargetError(`the emulator (${binary}) ${exited !== null ? `exited (${exited})` : `did not listen within ${readyWithinMs / 1000} s`}${why ? `: ${why}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, pid: child.pid, stop };
}
