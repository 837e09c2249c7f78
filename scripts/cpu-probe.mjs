// Loaded into every test file's process by `npm test` (scripts/test.ts): when the file's process exits, it
// appends the CPU time it and the processes it waited for used (its drivers, the stacks it started) to
// SCB_TEST_CPU_FILE, so the run can say which files load the machine and which mostly wait.
import { appendFileSync, readFileSync } from 'node:fs';
import { sourceOf } from './test-sources.mjs';

const out = process.env.SCB_TEST_CPU_FILE;
// A bundled file (scripts/test-bundles.ts) is named by its source.
const file = sourceOf(process.argv[1]);
if (out && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      // utime, stime, cutime, cstime: clock ticks of 10 ms (Linux's USER_HZ).
      const [utime, stime, cutime, cstime] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(11, 15)
        .map(Number);
      appendFileSync(out, `${JSON.stringify({ file, cpuMs: (utime + stime + cutime + cstime) * 10 })}\n`);
    } catch {
      // Not Linux: no CPU times, the run goes on.
    }
  });
}

// A unit test file starts no process (no driver, no PostgreSQL, no server): the unit tier fails it here,
// naming the call, so it moves to test/integration.
if (process.env.SCB_TEST_TIER === 'unit' && file?.endsWith('.test.ts')) {
  const { createRequire, syncBuiltinESMExports } = await import('node:module');
  const childProcess = createRequire(import.meta.url)('node:child_process');
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    childProcess[name] = () => {
      throw new Error(`${file}: a unit test file starts no process (child_process.${name}): move it to test/integration`);
    };
  }
  syncBuiltinESMExports();
}
