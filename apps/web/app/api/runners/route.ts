import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { listRunners } from '@/lib/runners';

export const dynamic = 'force-dynamic';

/** Every runner that registered: what it can run, alive or not, and the job and cell it is busy with. */
async function handleGET() {
  return NextResponse.json({ runners: await listRunners() });
}

export const GET = readRoute(handleGET);
