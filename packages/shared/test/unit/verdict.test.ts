import assert from 'node:assert/strict';
import test from 'node:test';
import { jobMarkdown, judgeCell, parseJobSpec, verdictReasons, type SaturationFigures, type TableCell } from '../../src/index';

// A 2-core machine, 10 s measured: cpuMs 2000 is 10% of the machine.
const quiet: SaturationFigures = {
  cpuMs: 2000,
  elapsedMs: 10_000,
  p50Ms: 70,
  p99Ms: 80,
  driverLoopUtilization: 0.3,
  targetLoopUtilization: 0.2,
  targetAddedP50Ms: 0.3,
  targetAddedP99Ms: 1.2,
  machineBusyShare: 0.35,
  machineRunnerShare: 0.15,
};
const judge = (over: Partial<SaturationFigures>) => judgeCell({ ...quiet, ...over }, 2);

test('a cell where nothing was saturated is clean', () => {
  assert.deepEqual(judge({}), { kind: 'clean', limits: [] });
});

test('a Node driver whose loop was busy is client-bound, whatever share of the machine it used', () => {
  const v = judge({ driverLoopUtilization: 0.86, cpuMs: 9000 });
  assert.equal(v.kind, 'client-bound');
  assert.deepEqual(
    v.limits.map((l) => l.name),
    ['driverLoop'],
  );
  assert.match(verdictReasons(v), /driver's event loop busy 86% \(over 80%\)/);
});

test('a multi-threaded driver using most of the cores is client-bound, and the full machine is its own doing', () => {
  const v = judge({ driverLoopUtilization: null, cpuMs: 18_000, machineBusyShare: 0.99, machineRunnerShare: 0.05 });
  assert.equal(v.kind, 'client-bound');
  assert.deepEqual(
    v.limits.map((l) => l.name),
    ['driverCpu'],
  );
});

test('one agent whose driver used a whole core (a scan decoding) is client-bound on two cores; the same CPU over two agents is not', () => {
  // 9.5 s of CPU in 10 s: 0.95 cores, 48% of the machine, under the 85% any driver needs on its own.
  const one = judge({ driverLoopUtilization: null, cpuMs: 9500, agents: 1 });
  assert.equal(one.kind, 'client-bound');
  assert.match(verdictReasons(one), /driver used 0\.95 cores per agent \(over 0\.8\): each agent was busy in the client/);
  assert.equal(judge({ driverLoopUtilization: null, cpuMs: 9500, agents: 2 }).kind, 'clean');
  assert.equal(judge({ driverLoopUtilization: null, cpuMs: 9500 }).kind, 'clean', 'an open loop has no agents');
});

test("the fake's busy thread or its added time makes the cell harness-bound, even when the client was busy too", () => {
  assert.deepEqual(
    judge({ targetLoopUtilization: 0.9 }).limits.map((l) => l.name),
    ['targetLoop'],
  );
  assert.equal(judge({ targetAddedP50Ms: 7.5 }).kind, 'harness-bound');
  assert.equal(judge({ targetAddedP50Ms: 3 }).kind, 'clean', 'a few ms of a 70 ms p50 is not the fake limiting the cell');
  // p99 80 ms: the fake may add up to 8 ms of it.
  assert.equal(judge({ targetAddedP99Ms: 9 }).kind, 'harness-bound');
  assert.match(verdictReasons(judge({ targetAddedP99Ms: 9 })), /fake added 11% of the client's p99 \(over 10%\)/);
  assert.equal(judge({ targetAddedP99Ms: 8 }).kind, 'clean', 'at the threshold is not past it');
  assert.equal(judge({ targetLoopUtilization: 0.75 }).kind, 'clean');
  const both = judge({ targetLoopUtilization: 0.95, driverLoopUtilization: 0.9 });
  assert.equal(both.kind, 'harness-bound');
  assert.deepEqual(
    both.limits.map((l) => l.process),
    ['fake', 'driver'],
    "the harness's limits come first",
  );
});

test('other processes taking the machine, or a machine full without the client filling it, make it harness-bound', () => {
  // busy 70% = runner 15% + driver 10% + others 45%
  const others = judge({ machineBusyShare: 0.7 });
  assert.equal(others.kind, 'harness-bound');
  assert.equal(others.limits[0]!.name, 'machineOther');
  assert.ok(Math.abs(others.limits[0]!.value - 0.45) < 1e-9);
  assert.match(verdictReasons(others), /other processes used 45% of the machine/);
  assert.deepEqual(
    judge({ machineBusyShare: 0.97, machineRunnerShare: 0.5, cpuMs: 7000 }).limits.map((l) => l.name),
    ['machineBusy'],
  );
});

test("a target in a process of its own is the harness: its CPU is named, not counted as other processes'", () => {
  // busy 70% = runner 5% + driver 10% + emulator 50% + others 5%
  const v = judge({ machineBusyShare: 0.7, machineRunnerShare: 0.05, targetCpuShare: 0.5 });
  assert.equal(v.kind, 'harness-bound');
  assert.deepEqual(
    v.limits.map((l) => `${l.process}:${l.name}`),
    ['target:targetCpu'],
  );
  assert.match(verdictReasons(v), /the target's process used 50% of the machine \(over 25%\)/);
  assert.equal(judge({ machineBusyShare: 0.4, machineRunnerShare: 0.05, targetCpuShare: 0.2 }).kind, 'clean');
});

test('a cell stored before these figures were measured is judged on what it has', () => {
  const old = { cpuMs: 2000, elapsedMs: 10_000, p50Ms: 70, p99Ms: 80 };
  assert.equal(judgeCell(old, 2).kind, 'clean');
  assert.equal(judgeCell({ ...old, cpuMs: 18_000 }, 2).kind, 'client-bound');
  assert.equal(judgeCell({ ...old, cpuMs: 18_000 }, 0).kind, 'clean', 'unknown cores: no CPU judgement');
});

test('Markdown marks bound cells in the table, explains the marks and lists each bound cell with its figures', () => {
  const spec = parseJobSpec({ clients: [{ language: 'node', version: '9.0.0' }], configurations: [{ label: 'on', grpcGcp: 'on' }], concurrency: [10, 50, 400], workload: { durationSeconds: 3 } });
  assert.ok(spec.ok);
  const cell = (concurrency: number, figures: Partial<SaturationFigures>): TableCell => {
    const v = judge(figures);
    const result = { qps: concurrency * 10, p50Ms: 80, p99Ms: 90 };
    return { client: { language: 'node', version: '9.0.0' }, configuration: { label: 'on' }, concurrency, repeat: 1, status: 'succeeded', result, verdict: v.kind, verdictReasons: verdictReasons(v) };
  };
  const md = jobMarkdown({
    id: 'j1',
    url: 'http://x/jobs/j1',
    spec: spec.value,
    environment: { cores: 2 },
    cells: [cell(10, {}), cell(50, { targetLoopUtilization: 0.9 }), cell(400, { driverLoopUtilization: 0.95 })],
  });
  assert.match(md, /\| 10 \| 100 \/ 80\.0 \/ 90\.0 \|/);
  assert.match(md, /\| 50 \| 500 \/ 80\.0 \/ 90\.0 ! \|/);
  assert.match(md, /\| 400 \| 4000 \/ 80\.0 \/ 90\.0 \* \|/);
  assert.match(md, /`\*` client-bound: .*`!` harness-bound: .*must not be compared/);
  assert.match(md, /- `!` node 9\.0\.0 · on, C=50, repeat 1: fake's thread busy 90% \(over 75%\)/);
  assert.match(md, /- `\*` node 9\.0\.0 · on, C=400, repeat 1: driver's event loop busy 95% \(over 80%\)/);
  assert.doesNotMatch(md, /C=10, repeat 1/);
});

test("an open loop's driver late past its goal and a tenth of the p50 is harness-bound, saying so; late by less, it is not", () => {
  const open = { ...quiet, p50Ms: 5, p99Ms: 20, scheduleLagGoalMs: 1 };
  const late = judgeCell({ ...open, scheduleLagP99Ms: 2.5 }, 2);
  assert.equal(late.kind, 'harness-bound');
  assert.match(verdictReasons(late), /driver started operations 2\.5 ms late at p99 \(over 1 ms: its goal, or a tenth of the p50\)/);
  assert.equal(judgeCell({ ...open, scheduleLagP99Ms: 0.8 }, 2).kind, 'clean', 'within the goal');
  assert.equal(judgeCell({ ...open, p50Ms: 280, p99Ms: 430, scheduleLagP99Ms: 2.5 }, 2).kind, 'clean', 'a tenth of a 280 ms p50 is 28 ms');
  assert.equal(judgeCell({ ...open, scheduleLagGoalMs: 5, scheduleLagP99Ms: 2.5 }, 2).kind, 'clean', "Node's goal is 5 ms");
});

test("a fake measured on the wire is weighed by the wire's figure, not its own clock's", () => {
  // Go 1.96.1 at C=400 (bench:fake-wire): the fake's own p99 7 ms, the wire's 17 ms, the client's p99 85 ms.
  const go = { ...quiet, p50Ms: 68, p99Ms: 85, targetAddedP50Ms: 0.15, targetAddedP99Ms: 7 };
  assert.equal(judge(go).kind, 'clean', 'its own clock: 8% of the p99');
  const v = judge({ ...go, targetWireAddedP50Ms: 1.2, targetWireAddedP99Ms: 17 });
  assert.equal(v.kind, 'harness-bound');
  assert.equal(verdictReasons(v), "fake added 20% of the client's p99 on the wire (over 10%)");
});
