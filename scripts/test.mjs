// `npm test`: every test file, one file at a time (benchmarks must not overlap on 2 cores).
// Node 20 does not expand globs itself, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = ['packages', 'apps', 'test'];
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.ts')) files.push(p);
  }
};
roots.forEach(walk);
// Fast unit tests first, then the ones that start PostgreSQL, drivers and a browser.
const rank = (f) => (f.includes('browser') ? 3 : f.includes('integration') ? 2 : f.startsWith('test') ? 1 : 0);
files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
// Lint and format first (biome.json): a finding fails the run before any test starts. Biome is an
// optional dependency for linux-x64 (the registry here serves no other platform's binary).
const biome = path.join('node_modules', '@biomejs', `cli-${process.platform}-${process.arch}`, 'biome');
if (existsSync(biome)) {
  const lint = spawnSync(biome, ['ci', '--colors=off', '.'], { stdio: 'inherit' });
  if (lint.status !== 0) {
    console.error('lint or format check failed: `npm run format` fixes what it can');
    process.exit(lint.status ?? 1);
  }
} else console.log(`lint skipped: no Biome binary for ${process.platform}-${process.arch} installed`);
const args = ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
process.exit(r.status ?? 1);
