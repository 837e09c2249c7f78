// The fake's credentials mode for one cell: a CA and the fake's certificate, a token secret, a GCE
// metadata server issuing tokens under it, and the driver environment that points the client's own
// credential code there and nowhere else (an empty home: no gcloud credentials of the runner's).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newTokenSecret } from '@scb/fake-spanner';
import { formatMs, type CellEvent, type FakeTarget } from '@scb/shared';

import { freePort } from '@scb/languages/local';
import type { CellCa } from './ca';
import { startMetadataServer, type MetadataServer } from './metadata';

export interface CellCredentials {
  ca: CellCa;
  tokenSecret: string;
  /** For the driver: GCE_METADATA_HOST and the rest. */
  environment: Record<string, string>;
  /** Token requests from `measureStart` (performance.now()) on, as timeline marks. */
  events(measureStart: number): CellEvent[];
  /** Why a cell that failed may have: the metadata server was unreachable or never gave a token; null when it did. */
  failureHint(): string | null;
  stop(): Promise<void>;
}

export async function startCredentials(c: NonNullable<FakeTarget['credentials']>, timeScale: number, projectId: string): Promise<CellCredentials> {
  // Loaded with the first cell that asks for credentials: @peculiar/x509 costs a runner's start 0.4 s of CPU.
  const { makeCellCa } = await import('./ca');
  const ca = await makeCellCa();
  const tokenSecret = newTokenSecret();
  let metadata: MetadataServer | null = null;
  const home = mkdtempSync(path.join(tmpdir(), 'scb-cell-home-'));
  try {
    metadata = c.unreachable
      ? null
      : await startMetadataServer(tokenSecret, { tokenLifetimeMs: c.tokenLifetimeMs * timeScale, tokenDelayMs: c.tokenDelayMs * timeScale, tokenFailures: c.tokenFailures, projectId });
    // Unreachable: a port that was free a moment ago, with nothing listening.
    const host = metadata?.host ?? `127.0.0.1:${await freePort()}`;
    mkdirSync(path.join(home, 'gcloud'));
    const environment = {
      GCE_METADATA_HOST: host,
      GCE_METADATA_IP: host,
      // Node's gcp-metadata: on a Google Cloud VM when the cell has a metadata server (no BIOS check, no
      // ping), else ask it (a ping, refused at once: not on Google Cloud, no token, every operation fails).
      // The ping times out after 3 s off Google Cloud, and the client then takes itself to be elsewhere for
      // the rest of its life: a driver starved for 3 s (an idle cgroup beside busy files) failed every
      // operation without a token. Assumed present but unreachable, the client retries each token request
      // for seconds: the unreachable cell took 43 s, not 1.
      METADATA_SERVER_DETECTION: metadata ? 'assume-present' : 'ping-only',
      HOME: home,
      CLOUDSDK_CONFIG: path.join(home, 'gcloud'),
    };
    return {
      ca,
      tokenSecret,
      environment,
      events: (measureStart) =>
        (metadata?.tokenRequests() ?? []).flatMap((r) =>
          r.at >= measureStart
            ? [{ atMs: r.at - measureStart, kind: 'schedule-change' as const, text: r.ok ? `token request answered in ${formatMs(r.answeredAt - r.at)} ms` : 'token request failed (HTTP 500)' }]
            : [],
        ),
      failureHint: () => {
        if (!metadata) return `the cell's GCE metadata server (GCE_METADATA_HOST=${host}) was unreachable (credentials.unreachable), so the client had no token`;
        const requests = metadata.tokenRequests();
        if (!requests.some((r) => r.ok)) return `the cell's GCE metadata server (GCE_METADATA_HOST=${host}) issued no token (${requests.length} request(s), none answered with one)`;
        return null;
      },
      async stop() {
        await metadata?.stop();
        ca.remove();
        rmSync(home, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await metadata?.stop();
    ca.remove();
    rmSync(home, { recursive: true, force: true });
    throw e;
  }
}
