// Gate scenarios' calibrations (issue 38): stored as bench:calibrate measured them, read back as the
// newest per scenario and language (optionally of one version) to show beside a verdict.
import { GateCalibrationInputSchema, parseStored, type GateCalibration, type GateCalibrationInput } from '@scb/shared';
import type { Db } from './client';
import type { GateCalibration as Row, Prisma } from '../generated/prisma/client';
import { isStoredId, newJobId } from './jobs';

/** Stores a validated calibration; returns its id and time. */
export async function storeGateCalibration(db: Db, c: GateCalibrationInput, createdBy: string | null = null): Promise<{ id: string; createdAt: Date }> {
  const { scenario, language, version, machine, cores, commit, repeats, criteria, aaRuns, aaFalseAlarms, aaInconclusive, sizes, ...details } = c;
  const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue;
  const row = await db.gateCalibration.create({
    data: {
      id: newJobId(),
      scenario,
      language,
      version,
      machine,
      cores,
      commit,
      repeats,
      criteria: json(criteria),
      aaRuns,
      aaFalseAlarms,
      aaInconclusive,
      sizes: json(sizes),
      details: json(details),
      createdBy,
    },
    select: { id: true, createdAt: true },
  });
  return row;
}

/** A row as the calibration it stores; null when it no longer parses (a stored row of an older shape). */
function fromRow(r: Row): GateCalibration | null {
  const details = r.details && typeof r.details === 'object' && !Array.isArray(r.details) ? r.details : {};
  const parsed = parseStored(GateCalibrationInputSchema, {
    ...details,
    scenario: r.scenario,
    language: r.language,
    version: r.version,
    machine: r.machine,
    cores: r.cores,
    commit: r.commit,
    repeats: r.repeats,
    criteria: r.criteria,
    aaRuns: r.aaRuns,
    aaFalseAlarms: r.aaFalseAlarms,
    aaInconclusive: r.aaInconclusive,
    sizes: r.sizes,
  });
  return parsed.ok ? { ...parsed.value, id: r.id, createdAt: r.createdAt.toISOString() } : null;
}

/** The newest calibration of a scenario for a language (of `version` when given), or null when there is none. */
export async function latestGateCalibration(db: Db, q: { scenario: string; language: string; version?: string }): Promise<GateCalibration | null> {
  const rows = await db.gateCalibration.findMany({
    where: { scenario: q.scenario, language: q.language, ...(q.version !== undefined && { version: q.version }) },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 5,
  });
  for (const r of rows) {
    const c = fromRow(r);
    if (c) return c;
  }
  return null;
}

/** One stored calibration by its id, or null when there is none (or it no longer parses). */
export async function gateCalibrationById(db: Db, id: string): Promise<GateCalibration | null> {
  if (!isStoredId(id)) return null;
  const row = await db.gateCalibration.findUnique({ where: { id } });
  return row ? fromRow(row) : null;
}

/** The calibration to show beside a gate's verdict: its scenario's for its language at the gate's baseline version, else at any version. */
export async function gateCalibrationFor(db: Db, gate: { scenario: string; language: string; baseline: string }): Promise<GateCalibration | null> {
  return (
    (await latestGateCalibration(db, { scenario: gate.scenario, language: gate.language, version: gate.baseline })) ??
    (await latestGateCalibration(db, { scenario: gate.scenario, language: gate.language }))
  );
}
