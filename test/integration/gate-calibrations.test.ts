// test: yields
// Gate calibrations in PostgreSQL (issue 38): stored as measured, read back whole; the newest per
// scenario and language, of one version or any; a gate sees its baseline version's, else the newest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateCalibrationFor, latestGateCalibration, storeGateCalibration } from '@scb/db';
import { parseGateCalibration, type GateCalibrationInput } from '@scb/shared';
import { useTestDatabase } from '../helpers/postgres';

const t = useTestDatabase();

function input(over: Partial<GateCalibrationInput> = {}): GateCalibrationInput {
  const parsed = parseGateCalibration({
    scenario: 'steady-select1',
    language: 'node',
    version: '9.0.0',
    machine: 'bench-1',
    cores: 2,
    commit: 'abc1234',
    repeats: 5,
    criteria: {},
    baselineP50Ms: 72.4,
    aaRuns: 4,
    aaFalseAlarms: 1,
    aaInconclusive: 2,
    aaP50ChangesPct: [0.4, -1.2, 2.5, 0],
    sizes: [{ pct: 5, delayMs: 3.62, runs: 2, detections: 1, inconclusive: 1, p50ChangesPct: [4.1, 6.3] }],
    gateMinutes: 6.5,
    command: 'npm run bench:calibrate -- --scenario steady-select1',
    ...over,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

test('a calibration is read back as stored, with its id and time; none for a scenario never calibrated', async () => {
  assert.equal(await latestGateCalibration(t.db, { scenario: 'steady-select1', language: 'node' }), null);
  const stored = input({ operation: 'select1', overrides: { timeScale: 2 } });
  const { id, createdAt } = await storeGateCalibration(t.db, stored, 'token:ci');
  const back = await latestGateCalibration(t.db, { scenario: 'steady-select1', language: 'node' });
  assert.deepEqual(back, { ...stored, id, createdAt: createdAt.toISOString() });
  assert.equal(await latestGateCalibration(t.db, { scenario: 'steady-select1', language: 'go' }), null);
  assert.equal(await latestGateCalibration(t.db, { scenario: 'abort-backoff', language: 'node' }), null);
});

test('the newest per scenario and language; of one version when asked; a gate falls back to any version', async () => {
  await storeGateCalibration(t.db, input({ scenario: 'abort-backoff', version: '8.13.0', aaRuns: 10, aaFalseAlarms: 0, aaInconclusive: 0 }));
  await new Promise((r) => setTimeout(r, 5));
  await storeGateCalibration(t.db, input({ scenario: 'abort-backoff', version: '9.0.0', aaRuns: 20, aaFalseAlarms: 0, aaInconclusive: 0 }));
  const newest = await latestGateCalibration(t.db, { scenario: 'abort-backoff', language: 'node' });
  assert.equal(newest?.aaRuns, 20);
  const older = await latestGateCalibration(t.db, { scenario: 'abort-backoff', language: 'node', version: '8.13.0' });
  assert.equal(older?.aaRuns, 10);
  assert.equal((await gateCalibrationFor(t.db, { scenario: 'abort-backoff', language: 'node', baseline: '8.13.0' }))?.version, '8.13.0');
  assert.equal((await gateCalibrationFor(t.db, { scenario: 'abort-backoff', language: 'node', baseline: '7.21.0' }))?.version, '9.0.0');
});

test('a stored row that no longer parses is passed over for the one before it', async () => {
  await storeGateCalibration(t.db, input({ scenario: 'result-set-decode', aaRuns: 3, aaFalseAlarms: 0, aaInconclusive: 0 }));
  await new Promise((r) => setTimeout(r, 5));
  const { id } = await storeGateCalibration(t.db, input({ scenario: 'result-set-decode', aaRuns: 7, aaFalseAlarms: 0, aaInconclusive: 0 }));
  await t.db.gateCalibration.update({ where: { id }, data: { sizes: 'not a list' } });
  assert.equal((await latestGateCalibration(t.db, { scenario: 'result-set-decode', language: 'node' }))?.aaRuns, 3);
});
