import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { gateCalibrationById } from '@scb/db';
import { db } from '@/lib/db';
import { idRefusal } from '@/lib/http';

export const dynamic = 'force-dynamic';

/** One stored calibration as bench:calibrate stored it, with its id and time (what `--adds-to <id>` continues). */
async function handleGET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'calibration');
  if (badId) return badId;
  const calibration = await gateCalibrationById(db(), id);
  if (!calibration) return NextResponse.json({ error: `no calibration with id "${id}"` }, { status: 404 });
  return NextResponse.json(calibration);
}

export const GET = readRoute(handleGET);
