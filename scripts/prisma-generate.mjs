// Runs `prisma generate` after install. Prisma 7's CLI wants its schema engine binary, which it
// downloads from a host this machine cannot reach; generate never runs it, so any executable will
// do. Never use this trick for `prisma migrate`: our migrator in packages/db does that.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/true';
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('prisma/package.json')), 'build/index.js');
const r = spawnSync(process.execPath, [cli, 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
