// Access tokens of the fake's credentials mode: a cell's metadata server issues them and the fake
// checks them on every RPC without asking anyone: each carries its expiry and a MAC under the cell's
// secret. What the fake found is counted per verdict.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'ya29.scb';

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex').slice(0, 32);

export function newTokenSecret(): string {
  return randomBytes(24).toString('hex');
}

/** A token valid until `expiresAtMs` (epoch ms). */
export function issueToken(secret: string, expiresAtMs: number): string {
  const body = `${Math.round(expiresAtMs)}.${randomBytes(6).toString('hex')}`;
  return `${PREFIX}.${body}.${mac(secret, body)}`;
}

export type TokenVerdict = 'valid' | 'missing' | 'expired' | 'invalid';

/** What an RPC's `authorization` header carried, at `nowMs` (epoch ms). */
export function checkToken(secret: string, authorization: string | undefined, nowMs = Date.now()): TokenVerdict {
  if (!authorization) return 'missing';
  const m = /^Bearer ya29\.scb\.(\d+)\.([0-9a-f]+)\.([0-9a-f]{32})$/.exec(authorization);
  if (!m) return 'invalid';
  const expected = Buffer.from(mac(secret, `${m[1]}.${m[2]}`));
  if (!timingSafeEqual(expected, Buffer.from(m[3]!))) return 'invalid';
  return Number(m[1]) > nowMs ? 'valid' : 'expired';
}
