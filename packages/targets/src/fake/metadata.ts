// A GCE metadata server for one cell: what a client's own credential code asks on Google Cloud (is
// this Google Cloud, which project, a token for the default service account), reached through
// GCE_METADATA_HOST. Its tokens are the fake's to check (tokens.ts); it records every token request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueToken } from '@scb/fake-spanner';
import { afterAtLeast } from './delay';

export interface MetadataBehaviour {
  /** How long each token lives, ms (after the job's time scale). */
  tokenLifetimeMs: number;
  /** How long a token request waits for its answer, ms. */
  tokenDelayMs: number;
  /** The first N token requests answer HTTP 500. */
  tokenFailures: number;
  projectId: string;
}

export interface TokenRequest {
  /** When it came and when it was answered (performance.now()). */
  at: number;
  answeredAt: number;
  ok: boolean;
}

export interface MetadataServer {
  /** host:port, for GCE_METADATA_HOST. */
  host: string;
  tokenRequests(): TokenRequest[];
  stop(): Promise<void>;
}

const FLAVOR = 'Google';
const ACCOUNT = 'bench@bench-project.iam.gserviceaccount.com';

export async function startMetadataServer(secret: string, b: MetadataBehaviour): Promise<MetadataServer> {
  const requests: TokenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    res.setHeader('metadata-flavor', FLAVOR);
    const url = new URL(req.url ?? '/', 'http://metadata');
    const send = (status: number, body: string, type = 'application/text') => {
      res.statusCode = status;
      res.setHeader('content-type', type);
      res.end(body);
    };
    // Every metadata client sends this header; the real server refuses a request without it.
    if (req.headers['metadata-flavor'] !== FLAVOR && url.pathname !== '/') return send(403, 'Missing Metadata-Flavor: Google header');
    const p = url.pathname.replace(/\/+$/, '');
    if (p === '' || p === '/computeMetadata/v1' || p === '/computeMetadata/v1/instance') return send(200, '');
    if (p === '/computeMetadata/v1/project/project-id') return send(200, b.projectId);
    if (p === '/computeMetadata/v1/project/numeric-project-id') return send(200, '123456789012');
    if (p === '/computeMetadata/v1/universe/universe-domain') return send(200, 'googleapis.com');
    if (p === '/computeMetadata/v1/instance/zone') return send(200, 'projects/123456789012/zones/bench-zone-a');
    const account = { aliases: ['default'], email: ACCOUNT, scopes: ['https://www.googleapis.com/auth/cloud-platform'] };
    // Every account by name (older Java auth libraries read the default one from here).
    if (p === '/computeMetadata/v1/instance/service-accounts') return send(200, JSON.stringify({ default: account, [ACCOUNT]: account }), 'application/json');
    // The account by its alias or its e-mail, as on GCE (google-auth for Python reads `default` with
    // ?recursive=true, then asks for tokens at its e-mail).
    const named = /^\/computeMetadata\/v1\/instance\/service-accounts\/([^/]+)(\/.*)?$/.exec(p);
    const part = named && (named[1] === 'default' || decodeURIComponent(named[1]!) === ACCOUNT) ? (named[2] ?? '') : null;
    if (part === '/email') return send(200, ACCOUNT);
    if (part === '/scopes') return send(200, 'https://www.googleapis.com/auth/cloud-platform\n');
    if (part === '') return send(200, JSON.stringify(account), 'application/json');
    if (part === '/token') {
      const at = performance.now();
      const failing = requests.length < b.tokenFailures;
      const answer = () => {
        requests.push({ at, answeredAt: performance.now(), ok: !failing });
        if (failing) return send(500, 'metadata server: token request failed (as configured)');
        const token = issueToken(secret, Date.now() + b.tokenLifetimeMs);
        send(200, JSON.stringify({ access_token: token, expires_in: Math.max(1, Math.floor(b.tokenLifetimeMs / 1000)), token_type: 'Bearer' }), 'application/json');
      };
      if (b.tokenDelayMs > 0) afterAtLeast(b.tokenDelayMs, answer);
      else answer();
      return;
    }
    send(404, `no metadata at ${p}`);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    tokenRequests: () => [...requests],
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
