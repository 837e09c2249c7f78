// Python's calibration builds (bench:calibrate --injection busy|wait): the snippet a slowed build's
// modules gain makes each patched method take the delay, a busy one's on the CPU with the GIL held, a
// waiting one's asleep; both answer as before. Runs python3, so it is no unit test (no processes there).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { pythonDelaySnippet } from '../../src/index';
import { PYTHON, pythonToolchain } from '../../src/python/install';

test("python: a busy build's methods spend the delay on the CPU, a waiting one's asleep; both answer as before", { skip: (await pythonToolchain()) === null && 'no python3 >= 3.9' }, () => {
  const classes = { Snapshot: ['execute_sql'] };
  const script = (injection: 'wait' | 'busy') =>
    [
      'import time',
      'class Snapshot:',
      '    def execute_sql(self, sql):',
      '        return "rows of " + sql',
      pythonDelaySnippet(classes, 40, injection),
      'c0, t0 = time.process_time(), time.perf_counter()',
      'answer = Snapshot().execute_sql("SELECT 1")',
      'print(answer, round((time.process_time() - c0) * 1000, 3), round((time.perf_counter() - t0) * 1000, 3))',
    ].join('\n');
  const run = (injection: 'wait' | 'busy') => {
    const out = execFileSync(PYTHON, ['-c', script(injection)], { encoding: 'utf8' }).trim();
    const [, cpu, wall] = /^rows of SELECT 1 ([0-9.]+) ([0-9.]+)$/.exec(out) ?? assert.fail(`${injection}: ${out}`);
    return { cpu: Number(cpu), wall: Number(wall) };
  };
  const busy = run('busy');
  const wait = run('wait');
  // Both take the delay; only the busy one spends it on the CPU.
  assert.ok(busy.wall >= 39 && wait.wall >= 39, `busy ${busy.wall} ms, wait ${wait.wall} ms`);
  assert.ok(busy.cpu > wait.cpu && busy.cpu >= 5, `busy used ${busy.cpu} ms of CPU, wait ${wait.cpu} ms`);
});
