// Browser sign-in with Auth.js against the operator's OpenID Connect provider. Sessions are signed
// cookies (JWT): nothing about a user is stored but the name on what they submit. A person is named by
// the e-mail address the provider verified, and by nothing else: a sign-in without one is refused.
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { personIdentity } from '@scb/shared/identity';
import { webEnv } from '../env';

type AuthJs = ReturnType<typeof NextAuth>;
let cached: AuthJs | undefined;

/** Why a provider's account cannot sign in here, as the `reason` of /signin-refused. */
export type SignInRefusal = 'no-email' | 'unverified';

/** The person a provider's profile names: its e-mail when the provider says it verified it. */
export function verifiedPerson(profile: Record<string, unknown> | undefined): { person: string } | { refused: SignInRefusal } {
  const email = typeof profile?.email === 'string' ? personIdentity(profile.email) : null;
  if (!email) return { refused: 'no-email' };
  // Some providers send the claim as a string.
  const verified = profile?.email_verified === true || profile?.email_verified === 'true';
  return verified ? { person: email } : { refused: 'unverified' };
}

/** Auth.js, configured on first use (not at build time); null when no provider is configured. */
export function authJs(): AuthJs | null {
  const env = webEnv();
  if (!env.SCB_OIDC_ISSUER) return null;
  if (cached) return cached;
  // Auth.js builds its own URLs (callbacks, the session endpoint, secure cookies or not) from AUTH_URL
  // when set, else from a request's Host and X-Forwarded-* headers: it is always the public URL here.
  process.env.AUTH_URL = env.publicOrigin;
  cached = NextAuth({
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
    callbacks: {
      // No verified e-mail, no sign-in: the page says why.
      signIn: ({ profile }) => {
        const v = verifiedPerson(profile as Record<string, unknown> | undefined);
        return 'person' in v ? true : `/signin-refused?reason=${v.refused}`;
      },
      // The identity is fixed when the session starts; a session without it (e.g. from before this rule) names nobody.
      jwt: ({ token, profile }) => {
        if (profile) {
          const v = verifiedPerson(profile as Record<string, unknown>);
          token.person = 'person' in v ? v.person : null;
        }
        return token;
      },
      session: ({ session, token }) => ({ ...session, person: typeof token.person === 'string' ? token.person : null }),
    },
  });
  return cached;
}

/** The signed-in person (a verified e-mail) of a request's session cookie, or null. */
export async function oidcPerson(headers: Headers): Promise<string | null> {
  const a = authJs();
  if (!a) return null;
  if (!headers.get('cookie')) return null;
  // Auth.js's "API route" form: the session from these headers (pages, route handlers and proxy.ts alike).
  const sink = { headers: new Headers() };
  const session = (await (a.auth as unknown as (req: { headers: Headers }, res: typeof sink) => Promise<{ person?: string | null } | null>)({ headers }, sink)) ?? null;
  return session?.person ?? null;
}

/** The request as Auth.js must see it: on the configured public URL, whatever Host it came with (its links and cookies follow it). */
export function onPublicUrl(req: NextRequest): NextRequest {
  const url = new URL(req.nextUrl.pathname + req.nextUrl.search, webEnv().publicOrigin);
  // Through a plain Request: NextRequest(url, nextRequest) keeps the old URL.
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body;
  return new NextRequest(new Request(url, { method: req.method, headers: req.headers, body, duplex: 'half' } as RequestInit));
}
