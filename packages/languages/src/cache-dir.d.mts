/** See cache-dir.mjs. */
export declare const REPO_ROOT: string;
export declare const CACHE_DIR: string;
