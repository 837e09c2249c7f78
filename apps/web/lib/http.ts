import { NextResponse } from 'next/server';

/** A request's JSON body, or the 400 answer naming why it is not JSON. */
export async function readJsonBody(req: Request): Promise<{ ok: true; body: unknown } | { ok: false; response: NextResponse }> {
  try {
    return { ok: true, body: await req.json() };
  } catch (e) {
    return {
      ok: false,
      response: NextResponse.json({ error: 'the request body is not valid JSON', issues: [{ path: '(root)', message: (e as Error).message }] }, { status: 400 }),
    };
  }
}
