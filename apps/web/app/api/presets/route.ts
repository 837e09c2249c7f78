import { NextResponse } from 'next/server';
import { PRESETS } from '@scb/shared/presets';
import { apiRoute } from '@/lib/http';

async function handleGET() {
  return NextResponse.json({ presets: PRESETS });
}

export const GET = apiRoute(handleGET);
