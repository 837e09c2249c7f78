import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface TestCredentials {
  /** A service-account key file, for GOOGLE_APPLICATION_CREDENTIALS. */
  file: string;
  /** Strings that must never leave the driver: the private key's body and the access token. */
  secrets: string[];
  /** Token requests the local token server answered (clients that sign their own JWT make none). */
  tokenRequests(): number;
  stop(): Promise<void>;
}

/**
 * Application Default Credentials that work offline: a service-account key made now, whose token_uri
 * is a token server on loopback. Clients either sign a JWT with the key or fetch a token there.
 */
export async function makeTestCredentials(dir: string): Promise<TestCredentials> {
  const token = `ya29.scb-test-${randomBytes(12).toString('hex')}`;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ access_token: token, expires_in: 3600, token_type: 'Bearer' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const file = path.join(dir, 'service-account.json');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'service_account',
      project_id: 'bench-project',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: pem,
      client_email: 'scb-test@bench-project.iam.gserviceaccount.com',
      client_id: '100000000000000000000',
      token_uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    }),
  );
  // The key's body without its armour and line breaks: any piece of it in output is a leak.
  const keyBody = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  return {
    file,
    secrets: [token, keyBody.slice(0, 64), keyBody.slice(-64)],
    tokenRequests: () => requests,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}
