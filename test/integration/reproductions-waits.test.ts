// test: waits
// Reproductions whose smallest form mostly waits: a cell held until its deadline, a keepalive's ping and
// its timeout. They run in the test lane for waiting files (scripts/test.ts), beside the others.
import { test } from 'node:test';
import { useRunner } from '../helpers/jobs';
import { reproduce, shorter } from '../helpers/reproductions';

const runner = useRunner();

test('Node 8.3.1 serves nothing after a failed multiplexed CreateSession; 8.4.0 does', { timeout: 600_000 }, () => reproduce(runner, 'node-mux-session-error-hang', shorter));

test('Node 7.10.0 never notices a blackholed connection; 7.14.0’s keepalive finds it within 30 s + 10 s', { timeout: 600_000 }, () =>
  // The smallest form is the entry itself: 7.10.0's cell lasts until its deadline whatever the duration.
  reproduce(runner, 'node-keepalive-blackhole', (s) => ({ ...s, workload: { ...s.workload, warmupOps: 20, durationSeconds: 4 } })),
);
