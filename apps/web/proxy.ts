// Before any route, for every request the app answers (pages, route handlers, feeds, badges, exports),
// so that a page added later cannot forget it:
// - a path that does not decode (`/api/jobs/%ff`) names nothing, and Next.js would fail to decode its
//   parameters with a 500: it is answered 400 here, JSON under /api;
// - private reads (SCB_AUTH_READ=on): without an identity a page request is sent to sign in (or
//   answered 401 where there is no sign-in), anything else gets 401; neither carries any data. Only the
//   way in and the build's static assets stay open.
import { type NextRequest, NextResponse } from 'next/server';
import { identify } from '@/lib/auth/identity';
import { webEnv } from '@/lib/env';

/** What anyone may reach on a private server: sign-in itself, why a sign-in was refused, the health check, the build's assets. */
const OPEN = [/^\/api\/auth(\/|$)/, /^\/signin-refused$/, /^\/api\/health$/, /^\/_next\/static\//, /^\/favicon\.ico$/];

/** Requests answered with data rather than a page: the API, feeds, badges, exports. */
const NOT_A_PAGE = /^\/api\/|\.(xml|svg|csv|json|md)$/;

const READ_NEEDS_IDENTITY = 'reading needs an identity on this server: sign in, or send an API token';

export async function proxy(req: NextRequest): Promise<NextResponse> {
  const malformed = malformedPath(req.nextUrl.pathname);
  if (malformed) return malformed;
  const env = webEnv();
  if (env.SCB_AUTH_READ !== 'on') return NextResponse.next();
  const { pathname, search } = req.nextUrl;
  if (OPEN.some((r) => r.test(pathname))) return NextResponse.next();
  if (await identify(req.headers)) return NextResponse.next();
  const isPage = (req.method === 'GET' || req.method === 'HEAD') && !NOT_A_PAGE.test(pathname);
  if (isPage && env.SCB_OIDC_ISSUER) {
    // Links come from SCB_PUBLIC_URL, never from the request's Host.
    const signIn = new URL('/api/auth/signin', env.publicOrigin);
    signIn.searchParams.set('callbackUrl', new URL(pathname + search, env.publicOrigin).toString());
    return NextResponse.redirect(signIn, 303);
  }
  if (isPage)
    return new NextResponse('<!doctype html><title>Sign in</title><p>Reading this server needs an identity: reach it through its auth proxy, or use the API with a token.</p>\n', {
      status: 401,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  return NextResponse.json({ error: READ_NEEDS_IDENTITY }, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
}

function malformedPath(pathname: string): NextResponse | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    const error = 'the path is not valid: it has a malformed %-escape';
    return pathname.startsWith('/api/')
      ? NextResponse.json({ error, issues: [{ path: 'path', message: 'has a malformed %-escape' }] }, { status: 400 })
      : new NextResponse(`${error}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
}

// Every path but the build's own static files (whose names never need an escape and hold no data).
export const config = { matcher: ['/((?!_next/static|_next/image).*)'] };
