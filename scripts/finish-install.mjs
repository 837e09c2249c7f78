// Finishes what `npm ci` leaves out. The repo's .npmrc sets ignore-scripts=true, so installing runs no
// dependency's install script (nor this repo's own postinstall); this runs, once per install, the
// install scripts of exactly the packages package.json's "allowScripts" allows (true) that are installed
// on this platform, then `prisma generate`. Every npm script that runs the project's code calls it first;
// a stamp in node_modules (the lockfile, the schema and the allowlist hashed) makes later calls a no-op.
// `--list` prints the packages whose scripts it would run, one a line, and changes nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'node_modules', '.scb-finish-install');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');

/** Allowed packages whose install script the lockfile records and that npm installed here (optional platform packages of other platforms are not). */
function allowedInstalled() {
  const allow = JSON.parse(read('package.json')).allowScripts ?? {};
  const locked = JSON.parse(read('package-lock.json')).packages ?? {};
  return Object.keys(allow)
    .filter((name) => allow[name] === true && locked[`node_modules/${name}`]?.hasInstallScript)
    .filter((name) => existsSync(path.join(ROOT, 'node_modules', name, 'package.json')))
    .sort();
}

const packages = allowedInstalled();
if (process.argv.includes('--list')) {
  for (const name of packages) process.stdout.write(`${name}\n`);
  process.exit(0);
}

const hash = createHash('sha256');
for (const file of ['package-lock.json', 'package.json', 'prisma/schema.prisma', 'scripts/finish-install.mjs']) hash.update(read(file));
const digest = hash.digest('hex');
const generated = path.join(ROOT, 'packages/db/generated/prisma');
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest && existsSync(generated)) process.exit(0);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (packages.length) {
  process.stderr.write(`finish-install: running the install scripts of ${packages.join(', ')} (package.json allowScripts)\n`);
  const r = spawnSync(npm, ['rebuild', ...packages, '--ignore-scripts=false', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    process.stderr.write(`finish-install: npm rebuild ${packages.join(' ')} failed (${r.error?.message ?? `code ${r.status}`})\n`);
    process.exit(1);
  }
}
const g = spawnSync(process.execPath, [path.join(ROOT, 'scripts/prisma-generate.mjs')], { cwd: ROOT, stdio: ['ignore', 2, 2] });
if (g.status !== 0) {
  process.stderr.write('finish-install: prisma generate failed\n');
  process.exit(1);
}
writeFileSync(STAMP, `${digest}\n`);
