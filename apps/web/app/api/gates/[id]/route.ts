import { readRoute } from '@/lib/auth/guard';
import { NextResponse } from 'next/server';
import { getGate, isInvalidGate } from '@/lib/gates';
import { publicOrigin } from '@/lib/jobs';
import { idRefusal } from '@/lib/http';

export const dynamic = 'force-dynamic';

/** Status, verdict, reasons, the per-metric evaluation and links to the gate's jobs. */
async function handleGET(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const badId = idRefusal(id, 'gate');
  if (badId) return badId;
  const gate = await getGate(id, publicOrigin());
  if (!gate) return NextResponse.json({ error: `no gate with id "${id}"` }, { status: 404 });
  if (isInvalidGate(gate)) return NextResponse.json({ error: gate.invalid, issues: gate.issues }, { status: 500 });
  return NextResponse.json(gate);
}

export const GET = readRoute(handleGET);
