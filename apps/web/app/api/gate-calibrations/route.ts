import { writeRoute } from '@/lib/auth/guard';
import type { Identity } from '@/lib/auth/identity';
import { NextResponse } from 'next/server';
import { storeGateCalibration } from '@scb/db';
import { parseGateCalibration } from '@scb/shared/calibration';
import { db } from '@/lib/db';
import { readSpec } from '@/lib/http';

export const dynamic = 'force-dynamic';

/**
 * Stores a gate scenario's calibration as `npm run bench:calibrate` measured it (docs/api.md).
 * 201 {id, createdAt}; 400 {error, issues} naming every bad field.
 */
async function handlePOST(req: Request, _ctx: unknown, who: Identity) {
  const parsed = await readSpec(req, parseGateCalibration, 'gate calibration');
  if (!parsed.ok) return parsed.response;
  const { id, createdAt } = await storeGateCalibration(db(), parsed.value, who.name);
  return NextResponse.json({ id, createdAt: createdAt.toISOString() }, { status: 201 });
}

export const POST = writeRoute(handlePOST);
