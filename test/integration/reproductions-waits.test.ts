// test: waits
// Reproductions whose smallest form mostly waits: a cell held until its deadline, a keepalive's ping and
// its timeout. They run in the test lane for waiting files (scripts/test.ts), beside the others.
import { test } from 'node:test';
import { useRunner } from '../helpers/jobs';
import { reproduce, shorter } from '../helpers/reproductions';

const runner = useRunner();

// 200 operations measured, not 2 s: 8.3.1's cell waits for its deadline whatever it was asked to run, and
// 8.4.0 served some 1,600 in 2 s (C=20 on 10 ms queries) where 200 show its error share as well.
test('Node 8.3.1 serves nothing after a failed multiplexed CreateSession; 8.4.0 does', { timeout: 600_000 }, () =>
  reproduce(runner, 'node-mux-session-error-hang', (s) => {
    const { durationSeconds: _seconds, ...workload } = shorter(s).workload;
    return { ...s, workload: { ...workload, measuredOps: 200 } };
  }),
);

test('Node 7.10.0 never notices a blackholed connection; 7.14.0’s keepalive finds it within 30 s + 10 s', { timeout: 600_000 }, () =>
  // The smallest form is the entry itself: 7.10.0's cell lasts until its deadline whatever the duration.
  reproduce(runner, 'node-keepalive-blackhole', (s) => ({ ...s, workload: { ...s.workload, warmupOps: 20, durationSeconds: 4 } })),
);
