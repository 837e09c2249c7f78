// test: yields
// The sandbox an uploaded build's driver runs in (apps/runner/src/sandbox.ts, bubblewrap): a process in
// it reaches the addresses bridged for it and nothing else (not a port on the host, not the metadata
// server's 169.254.169.254), reads only the folders it is given, writes only its own; real drivers of
// each language run a cell in it against the fake, whose per-connection accounting sees what it sees
// without the sandbox; and a credentials-mode cell (TLS, a metadata server) works through the bridges.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startFakeSpanner } from '@scb/fake-spanner';
import { driverReadOnly, prepareDriver, runDriver } from '@scb/languages';
import { driverWorkload, parseJobSpec, planCells, type DriverCell, type Language } from '@scb/shared';
import { CACHE_DIR, REPO_ROOT } from '../../apps/runner/src/paths';
import { cellReach, sandboxDriver, sandboxUnavailable, type SandboxOptions } from '../../apps/runner/src/sandbox';
import { startTarget } from '../../apps/runner/src/targets/index';
import { defaultCellOn } from '../helpers/cells';

const root = process.getuid?.() === 0;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'scb-sandbox-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh folder; mkdtemp's are mode 700, and a root runner's sandboxed process runs as nobody. */
function folder(name: string): string {
  const dir = mkdtempSync(path.join(scratch, `${name}-`));
  chmodSync(dir, 0o755);
  return dir;
}

/** Runs a Node script (ES module source) in a sandbox and returns what it printed as JSON; `readOnly` besides the script's folder. */
async function inSandbox(source: string, opts: Partial<SandboxOptions> & { argv?: string[] } = {}): Promise<{ out: Record<string, unknown>; sockets: string; stopped: () => boolean }> {
  const code = folder('code');
  writeFileSync(path.join(code, 'probe.mjs'), source);
  const workDir = opts.workDir ?? folder('work');
  const sandbox = await sandboxDriver(
    { command: process.execPath, args: [path.join(code, 'probe.mjs'), ...(opts.argv ?? [])], dir: code },
    { workDir, readOnly: [code, ...(opts.readOnly ?? [])], bridge: opts.bridge ?? [] },
  );
  // The host folder holding the bridge's sockets, as bound into the sandbox.
  const args = sandbox.launch.args;
  const sockets = args[args.indexOf('/run/scb-bridge') - 1]!;
  try {
    const stdout = await new Promise<string>((resolve, reject) =>
      // Not execFileSync: the bridges' Runner end lives in this process's event loop.
      execFile(sandbox.launch.command, sandbox.launch.args, { env: { PATH: process.env.PATH! }, timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`the sandboxed probe failed (${err.code ?? err.signal}): ${stderr}`)) : resolve(stdout),
      ),
    );
    return { out: JSON.parse(stdout) as Record<string, unknown>, sockets, stopped: () => !existsSync(sockets) };
  } finally {
    await sandbox.stop();
  }
}

/** A server answering each connection with `greeting`; it counts the connections it saw. */
async function server(host: string, greeting: string): Promise<{ port: number; connections: () => number; open: () => number; close: () => Promise<void> }> {
  let seen = 0;
  const sockets = new Set<net.Socket>();
  const s = net.createServer((c) => {
    seen++;
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
    c.end(greeting);
  });
  await new Promise<void>((r) => s.listen(0, host, r));
  return {
    port: (s.address() as net.AddressInfo).port,
    connections: () => seen,
    open: () => sockets.size,
    close: () => new Promise((r) => s.close(() => r())),
  };
}

/** Probe code: connect to host:port, read until the end; the text read or the error's code (TIMEOUT when nothing happens in 10 s). */
const CONNECT = `
import net from 'node:net';
const connect = (host, port) => new Promise((resolve) => {
  const s = net.connect({ host, port });
  let text = '';
  const timer = setTimeout(() => { s.destroy(); resolve('TIMEOUT'); }, 10_000);
  s.on('data', (d) => (text += d));
  s.on('end', () => { clearTimeout(timer); resolve(text); });
  s.on('error', (e) => { clearTimeout(timer); resolve(e.code); });
});
`;

test('this runner can sandbox drivers (CI installs bubblewrap)', async () => {
  assert.equal(await sandboxUnavailable(), null);
});

test('a sandboxed process reaches no port on the host and not the metadata server, reads nothing it was not given, writes only its own folder', async () => {
  const hostPort = await server('0.0.0.0', 'host secret');
  const bridged = await server('127.0.0.1', 'bridged');
  const secretDir = folder('secret');
  const secret = path.join(secretDir, 'password.txt');
  writeFileSync(secret, 'hunter2');
  const given = folder('given');
  writeFileSync(path.join(given, 'readme.txt'), 'readable');
  // The host's own address on its network, where it has one: a port on it is the host's too.
  const lan = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  const workDir = folder('work');
  try {
    const { out } = await inSandbox(
      `${CONNECT}
import fs from 'node:fs';
const [hostPort, bridgedPort, secret, given, home, repo, workDir, lan] = process.argv.slice(2);
const attempt = (f) => { try { f(); return 'ok'; } catch (e) { return e.code; } };
const status = Object.fromEntries(fs.readFileSync('/proc/self/status', 'utf8').split('\\n').map((l) => l.split(':\\t')));
console.log(JSON.stringify({
  hostV4: await connect('127.0.0.1', +hostPort),
  hostV6: await connect('::1', +hostPort),
  hostLan: lan ? await connect(lan, +hostPort) : null,
  metadata: await connect('169.254.169.254', 80),
  bridged: await connect('127.0.0.1', +bridgedPort),
  readSecret: attempt(() => fs.readFileSync(secret)),
  readHome: attempt(() => fs.readdirSync(home)),
  readRepo: attempt(() => fs.readFileSync(repo + '/package.json')),
  readGiven: fs.readFileSync(given + '/readme.txt', 'utf8'),
  writeGiven: attempt(() => fs.writeFileSync(given + '/x', 'x')),
  writeUsr: attempt(() => fs.writeFileSync('/usr/x', 'x')),
  writeRoot: attempt(() => fs.writeFileSync('/x', 'x')),
  writeWork: attempt(() => fs.writeFileSync(workDir + '/written.txt', 'x')),
  writeTmp: attempt(() => fs.writeFileSync('/tmp/scb-sandbox-escape.txt', 'x')),
  home: process.env.HOME,
  uid: process.getuid(),
  capabilities: status.CapEff,
  noNewPrivs: status.NoNewPrivs,
  pid: process.pid,
}));
`,
      {
        workDir,
        readOnly: [given],
        bridge: [{ host: '127.0.0.1', port: bridged.port }],
        argv: [String(hostPort.port), String(bridged.port), secret, given, os.homedir(), REPO_ROOT, workDir, lan ?? ''],
      },
    );
    // Nothing listens in the sandbox's own loopback; the host's addresses have no route.
    assert.equal(out.hostV4, 'ECONNREFUSED');
    assert.equal(out.hostV6, 'ECONNREFUSED');
    if (lan) assert.equal(out.hostLan, 'ENETUNREACH', `the host's address ${lan}`);
    // Fails at once (no route), not after a timeout.
    assert.equal(out.metadata, 'ENETUNREACH');
    assert.equal(hostPort.connections(), 0, 'the host server saw no connection');
    assert.equal(out.bridged, 'bridged');
    assert.equal(bridged.connections(), 1);

    assert.equal(out.readSecret, 'ENOENT');
    assert.equal(out.readHome, 'ENOENT', `the runner's HOME ${os.homedir()}`);
    assert.equal(out.readRepo, 'ENOENT', 'the repository (its data folders, .env files)');
    assert.equal(out.readGiven, 'readable');
    assert.equal(out.writeGiven, 'EROFS');
    assert.equal(out.writeUsr, 'EROFS');
    assert.equal(out.writeRoot, 'EROFS');
    assert.equal(out.writeWork, 'ok');
    assert.equal(readFileSync(path.join(workDir, 'written.txt'), 'utf8'), 'x', 'the work folder is the host folder');
    assert.equal(out.writeTmp, 'ok', "the sandbox's own /tmp");
    assert.ok(!existsSync('/tmp/scb-sandbox-escape.txt'), "the sandbox's /tmp is not the host's");
    assert.equal(out.home, workDir);

    assert.equal(out.capabilities, '0000000000000000', 'no capability');
    assert.equal(out.noNewPrivs, '1', 'no setuid program gives any back');
    if (root) assert.equal(out.uid, 65534, 'a root runner runs the driver as nobody');
    assert.notEqual(out.pid, process.pid);
  } finally {
    await hostPort.close();
    await bridged.close();
  }
});

test('bridged addresses: 127.0.0.1, ::1 and localhost, many connections at once each its own TCP connection, bytes unchanged both ways; stop() closes them and removes the sockets', async () => {
  // An echo server that counts its connections and the peers they came from.
  const peers = new Set<string>();
  const open = new Set<net.Socket>();
  const echo = net.createServer((c) => {
    peers.add(`${c.remoteAddress}:${c.remotePort}`);
    open.add(c);
    c.on('close', () => open.delete(c));
    c.pipe(c);
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const port = (echo.address() as net.AddressInfo).port;
  const v6 = net.createServer((c) => c.end('v6'));
  await new Promise<void>((r) => v6.listen(0, '::1', r));
  const v6Port = (v6.address() as net.AddressInfo).port;
  const payload = randomBytes(1 << 20); // 48 MiB each way through the relay, past any socket buffer
  const code = folder('payload');
  writeFileSync(path.join(code, 'payload.bin'), payload);
  try {
    const { out, stopped } = await inSandbox(
      `${CONNECT}
import fs from 'node:fs';
import { createHash } from 'node:crypto';
const [port, v6Port, file] = process.argv.slice(2);
const payload = fs.readFileSync(file);
// Sends the payload, half-closes, and hashes what comes back.
const roundTrip = (host) => new Promise((resolve) => {
  const s = net.connect({ host, port: +port });
  const h = createHash('sha256');
  s.on('data', (d) => h.update(d));
  s.on('end', () => resolve(h.digest('hex')));
  s.on('error', (e) => resolve(e.code));
  s.end(payload);
});
const hosts = ['127.0.0.1', 'localhost', '::1'];
// localhost answers on both of its addresses inside, whichever the client picks.
const hashes = await Promise.all(Array.from({ length: 48 }, (_, i) => roundTrip(hosts[i % 3])));
console.log(JSON.stringify({ hashes, v6: await connect('::1', +v6Port), low: process.argv[5] ? await connect('127.0.0.1', 80) : null }));
`,
      {
        readOnly: [code],
        bridge: [
          { host: '127.0.0.1', port },
          { host: 'localhost', port },
          { host: '::1', port: v6Port },
          // A port under 1024 (a metadata server's 80), whatever listens there on the host or not:
          // a root runner's sandbox can listen on it (an unprivileged one's cannot).
          ...(root ? [{ host: '127.0.0.1', port: 80 }] : []),
        ],
        argv: [String(port), String(v6Port), path.join(code, 'payload.bin'), root ? 'low' : ''],
      },
    );
    const want = createHash('sha256').update(payload).digest('hex');
    const hashes = out.hashes as string[];
    assert.equal(hashes.length, 48);
    assert.deepEqual(new Set(hashes), new Set([want]), 'every connection echoed 1 MiB unchanged');
    assert.equal(peers.size, 48, 'the server saw each connection as its own peer');
    assert.equal(out.v6, 'v6', 'an IPv6 target');
    if (root) assert.notEqual(out.low, 'ECONNREFUSED', 'the sandbox listens on port 80 for its bridge');
    assert.ok(stopped(), "stop() removed the bridge's sockets");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(open.size, 0, 'no relayed connection outlives the sandbox');
  } finally {
    await new Promise((r) => echo.close(r));
    await new Promise((r) => v6.close(r));
  }
});

test('killing the sandbox (a cell cancelled or past its deadline) ends every process in it', async () => {
  const token = `scb-sandbox-kill-${randomBytes(6).toString('hex')}`;
  const code = folder('code');
  // A driver that starts a child of its own, and both wait forever.
  writeFileSync(
    path.join(code, 'stuck.mjs'),
    "import { spawn } from 'node:child_process'; spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', process.argv[2]], { stdio: 'ignore' }); console.log('started'); setInterval(() => {}, 1000);",
  );
  const workDir = folder('work');
  const sandbox = await sandboxDriver({ command: process.execPath, args: [path.join(code, 'stuck.mjs'), token], dir: code }, { workDir, readOnly: [code], bridge: [] });
  const withToken = () =>
    readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token);
        } catch {
          return false;
        }
      });
  const child = spawn(sandbox.launch.command, sandbox.launch.args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    // The driver and its child (bwrap's own arguments hold the token too).
    assert.ok(withToken().length >= 3, `processes running: ${withToken().length}`);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The kernel ends the sandbox's pid namespace with its first process: poll until it has.
    for (let i = 0; i < 100 && withToken().length; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(withToken(), [], 'no process of the sandbox outlives it');
  } finally {
    child.kill('SIGKILL');
    // Where the sandbox failed to, the processes this test started (its token in their arguments) end here.
    for (const pid of withToken()) process.kill(Number(pid), 'SIGKILL');
    await sandbox.stop();
  }
});

test('a bridge to an address not on this machine is refused, naming it; so is a readOnly folder holding the work folder', async () => {
  const workDir = folder('work');
  const launch = { command: process.execPath, args: ['-e', ''], dir: workDir };
  await assert.rejects(sandboxDriver(launch, { workDir, readOnly: [], bridge: [{ host: '10.1.2.3', port: 443 }] }), /10\.1\.2\.3 is not a loopback address/);
  await assert.rejects(sandboxDriver(launch, { workDir, readOnly: [scratch], bridge: [] }), /holds the work folder/);
  await assert.rejects(sandboxDriver(launch, { workDir, readOnly: ['/'], bridge: [] }), /holds the work folder/);
  assert.throws(() => cellReach({ endpoint: { host: '127.0.0.1', port: 1, security: 'plaintext', resolver: { server: '127.0.0.1:53', name: 'x' } } }), /endpoint\.resolver/);
});

/** The versions the conformance tests drive (installed once in the client cache). */
const VERSIONS: Record<Language, string> = { node: '9.0.0', java: '6.123.0', go: '1.96.1', python: '3.71.0' };

for (const language of ['node', 'go', 'java', 'python'] as const) {
  test(`${language} driver: a cell run sandboxed against the fake counts what it does unsandboxed, over as many connections`, { timeout: 10 * 60_000 }, async () => {
    const client = { language, version: VERSIONS[language] };
    const launch = await prepareDriver(client, { cacheDir: CACHE_DIR, log: () => {} });
    const run = async (sandboxed: boolean) => {
      const fake = await startFakeSpanner({ latencyMs: 2 });
      const workDir = folder('work');
      try {
        const cell = defaultCellOn(fake, client, { warmupOps: 20, measuredOps: 200 }, 8);
        const reach = cellReach(cell);
        const sandbox = sandboxed ? await sandboxDriver(launch, { workDir, readOnly: [...driverReadOnly(language, launch), ...reach.readOnly], bridge: reach.bridge }) : null;
        try {
          const result = await runDriver(cell, sandbox?.launch ?? launch);
          return { result, stats: fake.stats() };
        } finally {
          await sandbox?.stop();
        }
      } finally {
        await fake.stop();
      }
    };
    const plain = await run(false);
    const boxed = await run(true);
    assert.deepEqual(boxed.result.errors, {});
    assert.equal(boxed.result.count, 200);
    assert.equal(boxed.stats.rpcsByMethod.ExecuteStreamingSql, 220, JSON.stringify(boxed.stats.rpcsByMethod));
    assert.equal(
      boxed.stats.connections.reduce((a, c) => a + c.rpcs, 0),
      boxed.stats.totalRpcs,
      'connections add up to the RPCs served',
    );
    const used = (s: typeof plain.stats) => s.connections.filter((c) => c.rpcs > 0).length;
    assert.ok(used(boxed.stats) >= 1);
    assert.equal(used(boxed.stats), used(plain.stats), 'as many connections carried RPCs as without the sandbox');
    assert.equal(boxed.stats.connections.length, plain.stats.connections.length, 'as many connections were opened');
  });
}

test('node driver: a credentials-mode cell (TLS, the client fetching tokens from the cell metadata server) works sandboxed, every RPC with a valid token', { timeout: 10 * 60_000 }, async () => {
  const spec = parseJobSpec({
    clients: [{ language: 'node', version: VERSIONS.node }],
    configurations: [{ label: 'client default' }],
    concurrency: [4],
    target: { kind: 'fake', latencyMs: 2, credentials: {} },
    workload: { operation: 'select1', warmupOps: 10, measuredOps: 100 },
  });
  assert.ok(spec.ok, JSON.stringify(!spec.ok && spec.issues));
  const plan = planCells(spec.value)[0]!;
  const launch = await prepareDriver(plan.client, { cacheDir: CACHE_DIR, log: () => {} });
  const target = await startTarget(spec.value, plan);
  const workDir = folder('work');
  try {
    const cell: DriverCell = {
      endpoint: target.endpoint,
      database: target.database,
      client: plan.client,
      configuration: plan.configuration,
      ...driverWorkload(spec.value.workload, plan.concurrency, spec.value.timeScale, false),
      deadlineMs: 120_000,
    };
    assert.equal(cell.endpoint.security, 'tls');
    const reach = cellReach(cell, target.environment);
    assert.equal(reach.bridge.length, 3, 'the fake, and the metadata server (twice: GCE_METADATA_HOST and GCE_METADATA_IP)');
    const sandbox = await sandboxDriver(launch, { workDir, readOnly: [...driverReadOnly('node', launch), ...reach.readOnly], bridge: reach.bridge });
    try {
      const result = await runDriver(cell, sandbox.launch, {}, false, target.environment);
      assert.deepEqual(result.errors, {});
      assert.equal(result.count, 100);
    } finally {
      await sandbox.stop();
    }
    const tokens = (await target.stats!()).tokens!;
    const { valid, ...rest } = tokens;
    assert.deepEqual(rest, { missing: 0, expired: 0, invalid: 0 });
    assert.ok((valid ?? 0) >= 110, `every RPC carried a valid token (${valid})`);
  } finally {
    await target.stop();
  }
});
