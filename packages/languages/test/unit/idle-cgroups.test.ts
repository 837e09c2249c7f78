// Idle cgroups read from a cgroup tree laid out as Linux lays it out (v1: the cpu and cpuacct
// hierarchies; v2: one), in a temporary folder: which groups count as idle, their CPU time, the group a
// process is in left out, and the group `npm test` makes.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createIdleCgroup, idleCgroupsCpuMs } from '../../src/idle-cgroups';

const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'scb-cgroups-'));
  roots.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), text);
  }
  return root;
}

const V1_SELF = '4:memory:/x\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n0::/\n';

test('v1: each group whose cpu.idle is 1, with its CPU time from the cpuacct hierarchy; groups that do not yield are left out', () => {
  const root = tree({
    'cpu/cpu.shares': '1024',
    'cpuacct/cpuacct.usage': '999000000000',
    'cpu/batch/cpu.idle': '1',
    'cpuacct/batch/cpuacct.usage': '2500000000',
    'cpu/batch/nightly/cpu.idle': '1',
    'cpuacct/batch/nightly/cpuacct.usage': '1000000',
    'cpu/web/cpu.idle': '0',
    'cpuacct/web/cpuacct.usage': '7000000000',
  });
  assert.deepEqual(
    idleCgroupsCpuMs(root, V1_SELF),
    new Map([
      ['batch', 2500],
      ['batch/nightly', 1],
    ]),
  );
});

test('v1 with cpu and cpuacct mounted together', () => {
  const root = tree({ 'cpu,cpuacct/cpu.shares': '1024', 'cpu,cpuacct/cpuacct.usage': '1', 'cpu,cpuacct/g/cpu.idle': '1', 'cpu,cpuacct/g/cpuacct.usage': '3000000' });
  assert.deepEqual(idleCgroupsCpuMs(root, '1:cpu,cpuacct:/\n'), new Map([['g', 3]]));
});

test('v2: cpu.idle and cpu.stat usage_usec in one folder; nothing where the cpu controller is not enabled', () => {
  const files = {
    'cgroup.controllers': 'cpuset cpu io memory pids',
    'system.slice/backup.service/cpu.idle': '1',
    'system.slice/backup.service/cpu.stat': 'usage_usec 4200\nuser_usec 4000\nsystem_usec 200\n',
    'system.slice/cpu.idle': '0',
    'system.slice/cpu.stat': 'usage_usec 99999999\n',
  };
  assert.deepEqual(idleCgroupsCpuMs(tree(files), '0::/user.slice\n'), new Map([['system.slice/backup.service', 4.2]]));
  assert.deepEqual(idleCgroupsCpuMs(tree({ ...files, 'cgroup.controllers': 'memory pids' }), '0::/\n'), new Map());
});

test('a process inside an idle group counts it: its own work is not background work', () => {
  const root = tree({ 'cgroup.controllers': 'cpu', 'runners/cpu.idle': '1', 'runners/cpu.stat': 'usage_usec 1000\n', 'other/cpu.idle': '1', 'other/cpu.stat': 'usage_usec 2000\n' });
  assert.deepEqual(idleCgroupsCpuMs(root, '0::/runners/r1\n'), new Map([['other', 2]]));
  assert.deepEqual(idleCgroupsCpuMs(root, '0::/runnersX\n').size, 2, 'a group whose name merely begins the same is not the process’s');
});

test('no cgroups (another OS, an unreadable folder): nothing is left out', () => {
  assert.deepEqual(idleCgroupsCpuMs(path.join(os.tmpdir(), 'scb-no-such-cgroup-root'), ''), new Map());
});

test('the group npm test makes: idle until released, in both v1 hierarchies, and a command that enters it before it runs', () => {
  const root = tree({ 'cpu/cpu.shares': '1024', 'cpuacct/cpuacct.usage': '1' });
  // An empty group a killed run left is removed; one with files (a live group, here) stays.
  mkdirSync(path.join(root, 'cpu/scb-test-999'));
  mkdirSync(path.join(root, 'cpu/scb-test-998'));
  writeFileSync(path.join(root, 'cpu/scb-test-998/cgroup.procs'), '1234');
  const g = createIdleCgroup('scb-test-1', root)!;
  assert.ok(!existsSync(path.join(root, 'cpu/scb-test-999')));
  assert.ok(existsSync(path.join(root, 'cpu/scb-test-998')));
  assert.ok(g);
  assert.equal(readFileSync(path.join(root, 'cpu/scb-test-1/cpu.idle'), 'utf8'), '1');
  const [command, args] = g.wrap(['/usr/bin/node', '--test', 'a b.test.ts']);
  assert.equal(command, 'sh');
  // The script is fixed; the group's files and the command are its arguments, never part of it.
  assert.deepEqual(args.slice(2), ['sh', path.join(root, 'cpu/scb-test-1/cgroup.procs'), path.join(root, 'cpuacct/scb-test-1/cgroup.procs'), '/usr/bin/node', '--test', 'a b.test.ts']);
  assert.equal(args[1], 'echo $$ > "$1" && echo $$ > "$2" && shift 2 && exec "$@"');
  g.release();
  assert.equal(readFileSync(path.join(root, 'cpu/scb-test-1/cpu.idle'), 'utf8'), '0');
});
