// Browser sign-in with Auth.js against the operator's OpenID Connect provider. Sessions are signed
// cookies (JWT): nothing about a user is stored but the name on what they submit.
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { webEnv } from '../env';

type AuthJs = ReturnType<typeof NextAuth>;
let cached: AuthJs | undefined;

/** Auth.js, configured on first use (not at build time); null when no provider is configured. */
export function authJs(): AuthJs | null {
  const env = webEnv();
  if (!env.SCB_OIDC_ISSUER) return null;
  if (cached) return cached;
  cached = NextAuth({
    // Every request reaches Auth.js rewritten to the configured public URL (see onPublicUrl).
    trustHost: true,
    basePath: '/api/auth',
    secret: env.AUTH_SECRET,
    session: { strategy: 'jwt' },
    providers: [
      {
        id: 'oidc',
        name: env.SCB_OIDC_NAME,
        type: 'oidc',
        issuer: env.SCB_OIDC_ISSUER,
        clientId: env.SCB_OIDC_CLIENT_ID,
        clientSecret: env.SCB_OIDC_CLIENT_SECRET,
        checks: ['pkce', 'state', 'nonce'],
        // The user's claims from the userinfo endpoint: not every provider puts the e-mail in the ID token.
        idToken: false,
        profile: (p) => ({ id: p.sub, email: p.email ?? null, name: p.preferred_username ?? p.name ?? p.sub ?? null }),
      },
    ],
  });
  return cached;
}

/** The signed-in user's name (e-mail, else subject), or null. */
export async function oidcUser(): Promise<string | null> {
  const a = authJs();
  if (!a) return null;
  const session = await a.auth();
  return session?.user?.email ?? session?.user?.name ?? null;
}

/** The request as Auth.js must see it: on the configured public URL, whatever Host it came with (its links and cookies follow it). */
export function onPublicUrl(req: NextRequest): NextRequest {
  const url = new URL(req.nextUrl.pathname + req.nextUrl.search, webEnv().publicOrigin);
  // Through a plain Request: NextRequest(url, nextRequest) keeps the old URL.
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body;
  return new NextRequest(new Request(url, { method: req.method, headers: req.headers, body, duplex: 'half' } as RequestInit));
}
