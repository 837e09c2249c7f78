/** Where `npm test` puts the test files' bundles. */
export const TEST_BUNDLES: string;
/** The source file a bundle was built from; any other path as it is. */
export function sourceOf(file: string): string;
export function sourceOf(file: string | undefined): string | undefined;
