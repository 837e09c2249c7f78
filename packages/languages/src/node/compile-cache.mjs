// A compile cache for CommonJS modules on Node 20, which lacks Node 22's module.enableCompileCache: the
// V8 code cache of each module a process loads (its bytecode, the functions run so far included) is kept
// in one file per cache and scope, under the module's path and a checksum of its source, and handed to
// V8 the next time a process of that scope loads the same source. A Node driver then compiles next to
// nothing of the client's ~800 modules (docs/findings/languages.md). Only the start is faster: the same
// code runs, V8 rejects a cache made by another V8 or with other flags (it is made again), and a driver's
// measured phase counts only its own CPU. ES modules, modules that may call import() and anything vm
// cannot compile go through Node's own loader unchanged.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';

const ENABLED = Symbol.for('scb.compileCache');
/** What this process compiled so far: from a code cache, by vm without one (its cache written later), or by Node itself. */
const stats = { fromCache: 0, compiled: 0, byNode: 0 };
// A script made from a code cache has no dynamic import() on Node 20 (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING,
// whatever importModuleDynamically says): a module that may call one is Node's to compile.
const DYNAMIC_IMPORT = /\bimport\s*\(/;
/** A checksum of a module's source (zlib.crc32 came in Node 20.15). */
const checksum = zlib.crc32 ?? ((source) => createHash('sha1').update(source).digest('hex'));

/** The cache file: a JSON index ([path, checksum, length] per module) after its byte length, then the caches. */
function readCache(file) {
  const entries = new Map();
  try {
    const buf = fs.readFileSync(file);
    const indexLength = buf.readUInt32LE(0);
    let at = 4 + indexLength;
    for (const [name, sum, length] of JSON.parse(buf.toString('utf8', 4, at))) {
      entries.set(name, { sum, data: buf.subarray(at, at + length) });
      at += length;
    }
  } catch {
    // None yet, or a file this version cannot read: every module is compiled and a new one written.
  }
  return entries;
}

function writeCache(file, entries) {
  const index = [];
  const data = [];
  for (const [name, { sum, data: d }] of entries) {
    index.push([name, sum, d.length]);
    data.push(d);
  }
  const head = Buffer.from(JSON.stringify(index));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  // Written whole under a name of this process's, then renamed: a process beside it never reads half a file.
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([length, head, ...data]));
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true }); // a full disk leaves no half file behind
    throw e;
  }
}

/**
 * The scope of a process named `name` started with Node options `execArgv`: V8 rejects a cache made under
 * other flags, so processes given other options (a driver's SCB_NODE_DRIVER_OPTIONS) keep caches apart.
 */
export function cacheScope(name, execArgv) {
  return [name, ...execArgv].join(' ').replace(/[^A-Za-z0-9=]+/g, '-');
}

/**
 * From now on, CommonJS modules this process loads are compiled with the code caches in `dir` (the file of
 * `scope` and this Node version; made if missing). The caches of modules compiled without one are added
 * at exit, never while the process measures. Once per process; a folder that cannot be written only costs
 * the attempt (nothing is thrown).
 */
export function enableCompileCache(dir, scope) {
  if (!dir || globalThis[ENABLED]) return false;
  globalThis[ENABLED] = true;
  const file = path.join(dir, `${scope}-node-${process.version}.bin`);
  const entries = readCache(file);
  const original = Module.prototype._compile;
  /** Modules compiled here without a usable cache: [path, checksum, script]. */
  let fresh = [];

  const write = () => {
    const made = fresh;
    fresh = [];
    if (!made.length) return;
    try {
      // A folder this process cannot write (an uploaded build's, read-only in its sandbox) is known before the caches are made.
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.accessSync(path.dirname(file), fs.constants.W_OK);
      for (const [name, sum, script] of made) entries.set(name, { sum, data: script.createCachedData() });
      writeCache(file, entries);
    } catch {
      // A read-only or full folder: the next process compiles these again.
    }
  };

  const byNode = (mod, content, filename, format) => {
    stats.byNode++;
    return original.call(mod, content, filename, format);
  };
  Module.prototype._compile = function compile(content, filename, format) {
    if (format === 'module' || typeof content !== 'string' || DYNAMIC_IMPORT.test(content)) return byNode(this, content, filename, format);
    const sum = checksum(content);
    const cached = entries.get(filename);
    let script;
    try {
      script = new vm.Script(Module.wrap(content), { filename, cachedData: cached?.sum === sum ? cached.data : undefined });
    } catch {
      // Not CommonJS as vm compiles it (ES module syntax Node detects, say): Node's own loader decides.
      return byNode(this, content, filename, format);
    }
    if (cached?.sum === sum && !script.cachedDataRejected) stats.fromCache++;
    else {
      stats.compiled++;
      fresh.push([filename, sum, script]);
    }
    const require = (id) => this.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, this);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    const wrapper = script.runInThisContext({ displayErrors: true });
    return Reflect.apply(wrapper, this.exports, [this.exports, require, this, filename, path.dirname(filename)]);
  };
  process.once('exit', write);
  return true;
}

/** This process's counts so far (all 0 until enableCompileCache). */
export const compileCacheStats = () => ({ ...stats });
