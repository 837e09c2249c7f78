// Before any route: a path that does not decode (`/api/jobs/%ff`) names nothing, and Next.js would
// fail to decode its parameters with a 500. It is answered 400 here, JSON under /api.
import { NextResponse, type NextRequest } from 'next/server';

export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    const error = 'the path is not valid: it has a malformed %-escape';
    return request.nextUrl.pathname.startsWith('/api/')
      ? NextResponse.json({ error, issues: [{ path: 'path', message: 'has a malformed %-escape' }] }, { status: 400 })
      : new NextResponse(`${error}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
}

// Every path but the build's own static files (whose names never need an escape).
export const config = { matcher: ['/((?!_next/static|_next/image).*)'] };
