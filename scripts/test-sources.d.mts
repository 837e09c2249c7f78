/** Where `npm test` puts the bundles it runs. */
export const TEST_BUNDLES: string;
/** Set by `npm test` for the files it runs from bundles: the commands they start run from theirs too. */
export const BUNDLED_ENV: string;
/** The commands test files start, bundled beside them (paths from the repository's root). */
export const COMMANDS: string[];
/** The source file a bundle was built from; any other path as it is. */
export function sourceOf(file: string): string;
export function sourceOf(file: string | undefined): string | undefined;
/** The bundle of a source (absolute, or from the repository's root) under TEST_BUNDLES. */
export function bundleOf(source: string): string;
/** Loaded first by the product's own Node processes: their CommonJS modules compile from code caches. */
export const COMPILE_CACHE_PRELOAD: string;
/** Node's arguments that run a TypeScript command: its bundle under `npm test`, else the source through tsx. */
export function nodeArgs(source: string): string[];
