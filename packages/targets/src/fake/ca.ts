// A certificate authority made for one cell, and the fake's certificate for 127.0.0.1, localhost and
// the cell DNS server's name, signed by it: each driver trusts the CA the way its language does (the cell's TLS roots file).
import { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { DNS_NAME } from './dns';

x509.cryptoProvider.set(webcrypto as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface CellCa {
  /** The CA's certificate (PEM file): what the driver trusts. */
  caFile: string;
  /** The server's certificate chain and key (PEM), for the fake. */
  certChain: string;
  privateKey: string;
  remove(): void;
}

const pem = (label: string, der: ArrayBuffer) => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;

/** A CA valid for a day and a server certificate for 127.0.0.1, localhost and the name a cell's DNS server resolves; the files go in a fresh temporary folder. */
export async function makeCellCa(): Promise<CellCa> {
  const now = Date.now();
  const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 86_400_000) };
  const caKeys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=spanner-client-bench cell CA',
    ...validity,
    keys: caKeys,
    signingAlgorithm: ALG,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const serverKeys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=localhost',
    issuer: ca.subject,
    ...validity,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'dns', value: DNS_NAME },
        { type: 'ip', value: '127.0.0.1' },
      ]),
    ],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'scb-cell-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.toString('pem') + '\n');
  return {
    caFile,
    certChain: server.toString('pem') + '\n',
    privateKey: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
