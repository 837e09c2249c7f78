import http from 'node:http';
import { FakeBehaviourSchema, toFieldIssues } from '@scb/shared';
import type { FakeSpanner } from './server';

export interface AdminServer {
  port: number;
  stop(): Promise<void>;
}

/**
 * A small HTTP JSON API beside the gRPC port:
 *   GET /stats, POST /reset, GET /config, PATCH /config (latency, faults, schedule, acceptDelayMs, timeScale).
 */
export async function startAdmin(fake: FakeSpanner, opts: { host?: string; port?: number } = {}): Promise<AdminServer> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body, null, 2) + '\n');
    };
    const route = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    if (route === 'GET /stats') return send(200, fake.stats());
    if (route === 'GET /config') return send(200, fake.config());
    if (route === 'POST /reset') {
      fake.resetStats();
      return send(200, { reset: true });
    }
    if (route === 'PATCH /config' || route === 'PUT /config') {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text || '{}');
        } catch (e) {
          return send(400, { error: 'the request body is not valid JSON', issues: [{ path: '(root)', message: (e as Error).message }] });
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return send(400, { error: 'invalid fake configuration', issues: [{ path: '(root)', message: 'must be a JSON object' }] });
        }
        // Validate the whole behaviour after the change, so fields left out keep their values.
        const current = fake.config();
        const behaviour = Object.fromEntries(Object.keys(FakeBehaviourSchema.shape).map((k) => [k, current[k as keyof typeof current]]));
        const parsed = FakeBehaviourSchema.safeParse({ ...behaviour, ...body });
        if (!parsed.success) return send(400, { error: 'invalid fake configuration', issues: toFieldIssues(parsed.error) });
        fake.update(parsed.data);
        send(200, fake.config());
      });
      return;
    }
    send(404, { error: `no such admin call: ${route}`, calls: ['GET /stats', 'POST /reset', 'GET /config', 'PATCH /config'] });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return { port, stop: () => new Promise((r) => server.close(() => r())) };
}
