// The sandbox an uploaded build's Driver runs in (bubblewrap): its own network, pid, ipc and uts
// namespaces, no capability, a filesystem of the system's programs and the folders it is given, all
// read-only but its own work folder, and no network but the Target's addresses, bridged through Unix
// sockets: the Runner listens on one per address and relays to the real one; inside, the sandbox's
// first process (sandbox-relay.mjs) listens on the same host:port on loopback and relays to the socket,
// so the Cell the Driver reads is unchanged. Each connection stays its own TCP connection to the Target
// (a Target that counts connections counts the Driver's). Started as root, the Driver runs as nobody.
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverLaunch } from '@scb/languages';
import type { DriverCell } from '@scb/shared';

export interface SandboxOptions {
  /** The only writable folder (a fresh per-Cell temporary folder): also the Driver's HOME, TMPDIR and working folder. */
  workDir: string;
  /**
   * Files and folders the Driver may read besides the system's programs and libraries (which the
   * sandbox adds itself): the installed client, the Driver's build, its sources, the JDK...
   */
  readOnly: string[];
  /** TCP addresses the Driver must reach (the Cell's Target, a metadata server): loopback addresses only; nothing else is reachable. */
  bridge: { host: string; port: number }[];
}

export interface Sandbox {
  /** Spawn it in place of the Driver's own launch (same stdin, stdout and stderr). */
  launch: DriverLaunch;
  /** Closes the bridges and removes their sockets; call it once the Driver has exited. */
  stop(): Promise<void>;
}

/** Where the Driver's processes run when the sandbox begins as root: nobody, owning only the work folder. */
const NOBODY = 65534;
const RELAY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-relay.mjs');
/** Inside the sandbox: the bridge's sockets and the relay. */
const INSIDE_SOCKETS = '/run/scb-bridge';
const INSIDE_RELAY = '/run/scb-relay.mjs';
/** The sandbox's own /tmp, in memory: what a runtime keeps there (the JVM's perf data), not the Driver's files (TMPDIR is the work folder). */
const TMP_BYTES = 64 * 2 ** 20;

/** What programs need of /etc: the dynamic linker's cache, TLS roots, `alternatives` links (java), the time zone. */
const SYSTEM_ETC = ['ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'ssl', 'ca-certificates', 'pki', 'crypto-policies', 'alternatives', 'localtime', 'timezone'];
/** The top-level folders of the system's programs: a link where the host has a link (merged /usr), else the folder. */
const SYSTEM_TOP = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

const ROOT = () => process.getuid?.() === 0;

interface Bwrap {
  path: string;
  /** --disable-userns (0.8 and later): no user namespace inside. */
  disableUserns: boolean;
  /** --size (0.7 and later): a tmpfs of bounded size. */
  tmpfsSize: boolean;
}

/** The bwrap on PATH and what it can do, or null where there is none. */
let found: Bwrap | null | undefined;
function bwrapOnPath(): Bwrap | null {
  if (found !== undefined) return found;
  found = null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, 'bwrap');
    try {
      accessSync(p, constants.X_OK);
    } catch {
      continue;
    }
    const help = spawnSync(p, ['--help'], { encoding: 'utf8', timeout: 10_000 });
    const options = `${help.stdout}${help.stderr}`;
    found = { path: p, disableUserns: options.includes('--disable-userns'), tmpfsSize: options.includes('--size') };
    break;
  }
  return found;
}

/** Loopback only: the sandbox can listen on nothing else. `localhost` is both 127.0.0.1 and ::1. */
function insideAddresses(host: string, port: number, socket: string): { host: string; port: number; socket: string; optional?: boolean }[] {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`sandbox bridge: port ${port} of ${host} is not a TCP port`);
  if (h === 'localhost')
    return [
      { host: '127.0.0.1', port, socket },
      { host: '::1', port, socket, optional: true },
    ];
  const v4 = h.replace(/^::ffff:/, '');
  if (net.isIPv4(v4) && v4.startsWith('127.')) return [{ host: v4, port, socket }];
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return [{ host: '::1', port, socket }];
  throw new Error(`sandbox bridge: ${host} is not a loopback address (127.0.0.0/8, ::1 or localhost): a sandboxed Driver reaches only Targets on this machine`);
}

const inside = (p: string, dir: string) => dir === '/' || p === dir || p.startsWith(`${dir}/`);

/** Paths outside one another, shortest first (a folder given covers what is inside it). */
function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths.map((p) => path.resolve(p)))].sort();
  const kept: string[] = [];
  for (const p of sorted) if (!kept.some((k) => inside(p, k))) kept.push(p);
  return kept;
}

/**
 * bwrap's mount operations in order, each preceded by the folders above its destination that nothing
 * mounted yet provides: made world-traversable (bwrap's own are mode 700, which nobody cannot pass).
 */
class Mounts {
  readonly args: string[] = [];
  private readonly made = new Set<string>(['/']);
  /** Destinations backed by a host folder: what is under them is the host's. */
  private readonly bound: string[] = [];

  private parents(dest: string): void {
    const parts = dest.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const dir = `/${parts.slice(0, i).join('/')}`;
      if (this.made.has(dir) || this.bound.some((b) => inside(dir, b))) continue;
      this.args.push('--perms', '0755', '--dir', dir);
      this.made.add(dir);
    }
  }

  bind(option: '--ro-bind' | '--ro-bind-try' | '--bind', src: string, dest = src): void {
    this.parents(dest);
    this.args.push(option, src, dest);
    this.made.add(dest);
    this.bound.push(dest);
  }

  /** A tmpfs, /proc, /dev, a link: made here, empty or synthetic. */
  make(args: string[], dest: string): void {
    this.parents(dest);
    this.args.push(...args, dest);
    this.made.add(dest);
  }
}

/** The bwrap arguments of the file system: the system's, the given folders read-only, the work folder writable. */
function fileSystem(bwrap: Bwrap, opts: SandboxOptions, support: string, sockets: string, root: boolean): string[] {
  const m = new Mounts();
  m.bind('--ro-bind', '/usr');
  for (const top of SYSTEM_TOP) {
    const p = `/${top}`;
    if (!existsSync(p)) continue;
    if (lstatSync(p).isSymbolicLink()) m.make(['--symlink', readlinkSync(p)], p);
    else m.bind('--ro-bind', p);
  }
  for (const name of SYSTEM_ETC) m.bind('--ro-bind-try', `/etc/${name}`);
  for (const name of ['hosts', 'passwd', 'group', 'nsswitch.conf']) m.bind('--ro-bind', path.join(support, name), `/etc/${name}`);
  m.make(['--proc'], '/proc');
  m.make(['--dev'], '/dev');
  // A fresh /tmp (a small tmpfs) before the folders, which may be under the host's /tmp.
  m.make(['--perms', '1777', ...(bwrap.tmpfsSize ? ['--size', String(TMP_BYTES)] : []), '--tmpfs'], '/tmp');
  // The Node that runs the relay (a Node outside /usr: its whole installation).
  const node = realpathSync(process.execPath);
  const readOnly = [...opts.readOnly, ...(inside(node, '/usr') ? [] : [path.dirname(path.dirname(node))])];
  for (const p of outermost(readOnly)) {
    if (inside(opts.workDir, p)) throw new Error(`sandbox: ${p} (readOnly) holds the work folder ${opts.workDir}: it would show what is beside it (other cells' folders)`);
    if (inside(p, '/usr') || inside(p, opts.workDir)) continue;
    if (!existsSync(p)) throw new Error(`sandbox: ${p} (readOnly) does not exist`);
    // The Driver runs as nobody: what it is given must be readable by others (each file under a folder is the folder owner's care).
    if (root) {
      const st = statSync(p);
      const need = st.isDirectory() ? 0o005 : 0o004;
      if ((st.mode & need) !== need) throw new Error(`sandbox: ${p} (readOnly) is not readable by other users (mode ${(st.mode & 0o777).toString(8)}), and the sandboxed Driver runs as nobody`);
    }
    m.bind('--ro-bind', p);
  }
  m.bind('--bind', opts.workDir);
  m.bind('--ro-bind', sockets, INSIDE_SOCKETS);
  m.bind('--ro-bind', RELAY, INSIDE_RELAY);
  // The root the folders hang from: read-only too.
  return [...m.args, '--remount-ro', '/'];
}

/** /etc files written for the sandbox: localhost only, the Driver's user with the work folder as home. */
function writeSupport(support: string, workDir: string, root: boolean): void {
  const uid = root ? NOBODY : (process.getuid?.() ?? NOBODY);
  const gid = root ? NOBODY : (process.getgid?.() ?? NOBODY);
  const files: Record<string, string> = {
    hosts: '127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n',
    passwd: `root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n${uid === 0 ? '' : `driver:x:${uid}:${gid}:driver:${workDir}:/usr/sbin/nologin\n`}`,
    group: `root:x:0:\n${gid === 0 ? '' : `driver:x:${gid}:\n`}`,
    'nsswitch.conf': 'passwd: files\ngroup: files\nhosts: files\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(support, name), text, { mode: 0o644 });
}

/** host:port, [v6]:port or a bare host (then `port`), as a bridge address. */
function hostPort(value: string, port: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(value) ?? /^([^:]+):(\d+)$/.exec(value);
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: value, port };
}

/**
 * What a Cell's Driver needs from outside its sandbox: the Target's endpoint and the metadata server
 * its environment names (GCE_METADATA_HOST, GCE_METADATA_IP) to reach, the TLS roots file to read.
 * A Cell whose client resolves the Target through a DNS server (endpoint.resolver, UDP) is refused.
 */
export function cellReach(cell: Pick<DriverCell, 'endpoint'>, environment: Record<string, string> = {}): Pick<SandboxOptions, 'bridge' | 'readOnly'> {
  const { endpoint } = cell;
  if (endpoint.resolver) throw new Error(`a sandboxed driver cannot use the cell's DNS server (endpoint.resolver ${endpoint.resolver.server}): the sandbox bridges TCP only`);
  const bridge = [{ host: endpoint.host, port: endpoint.port }];
  for (const name of ['GCE_METADATA_HOST', 'GCE_METADATA_IP']) if (environment[name]) bridge.push(hostPort(environment[name], 80));
  return { bridge, readOnly: endpoint.tlsRootsFile ? [endpoint.tlsRootsFile] : [] };
}

/**
 * Starts the bridges and returns the launch that runs `launch` inside the sandbox. Spawn it as the
 * Driver (its environment: the Driver's, with HOME and TMPDIR the work folder); then `stop()`.
 */
export async function sandboxDriver(launch: DriverLaunch, opts: SandboxOptions): Promise<Sandbox> {
  const bwrap = bwrapOnPath();
  if (!bwrap) throw new Error('sandbox: bubblewrap (bwrap) is not installed');
  const root = ROOT();
  const workDir = path.resolve(opts.workDir);
  if (!statSync(workDir).isDirectory()) throw new Error(`sandbox: workDir ${workDir} is not a folder`);
  const support = mkdtempSync(path.join(tmpdir(), 'scb-sandbox-'));
  const sockets = path.join(support, 'bridge');
  const servers: net.Server[] = [];
  const open = new Set<net.Socket>();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const s of open) s.destroy();
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    rmSync(support, { recursive: true, force: true });
  };
  try {
    mkdirSync(sockets, { mode: 0o700 });
    writeSupport(support, workDir, root);
    if (root) {
      // nobody's; the sandbox's root (no capability left to bypass modes) only passes through it.
      chownSync(workDir, NOBODY, NOBODY);
      chmodSync(workDir, 0o711);
    }
    // One socket per bridged address; inside, the relay listens on the address (the first bridge to
    // name an address inside has it: 127.0.0.1 and localhost share one) and relays to its socket.
    const listen: ReturnType<typeof insideAddresses> = [];
    const listening = new Set<string>();
    for (const { host, port } of opts.bridge) {
      const socket = `${INSIDE_SOCKETS}/${servers.length}.sock`;
      const fresh = insideAddresses(host, port, socket).filter((a) => !listening.has(`${a.host} ${a.port}`));
      if (!fresh.length) continue;
      for (const a of fresh) listening.add(`${a.host} ${a.port}`);
      listen.push(...fresh);
      servers.push(await bridgeServer(path.join(sockets, `${servers.length}.sock`), host, port, open));
    }
    const args = [
      // Root: no user namespace (the relay could not become nobody in one); else one, and none further where bwrap can forbid it.
      ...(root
        ? ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try']
        : ['--unshare-all', '--unshare-user', ...(bwrap.disableUserns ? ['--disable-userns'] : [])]),
      '--die-with-parent',
      '--new-session',
      '--hostname',
      'sandbox',
      '--cap-drop',
      'ALL',
      // Root: the relay keeps what it needs to listen on a port under 1024 (a metadata server's 80) and
      // to become nobody before it starts the Driver, which has none of them.
      ...(root ? ['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_NET_BIND_SERVICE'] : []),
      ...fileSystem(bwrap, { ...opts, workDir }, support, sockets, root),
      '--chdir',
      workDir,
      '--setenv',
      'HOME',
      workDir,
      '--setenv',
      'TMPDIR',
      workDir,
      '--',
      process.execPath,
      INSIDE_RELAY,
      JSON.stringify({ listen, ...(root && { uid: NOBODY, gid: NOBODY }) }),
      '--',
      launch.command,
      // Nothing beside its folder is written from inside: no class list for a Java driver's archive (class-sharing.ts).
      ...launch.args.filter((a) => !a.startsWith('-XX:DumpLoadedClassList=')),
    ];
    return { launch: { command: bwrap.path, args, dir: launch.dir }, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The Runner's end of one bridge: each connection on the socket becomes its own TCP connection to host:port. */
function bridgeServer(socket: string, host: string, port: number, open: Set<net.Socket>): Promise<net.Server> {
  const track = (s: net.Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  };
  return new Promise((resolve, reject) => {
    const server = net.createServer({ allowHalfOpen: true }, (inner) => {
      const outer = net.connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port, allowHalfOpen: true, noDelay: true });
      track(inner);
      track(outer);
      inner.pipe(outer);
      outer.pipe(inner);
      const both = () => {
        inner.destroy();
        outer.destroy();
      };
      inner.on('error', both);
      outer.on('error', both);
    });
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

let probed: Promise<string | null> | undefined;

/**
 * Null when this Runner can sandbox Drivers; else a sentence saying why not (bwrap missing, namespaces
 * refused...). Probed once per process, by running a Node inside a sandbox like a Driver's.
 */
export function sandboxUnavailable(): Promise<string | null> {
  probed ??= probe();
  return probed;
}

async function probe(): Promise<string | null> {
  if (!bwrapOnPath()) return 'bubblewrap (bwrap) is not installed on this runner (Debian: apt-get install bubblewrap)';
  const workDir = mkdtempSync(path.join(tmpdir(), 'scb-sandbox-probe-'));
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await sandboxDriver({ command: process.execPath, args: ['-e', 'process.stdout.write("ok")'], dir: workDir }, { workDir, readOnly: [], bridge: [] });
    const { launch } = sandbox;
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(launch.command, launch.args, { timeout: 30_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    if (code === 0 && stdout === 'ok') return null;
    const why = stderr.trim().split('\n').at(-1) || `exit ${code}`;
    return `bubblewrap cannot start a sandbox on this runner: ${why.replace(/^bwrap: /, '')}`;
  } catch (e) {
    return `bubblewrap cannot start a sandbox on this runner: ${(e as Error).message}`;
  } finally {
    await sandbox?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}
