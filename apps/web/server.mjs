// The web app's server: Next.js behind a plain Node HTTP server, so that every request carries the
// address it really came from (PEER_HEADER, lib/auth/peer.ts), which only a trusted auth proxy's
// header is checked against. `npm start` runs it; `node server.mjs` needs PORT, HOST and a build.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { loadPlugins } from '../../scripts/plugins.mjs';

const PEER_HEADER = 'x-scb-peer-address';
const dir = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';

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
const server = http.createServer((req, res) => {
  // Replaces whatever a client sent under that name.
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
  void handle(req, res);
});
server.listen(port, hostname, () => console.log(`listening on http://${hostname}:${port}`));
// Nothing to flush: stop at once rather than wait for idle keep-alive connections.
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    server.closeAllConnections();
    process.exit(0);
  });
