// Every write passes here: JSON only, same origin only, and an identity (in local mode this machine's user).
import { NextResponse } from 'next/server';
import { webEnv } from '../env';
import { apiRoute } from '../http';
import { identify, type Identity } from './identity';

/** Origins a browser may write from: the public URL's, and in local mode the loopback names of this port. */
function allowedOrigins(): string[] {
  const env = webEnv();
  const local = env.mode === 'local' ? ['localhost', '127.0.0.1', '[::1]'].map((h) => `http://${h}:${env.PORT}`) : [];
  return [env.publicOrigin, ...local];
}

/**
 * What a write's body may be: JSON, or (an upload) raw bytes. Neither is a type a cross-site form or a
 * fetch without preflight can send, so both keep other sites out.
 */
export type WriteBody = 'application/json' | 'application/octet-stream';

const refuse = (status: number, error: string) => NextResponse.json({ error }, { status });

/**
 * Why a write is refused before anything else is read: a body that is not declared JSON (a form or
 * `text/plain` post needs no preflight, so any web page could send one), or a browser telling us the
 * request comes from another site.
 */
export function crossSiteRefusal(headers: Headers, contentType: WriteBody = 'application/json'): NextResponse | null {
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== contentType)
    return refuse(415, contentType === 'application/json' ? 'writes take JSON: send content-type: application/json' : `this write takes the file as the body: send content-type: ${contentType}`);
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return refuse(403, "cross-site writes are refused: write from this server's own pages, or with an API token from a script");
  const origin = headers.get('origin');
  if (origin !== null && !allowedOrigins().includes(origin)) return refuse(403, 'writes from another origin are refused: this server accepts writes from its own pages (SCB_PUBLIC_URL)');
  return null;
}

const NEEDS_IDENTITY = 'writing needs an identity: sign in, or send an API token as Authorization: Bearer <token> (npm run token -- create <name>)';

/** An API write handler behind the cross-site checks and an identity; 401 without one. */
export function writeRoute<C>(handler: (req: Request, ctx: C, who: Identity) => Promise<Response>, body: WriteBody = 'application/json'): (req: Request, ctx: C) => Promise<Response> {
  return apiRoute(async (req: Request, ctx: C) => {
    const refused = crossSiteRefusal(req.headers, body);
    if (refused) return refused;
    const who = await identify(req.headers);
    if (!who) return NextResponse.json({ error: NEEDS_IDENTITY }, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    return handler(req, ctx, who);
  });
}

/** An API read handler: public, unless the operator set SCB_AUTH_READ=on (which proxy.ts enforces first, for every request). */
export function readRoute<C>(handler: (req: Request, ctx: C) => Promise<Response>): (req: Request, ctx: C) => Promise<Response> {
  return apiRoute(async (req: Request, ctx: C) => {
    if (webEnv().SCB_AUTH_READ === 'on' && !(await identify(req.headers)))
      return NextResponse.json({ error: 'reading needs an identity on this server: sign in, or send an API token' }, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    return handler(req, ctx);
  });
}
