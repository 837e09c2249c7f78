import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeArgs } from '../../scripts/test-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Tests poll their short gates every second (SCB_GATE_POLL_MS), not every 5 s: a finished gate is not waited on. */
export const TEST_GATE_POLL_ENV = { SCB_GATE_POLL_MS: process.env.SCB_GATE_POLL_MS ?? '1000' };

/** A bundled command of the repository (`source`, from its root) as CI runs it, polling every second (TEST_GATE_POLL_ENV): its exit code and output. */
export function repoCommand(source: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs(source), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...TEST_GATE_POLL_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm run gate -- ...` as CI runs it; resolves with its exit code and output. */
export const gateCli = (args: string[]) => repoCommand('scripts/gate.ts', args);
