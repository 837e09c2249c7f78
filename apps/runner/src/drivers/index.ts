import path from 'node:path';
import type { Client } from '@scb/shared';
import { ensureJavaClient } from '../clients/java-client';
import { ensureNodeClient } from '../clients/node-client';
import { DRIVERS_DIR } from '../paths';

/** How to start a driver process for one client version (installed and ready). */
export interface DriverLaunch {
  command: string;
  args: string[];
  /** Node: the folder holding that version's node_modules. */
  clientDir?: string;
}

/**
 * Installs the client version on first use (npm for Node, Maven + javac for Java) and says how to
 * start its driver. Throws ClientInstallError with a message for the user.
 */
export async function prepareDriver(client: Client, log: (line: string) => void): Promise<DriverLaunch> {
  if (client.language === 'java') {
    const java = await ensureJavaClient(client.version, log);
    return { command: java.command, args: java.args };
  }
  const clientDir = await ensureNodeClient(client.version, log);
  return { command: process.execPath, args: ['--import', 'tsx', path.join(DRIVERS_DIR, 'node-driver.ts')], clientDir };
}
