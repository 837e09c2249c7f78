import { NextResponse } from 'next/server';
import { pingDatabase } from '@scb/db';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** 200 when the database answers, 503 otherwise. */
export async function GET() {
  try {
    await pingDatabase(db());
    return NextResponse.json({ status: 'ok', database: 'reachable' });
  } catch (e) {
    const detail = ((e as Error).message ?? '').split('\n')[0]?.trim() || (e as { code?: string }).code || 'no answer';
    return NextResponse.json({ status: 'error', database: 'unreachable', error: `the database cannot be reached: ${detail}` }, { status: 503, headers: { 'retry-after': '5' } });
  }
}
