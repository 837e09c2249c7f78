// Private reads (SCB_AUTH_READ=on), enforced here for every request the app answers — pages, route
// handlers, feeds, badges, exports — so that a page added later cannot forget it. Without an identity a
// page request is sent to sign in (or answered 401 where there is no sign-in), anything else gets 401;
// neither carries any data. Only the way in and the build's static assets stay open.
import { type NextRequest, NextResponse } from 'next/server';
import { identify } from '@/lib/auth/identity';
import { webEnv } from '@/lib/env';

/** What anyone may reach on a private server: sign-in itself, why a sign-in was refused, the health check, the build's assets. */
const OPEN = [/^\/api\/auth(\/|$)/, /^\/signin-refused$/, /^\/api\/health$/, /^\/_next\/static\//, /^\/favicon\.ico$/];

/** Requests answered with data rather than a page: the API, feeds, badges, exports. */
const NOT_A_PAGE = /^\/api\/|\.(xml|svg|csv|json|md)$/;

const READ_NEEDS_IDENTITY = 'reading needs an identity on this server: sign in, or send an API token';

export async function proxy(req: NextRequest): Promise<NextResponse> {
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
