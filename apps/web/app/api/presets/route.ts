import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { PRESETS } from '@scb/shared/presets';

async function handleGET() {
  return NextResponse.json({ presets: PRESETS });
}

export const GET = readRoute(handleGET);
