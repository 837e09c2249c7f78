/** See compile-cache.mjs. */
export function enableCompileCache(dir: string | undefined, scope: string): boolean;
export function compileCacheStats(): { fromCache: number; compiled: number; byNode: number };
export function cacheScope(name: string, execArgv: readonly string[]): string;
