import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from '@/components/PageLink';
import { identify } from '@/lib/auth/identity';
import { webEnv } from '@/lib/env';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'spanner-client-bench', template: '%s · spanner-client-bench' },
  description: 'Benchmarks of Cloud Spanner clients across versions and configurations.',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const env = webEnv();
  const who = await identify(await headers());
  const canSignIn = env.SCB_OIDC_ISSUER !== undefined;
  return (
    <html lang="en">
      <body>
        <header className="top">
          <Link href="/" className="brand">
            spanner-client-bench
          </Link>
          <nav>
            <Link href="/">Jobs</Link>
            <Link href="/jobs/new">New job</Link>
            <Link href="/compare">Compare</Link>
            <Link href="/versions">Across versions</Link>
            <Link href="/gates">Gates</Link>
            <Link href="/watch">Watches</Link>
            <Link href="/reproductions">Reproductions</Link>
            <Link href="/runners">Runners</Link>
            <Link href="/settings">Settings</Link>
          </nav>
          <span className="identity" data-testid="identity">
            {who ? (
              <>
                {who.kind === 'local' ? 'local (this machine)' : who.name}
                {who.kind === 'person' && (
                  <>
                    {' · '}
                    <a href="/api/auth/signout">Sign out</a>
                  </>
                )}
              </>
            ) : canSignIn ? (
              <a href="/api/auth/signin">Sign in</a>
            ) : (
              <span className="muted">read-only: writing needs an API token or the auth proxy</span>
            )}
          </span>
        </header>
        {/* With SCB_AUTH_READ=on a request without an identity never reaches a page (proxy.ts). */}
        <main>{children}</main>
      </body>
    </html>
  );
}
