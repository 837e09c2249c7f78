import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCa {
  dir: string;
  /** The test CA's certificate (PEM file): what a client must trust. */
  caFile: string;
  /** A server certificate for localhost and 127.0.0.1 signed by the CA, and its key (PEM). */
  certChain: string;
  privateKey: string;
}

/** A throw-away CA and a localhost server certificate, made with openssl for one test run. */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(path.join(tmpdir(), 'scb-tls-'));
  const f = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=scb test CA',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', f('server.key'), '-out', f('server.csr'));
  writeFileSync(f('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', f('server.ext'), '-out', f('server.pem'));
  return { dir, caFile: f('ca.pem'), certChain: readFileSync(f('server.pem'), 'utf8'), privateKey: readFileSync(f('server.key'), 'utf8') };
}
