// Browser sign-in with Auth.js against the operator's OpenID Connect provider. Sessions are signed
// cookies (JWT): nothing about a user is stored but the name on what they submit.
import NextAuth from 'next-auth';
import { webEnv } from '../env';

type AuthJs = ReturnType<typeof NextAuth>;
let cached: AuthJs | undefined;

/** Auth.js, configured on first use (not at build time); null when no provider is configured. */
export function authJs(): AuthJs | null {
  const env = webEnv();
  if (!env.SCB_OIDC_ISSUER) return null;
  if (cached) return cached;
  // Auth.js builds its callback links from AUTH_URL: the configured public URL, never the request's Host.
  process.env.AUTH_URL = `${env.publicOrigin}/api/auth`;
  cached = NextAuth({
    trustHost: true,
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
