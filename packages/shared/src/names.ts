/** Fixed names the fake serves and the drivers ask for: the fake accepts any, these keep logs readable. */
export const FAKE_PROJECT = 'bench-project';
export const FAKE_INSTANCE = 'bench-instance';
export const FAKE_DATABASE = 'bench-db';
