// The sandbox's first process (sandbox.ts): inside the Driver's network namespace, where only loopback
// exists, it listens on each bridged address the Cell names and relays every connection, byte for byte,
// to the Unix socket the Runner relays to the real address; then it starts the Driver (as an
// unprivileged user where the sandbox began as root) and ends as the Driver ends.
// Plain JavaScript run by `node` itself: no loader, no dependency, nothing read but this file.
// argv: <config JSON> -- <command> [args...]; config: {listen: [{host, port, socket, optional}], uid?, gid?}.
// It writes nothing on stdout (the Driver's protocol lines); its own failures go to stderr.
import { spawn } from 'node:child_process';
import net from 'node:net';

const say = (line) => process.stderr.write(`sandbox: ${line}\n`);

/** Relays bytes both ways; an end is passed on (half-close), an error or reset closes both. */
function splice(a, b) {
  a.pipe(b);
  b.pipe(a);
  const both = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', both);
  b.on('error', both);
}

function listen({ host, port, socket }) {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (inner) => {
      inner.setNoDelay(true);
      splice(inner, net.connect({ path: socket, allowHalfOpen: true }));
    });
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => resolve(server));
  });
}

async function main() {
  const sep = process.argv.indexOf('--');
  const config = JSON.parse(process.argv[2] ?? '{}');
  const [command, ...args] = sep > 0 ? process.argv.slice(sep + 1) : [];
  if (!command) {
    say('no driver command given');
    process.exit(125);
  }
  for (const address of config.listen ?? []) {
    try {
      await listen(address);
    } catch (e) {
      // "localhost" is bridged on ::1 too where the namespace has IPv6; without it, 127.0.0.1 alone.
      if (address.optional) continue;
      say(`cannot listen on ${address.host}:${address.port} for the bridge: ${e.message}`);
      process.exit(125);
    }
  }
  const child = spawn(command, args, {
    stdio: 'inherit',
    ...(config.uid !== undefined && { uid: config.uid, gid: config.gid }),
  });
  child.on('error', (e) => {
    say(`the driver could not start: ${e.message}`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Ends the way the Driver ended (bwrap reports it as 128 + the signal's number).
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
  // The Runner stopping the sandbox kills bwrap, whose namespace takes every process with it; a
  // polite signal is passed on to the Driver.
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
}

main().catch((e) => {
  say(e.message);
  process.exit(125);
});
