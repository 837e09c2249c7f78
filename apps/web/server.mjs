// The web app's one production entry point (`npm start`, `npm start -w @scb/web`, `node server.mjs`):
// Next.js behind a plain Node HTTP server, so that every request carries the address it really came
// from, under a header whose name is drawn at random here (lib/auth/peer.ts) after
// every header a client sent under that prefix is deleted. Only a trusted auth proxy's header is
// checked against it. With SCB_AUTH_PROXY_SOCKET the server also listens on that Unix socket, which
// only the auth proxy reaches: its requests are the proxy's. Needs PORT, HOST and a build.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { loadPlugins } from '@scb/languages/plugins';

const PEER_HEADER_PREFIX = 'x-scb-peer-';
const peerHeader = `${PEER_HEADER_PREFIX}${randomBytes(12).toString('hex')}`;
// Handed to the app in this process's global object (lib/auth/peer.ts PEER_HEADER_GLOBAL), never the environment.
globalThis[Symbol.for('scb.peerHeader')] = peerHeader;
const dir = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const proxySocket = process.env.SCB_AUTH_PROXY_SOCKET?.trim() || undefined;

// The operator's plug-ins register their languages and target kinds before the app serves.
try {
  await loadPlugins(process.env.SCB_PLUGINS);
} catch (e) {
  console.error(`web: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
}

const app = next({ dev: false, dir, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

/** The request handler for one listener: `peer` names where its requests come from. */
const serve = (peer) => (req, res) => {
  for (const name of Object.keys(req.headers)) if (name.startsWith(PEER_HEADER_PREFIX)) delete req.headers[name];
  req.headers[peerHeader] = peer(req);
  void handle(req, res);
};

/**
 * An idle keep-alive connection is closed after KEEP_ALIVE_MS, not Node's 5 s: at 5 s a client that
 * reuses it (Node's fetch keeps one for the server's hint less 2 s, timed by a clock that advances a
 * half-second per tick of its own, so a client starved of CPU runs late) can send its request as the
 * server closes the socket, and gets EPIPE or ECONNRESET for a request the server never saw. 65 s
 * outlasts the 60 s idle timeout of common proxies and load balancers, so the one in front closes first;
 * a request's headers may take as long.
 */
const KEEP_ALIVE_MS = 65_000;
const listener = (peer) => Object.assign(http.createServer(serve(peer)), { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1000 });

const server = listener((req) => req.socket.remoteAddress ?? '');
server.listen(port, hostname, () => console.log(`listening on http://${hostname}:${port}`));

let proxyServer;
if (proxySocket) {
  // A stale socket from an earlier run is replaced; any other file there is not ours to remove.
  if (existsSync(proxySocket)) {
    if (!lstatSync(proxySocket).isSocket()) {
      console.error(`web: SCB_AUTH_PROXY_SOCKET ${proxySocket} exists and is not a socket`);
      process.exit(2);
    }
    unlinkSync(proxySocket);
  }
  proxyServer = listener(() => `unix:${proxySocket}`);
  proxyServer.listen(proxySocket, () => {
    // Only this user (and its group, for a proxy running as another user of it) may connect.
    chmodSync(proxySocket, 0o660);
    console.log(`listening for the auth proxy on unix:${proxySocket}`);
  });
}

// Nothing to flush: stop at once rather than wait for idle keep-alive connections.
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    server.closeAllConnections();
    proxyServer?.closeAllConnections();
    process.exit(0);
  });
