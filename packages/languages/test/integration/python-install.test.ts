// test: yields
// The Python installer against PyPI: plain semver only, listed versions only, wheels only (a version
// whose dependencies have none for this Python is refused with that sentence), each version in a venv
// of its own that imports the client.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { ClientInstallError, installContext, publishDates, publishedVersions } from '../../src/index';
import { ensurePythonClient, pipRefusal, pythonToolchain } from '../../src/python/install';

const hasPython = (await pythonToolchain()) !== null;

test('PyPI lists google-cloud-spanner oldest first as plain semver, dated by its upload time', { timeout: 600_000 }, async () => {
  const versions = await publishedVersions('python', { fresh: true });
  assert.ok(versions.includes('3.71.0') && versions.includes('1.17.0'), 'the releases the product was built around');
  assert.ok(versions.indexOf('1.17.0') < versions.indexOf('3.71.0'), 'oldest first');
  assert.ok(
    versions.every((v) => /^\d+\.\d+\.\d+$/.test(v)),
    'PEP 440 pre-releases left out',
  );
  const dates = await publishDates('python', ['3.71.0', '1.17.0']);
  assert.ok(Date.parse(dates['1.17.0']!) < Date.parse(dates['3.71.0']!), JSON.stringify(dates));
});

test('a version that is not plain semver, or not published, never reaches pip', { timeout: 600_000 }, async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'scb-python-'));
  try {
    const ctx = installContext('python', { cacheDir });
    await assert.rejects(ensurePythonClient('3.71.0; rm -rf /', ctx), (e: Error) => e instanceof ClientInstallError && /is not a plain semver version/.test(e.message));
    await assert.rejects(ensurePythonClient('3.71.0 --index-url=http://evil', ctx), /is not a plain semver version/);
    if (hasPython) await assert.rejects(ensurePythonClient('3.999.0', ctx), /google-cloud-spanner 3\.999\.0 is not published on PyPI \(newest: \d+\.\d+\.\d+\)/);
    assert.ok(!existsSync(path.join(cacheDir, 'clients', 'python', '3.999.0', 'venv')), 'no venv for a refused version');
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test("pip's missing wheel becomes the sentence the cell shows", () => {
  const stderr =
    'ERROR: Could not find a version that satisfies the requirement gapic-google-cloud-spanner-v1 (from versions: none)\nERROR: No matching distribution found for gapic-google-cloud-spanner-v1<0.16dev,>=0.15.0\n';
  assert.equal(
    pipRefusal('google-cloud-spanner 0.23.0', '3.11.7', stderr),
    'google-cloud-spanner 0.23.0 cannot be installed from wheels on Python 3.11.7: its dependency gapic-google-cloud-spanner-v1<0.16dev,>=0.15.0 has no wheel for this Python, and installs take wheels only (no setup.py runs)',
  );
});

test('an old version whose dependencies have no wheel is refused with that sentence; a new one installs into its own venv and imports', {
  skip: !hasPython && 'no python3 >= 3.9',
  timeout: 15 * 60_000,
}, async () => {
  const ctx = installContext('python', { cacheDir: CACHE_DIR, log: (l) => console.log(`# ${l}`) });
  await assert.rejects(ensurePythonClient('0.23.0', ctx), (e: Error) => {
    console.log(`# ${e.message}`);
    return e instanceof ClientInstallError && /^google-cloud-spanner 0\.23\.0 cannot be installed (from wheels )?on Python \d+\.\d+\.\d+: /.test(e.message);
  });
  const installed = await ensurePythonClient('3.71.0', ctx);
  assert.equal(installed.dir, path.join(CACHE_DIR, 'clients', 'python', '3.71.0'));
  assert.ok(existsSync(installed.python) && existsSync(installed.basePrefix), JSON.stringify(installed));
});
