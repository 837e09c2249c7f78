import type { NextRequest } from 'next/server';
import { authJs, onPublicUrl } from '@/lib/auth/oidc';

export const dynamic = 'force-dynamic';

const notConfigured = () => Response.json({ error: 'sign-in is not configured on this server (SCB_OIDC_ISSUER)' }, { status: 404 });

// Auth.js's own routes (sign-in page, provider callback, sign-out), with its own CSRF token.
export function GET(req: NextRequest) {
  return authJs()?.handlers.GET(onPublicUrl(req)) ?? notConfigured();
}
export function POST(req: NextRequest) {
  return authJs()?.handlers.POST(onPublicUrl(req)) ?? notConfigured();
}
