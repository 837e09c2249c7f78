// `node --import <this file> <entry>`: the product's own Node processes (the runner, the web server and
// the commands start.ts and `npm test` run) compile the CommonJS modules they load (Next.js's server,
// Prisma's runtime, pg, grpc-js, ...) from the code caches kept under CACHE_DIR/compile-cache, as a Node
// driver does its client's (compile-cache.mjs). One cache per kind of process, named by its entry file;
// every test file shares one. Only a start is faster: the same code runs (a process given V8 flags finds
// the cache rejected by V8 and makes it again).
import path from 'node:path';
import { CACHE_DIR } from '../cache-dir.mjs';
import { cacheScope, enableCompileCache } from './compile-cache.mjs';

const entry = path.basename(process.argv[1] ?? 'node').replace(/\.[cm]?[jt]s$/, '');
enableCompileCache(path.join(CACHE_DIR, 'compile-cache'), cacheScope(entry.endsWith('.test') ? 'test' : entry, []));
