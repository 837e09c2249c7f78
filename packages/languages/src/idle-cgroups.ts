// Idle cgroups: processes in a cgroup whose cpu.idle is 1 (what systemd's CPUWeight=idle sets) run only on
// cores nothing else wants, and the kernel preempts them as soon as another task wakes. Nice values and
// SCHED_IDLE do not do that on a machine with autogroups: a process started in a session of its own (a
// stack, PostgreSQL, a browser) competes as a whole group at normal weight. A runner leaves idle groups'
// CPU out of the machine's load (apps/runner/src/machine.ts); `npm test` runs files that judge no timing
// in one beside the files that must run alone (scripts/test.ts). Linux's cgroup v2 (cpu.idle and
// cpu.stat's usage_usec in one folder) and v1 (cpu.idle under the cpu hierarchy, the CPU time under
// cpuacct's, separate or mounted together).
import { type Dirent, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const CGROUP_ROOT = '/sys/fs/cgroup';

interface Layout {
  /** Where cpu.idle is. */
  cpu: string;
  /** Where a group's CPU time is, by the same relative path. */
  acct: string;
  /** A group's CPU time in ms, user and system, its exited processes' included. */
  cpuMs(dir: string): number;
  /** This process's group path in the cpu hierarchy, from /proc/self/cgroup. */
  self: string;
}

const read = (f: string) => readFileSync(f, 'utf8').trim();

function layoutOf(root: string, selfCgroup: string): Layout | undefined {
  try {
    if (existsSync(path.join(root, 'cgroup.controllers'))) {
      if (!read(path.join(root, 'cgroup.controllers')).split(/\s+/).includes('cpu')) return undefined;
      const self = /^0::(.*)$/m.exec(selfCgroup)?.[1] ?? '/';
      return { cpu: root, acct: root, cpuMs: (d) => Number(/^usage_usec (\d+)$/m.exec(read(path.join(d, 'cpu.stat')))?.[1]) / 1000, self };
    }
    const cpu = ['cpu', 'cpu,cpuacct'].map((n) => path.join(root, n)).find((d) => existsSync(path.join(d, 'cpu.shares')));
    const acct = ['cpuacct', 'cpu,cpuacct'].map((n) => path.join(root, n)).find((d) => existsSync(path.join(d, 'cpuacct.usage')));
    if (!cpu || !acct) return undefined;
    const self = /^\d+:[^:]*\bcpu\b[^:]*:(.*)$/m.exec(selfCgroup)?.[1] ?? '/';
    return { cpu, acct, cpuMs: (d) => Number(read(path.join(d, 'cpuacct.usage'))) / 1e6, self };
  } catch {
    return undefined;
  }
}

const selfCgroup = (): string => {
  try {
    return readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return '';
  }
};

/**
 * The CPU time (ms) of every idle group under `root`, by its path, leaving out any group this process is
 * in (a runner started in an idle group counts everything). Empty where cgroups cannot be read.
 */
export function idleCgroupsCpuMs(root = CGROUP_ROOT, self = selfCgroup()): Map<string, number> {
  const out = new Map<string, number>();
  const l = layoutOf(root, self);
  if (!l) return out;
  const walk = (rel: string, depth: number) => {
    const dir = path.join(l.cpu, rel);
    let names: Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (rel && names.some((e) => e.name === 'cpu.idle')) {
      const mine = `${l.self}/`.startsWith(`/${rel}/`);
      try {
        if (!mine && read(path.join(dir, 'cpu.idle')) === '1') out.set(rel, l.cpuMs(path.join(l.acct, rel)));
      } catch {
        // gone meanwhile, or no CPU time kept for it
      }
    }
    if (depth >= 6) return;
    for (const n of names.filter((e) => e.isDirectory()).map((e) => e.name)) walk(rel ? `${rel}/${n}` : n, depth + 1);
  };
  walk('', 0);
  return out;
}

/** A group of our own whose processes yield every core (cpu.idle 1) until `release`. */
export interface IdleCgroup {
  /** The command that runs `argv` inside the group (a shell writes its own pid into it, then becomes argv). */
  wrap(argv: [string, ...string[]]): [string, string[]];
  /** Moves a running process and every process under it into the group. */
  enterTree(pid: number): void;
  /** The group stops yielding: its processes compete like any others from now on (cpu.idle 0). */
  release(): void;
  /** Removes the group once its processes have ended. */
  remove(): void;
}

/** Creates the idle group `name` under `root`; undefined where this process may not (no cgroups, not root). */
export function createIdleCgroup(name: string, root = CGROUP_ROOT): IdleCgroup | undefined {
  const l = layoutOf(root, selfCgroup());
  if (!l) return undefined;
  // Groups of this name's kind left by runs that were killed: removed where empty (rmdir refuses others).
  const kind = name.replace(/-\d+$/, '-');
  for (const base of new Set([l.cpu, l.acct])) {
    try {
      for (const e of readdirSync(base, { withFileTypes: true })) if (e.isDirectory() && e.name.startsWith(kind) && e.name !== name) rmdirQuietly(path.join(base, e.name));
    } catch {
      // unreadable: nothing to tidy
    }
  }
  const dirs = [...new Set([path.join(l.cpu, name), path.join(l.acct, name)])];
  const procs = dirs.map((d) => path.join(d, 'cgroup.procs'));
  try {
    for (const d of dirs) mkdirSync(d, { recursive: true });
    writeFileSync(path.join(l.cpu, name, 'cpu.idle'), '1');
  } catch {
    for (const d of dirs) rmdirQuietly(d);
    return undefined;
  }
  return {
    wrap(argv) {
      // The group's files are "$1".."$n", argv follows: nothing of argv is read by the shell.
      const script = `${procs.map((_, i) => `echo $$ > "$${i + 1}"`).join(' && ')} && shift ${procs.length} && exec "$@"`;
      return ['sh', ['-c', script, 'sh', ...procs, ...argv]];
    },
    enterTree(pid) {
      for (const p of treeOf(pid))
        for (const f of procs) {
          try {
            writeFileSync(f, String(p));
          } catch {
            // gone meanwhile
          }
        }
    },
    release() {
      try {
        writeFileSync(path.join(l.cpu, name, 'cpu.idle'), '0');
      } catch {
        // removed already
      }
    },
    remove() {
      for (const d of dirs) rmdirQuietly(d);
    },
  };
}

function rmdirQuietly(d: string): void {
  try {
    rmdirSync(d);
  } catch {
    // processes left in it, or gone
  }
}

/** A process and every process under it, from /proc. */
function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}
