// The runner's environment variables the built-in target kinds read (docs/configuration.md); unset and
// empty are the same. Read when asked, so a test can set them before starting a target.

/** A variable's value, trimmed; undefined where unset or empty. */
function variable(name: string): string | undefined {
  const v = process.env[name]?.trim();
  return v ? v : undefined;
}

export const targetEnv = {
  /** The Cloud Spanner emulator binary (emulator_main); default: PATH, then the Google Cloud SDK's places. */
  emulatorBinary: () => variable('SCB_EMULATOR_BIN'),
  /** 1: this runner takes jobs against real Cloud Spanner, with the credentials of its own environment. */
  allowSpanner: () => variable('SCB_ALLOW_SPANNER') === '1',
  /** Tests only: a PEM file of roots the drivers trust for TLS targets instead of the system's. */
  testTlsRoots: () => variable('SCB_TEST_TLS_ROOTS'),
};
