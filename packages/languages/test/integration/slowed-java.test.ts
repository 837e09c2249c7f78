// Java's calibration builds (bench:calibrate --injection busy): the busy build's jar gains a class whose
// spin keeps the calling thread's CPU busy for the delay, which the patched methods call in place of
// parkNanos; the waiting build's jar has no such class.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { CACHE_DIR } from '../../../../apps/runner/src/paths';
import { prepareDriver, slowedJavaBuild, unpackArtifact } from '../../src/index';

const TMP = mkdtempSync(path.join(os.tmpdir(), 'scb-slowed-java-'));
after(() => rmSync(TMP, { recursive: true, force: true }));
/** The release the artifact uploads' e2e test slows too: its jars are in the local Maven repository already. */
const RELEASE = '6.104.0';

function jarOf(bytes: Buffer, name: string): string {
  const dir = path.join(TMP, name);
  unpackArtifact('java', bytes, dir);
  const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));
  const jar = walk(dir).find((f) => /\/google-cloud-spanner-[^/]*\.jar$/.test(f));
  assert.ok(jar, `the fragment holds google-cloud-spanner's jar: ${walk(dir).join(', ')}`);
  return jar;
}

test('java: the busy build spins on the CPU for the delay; the waiting build has no spin', { timeout: 600_000 }, async () => {
  await prepareDriver({ language: 'java', version: RELEASE }, { cacheDir: CACHE_DIR, log: () => {} });
  const busy = await slowedJavaBuild(RELEASE, 40, CACHE_DIR, 'busy');
  assert.equal(busy.version, `${RELEASE}-busy.40000us`);
  const wait = await slowedJavaBuild(RELEASE, 40, CACHE_DIR);
  assert.equal(wait.version, `${RELEASE}-slowed.40000us`);
  // A program that calls the spin the patched methods call, timing its wall clock and its thread's CPU.
  const probe = path.join(TMP, 'Probe.java');
  writeFileSync(
    probe,
    [
      'public class Probe {',
      '  public static void main(String[] a) throws Exception {',
      '    java.lang.reflect.Method spin;',
      '    try { spin = Class.forName("com.google.cloud.spanner.ScbCalibrationBusy").getMethod("spin", long.class); }',
      '    catch (ClassNotFoundException e) { System.out.println("none"); return; }',
      '    var threads = java.lang.management.ManagementFactory.getThreadMXBean();',
      '    long c0 = threads.getCurrentThreadCpuTime(), t0 = System.nanoTime();',
      '    spin.invoke(null, 40_000_000L);',
      '    System.out.println((System.nanoTime() - t0) / 1e6 + " " + (threads.getCurrentThreadCpuTime() - c0) / 1e6);',
      '  }',
      '}',
    ].join('\n'),
  );
  const run = (jar: string) => execFileSync('java', ['-cp', jar, probe], { encoding: 'utf8' }).trim();
  const [wall, cpu] = run(jarOf(busy.bytes, 'busy')).split(' ').map(Number);
  assert.ok(wall! >= 40, `the spin took ${wall} ms`);
  // The spin is the thread's own work: most of its wall time on the CPU (a waiting thread uses none).
  assert.ok(cpu! >= wall! / 4, `the spin used ${cpu} ms of CPU in ${wall} ms`);
  assert.equal(run(jarOf(wait.bytes, 'wait')), 'none');
});
