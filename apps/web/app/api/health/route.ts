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
    return NextResponse.json({ status: 'error', database: 'unreachable', error: (e as Error).message.split('\n')[0] }, { status: 503 });
  }
}
