import { NextResponse } from 'next/server';
import { PRESETS } from '@scb/shared/presets';

export async function GET() {
  return NextResponse.json({ presets: PRESETS });
}
