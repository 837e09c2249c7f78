// Where the Cloud Spanner emulator binary is: SCB_EMULATOR_BIN, PATH, or the Google Cloud SDK.
import { accessSync, constants, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { targetEnv } from '../env';

const NAMES = ['emulator_main', 'cloud_spanner_emulator'];
const SDK_ROOTS = [process.env.CLOUDSDK_ROOT_DIR, '/usr/lib/google-cloud-sdk', '/usr/share/google-cloud-sdk', '/opt/google-cloud-sdk', path.join(os.homedir(), 'google-cloud-sdk')];

export const INSTALL_EMULATOR =
  'install the Cloud Spanner emulator: `gcloud components install cloud-spanner-emulator`, or the Debian/apt package google-cloud-cli-spanner-emulator of the Cloud SDK, or run the docker image gcr.io/cloud-spanner-emulator/emulator and give target.emulatorHost; SCB_EMULATOR_BIN points the runner at a binary elsewhere';

const executable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The emulator binary, or null when none is installed where we look. */
export function findEmulatorBinary(): string | null {
  const given = targetEnv.emulatorBinary();
  if (given) return executable(given) ? given : null;
  const onPath = (process.env.PATH ?? '').split(path.delimiter).flatMap((dir) => NAMES.map((n) => path.join(dir, n)));
  const inSdk = SDK_ROOTS.filter((r): r is string => !!r).map((r) => path.join(r, 'bin', 'cloud_spanner_emulator', 'emulator_main'));
  return [...onPath, ...inSdk].find(executable) ?? null;
}

/** Why no emulator can start, in one sentence naming what was looked at. */
export function missingEmulatorMessage(): string {
  const given = targetEnv.emulatorBinary();
  return given ? `SCB_EMULATOR_BIN=${given} is not an executable file: ${INSTALL_EMULATOR}` : `no Cloud Spanner emulator found (emulator_main on PATH or in the Google Cloud SDK): ${INSTALL_EMULATOR}`;
}

/**
 * The emulator's version where the Cloud SDK installed it (the component's snapshot beside the SDK's
 * bin/); null for a binary from elsewhere, or none.
 */
export function emulatorVersion(binary = findEmulatorBinary()): string | null {
  if (!binary) return null;
  const sdk = path.dirname(path.dirname(path.dirname(binary)));
  try {
    const snapshot = JSON.parse(readFileSync(path.join(sdk, '.install', 'cloud-spanner-emulator.snapshot.json'), 'utf8')) as {
      components?: { id?: string; version?: { version_string?: string } }[];
    };
    return snapshot.components?.find((c) => c.id === 'cloud-spanner-emulator')?.version?.version_string ?? null;
  } catch {
    return null;
  }
}
