import type { NextConfig } from 'next';

/**
 * The Content-Security-Policy of every response. Scripts and styles come from this origin only, and
 * inline: Next.js bootstraps each page with inline scripts (nonces would need a proxy per request and
 * pages it can render only dynamically), and React and Recharts set style attributes. Nothing is framed,
 * posted to or fetched from elsewhere; images are this origin's (the badges) or data: URLs. No
 * form-action: the sign-in form's redirect goes on to the OpenID Connect provider, whose origin the
 * build cannot know (docs/safe-to-share.md).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Set on every response (pages, API routes, feeds, badges, static files): one place, here. */
export const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: CONTENT_SECURITY_POLICY },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
];

const config: NextConfig = {
  transpilePackages: ['@scb/shared', '@scb/db', '@scb/languages', '@scb/targets'],
  serverExternalPackages: ['@prisma/client', '@prisma/adapter-pg', 'pg', 'graphile-worker', 'esbuild'],
  poweredByHeader: false,
  // `npm run typecheck` checks the app (tsc -p apps/web/tsconfig.json, `npm test` runs it on every change):
  // the build does not check it again (15 s of CPU of each build here).
  typescript: { ignoreBuildErrors: true },
  headers: async () => [{ source: '/:path*', headers: SECURITY_HEADERS }],
};

export default config;
