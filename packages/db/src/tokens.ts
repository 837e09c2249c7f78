// API tokens for CI and scripts: a token is shown once when created; only its SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './client';

const PREFIX = 'scb_';
export const TOKEN_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface TokenRow {
  name: string;
  admin: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export class TokenError extends Error {}

/** A new token named `name`: the token itself is returned once and never stored. */
export async function createToken(db: Db, name: string, admin = false): Promise<string> {
  if (!TOKEN_NAME.test(name)) throw new TokenError(`"${name}" is not a token name: lower-case letters, digits, ".", "_" and "-", up to 63`);
  if (await db.apiToken.findUnique({ where: { name }, select: { id: true } })) throw new TokenError(`a token named "${name}" exists already (revoked ones keep their name)`);
  const token = PREFIX + randomBytes(32).toString('base64url');
  await db.apiToken.create({ data: { id: randomBytes(8).toString('hex'), name, hash: hashToken(token), admin } });
  return token;
}

export function listTokens(db: Db): Promise<TokenRow[]> {
  return db.apiToken.findMany({ orderBy: { createdAt: 'asc' }, select: { name: true, admin: true, createdAt: true, lastUsedAt: true, revokedAt: true } });
}

/** false when no live token has that name. */
export async function revokeToken(db: Db, name: string): Promise<boolean> {
  const r = await db.apiToken.updateMany({ where: { name, revokedAt: null }, data: { revokedAt: new Date() } });
  return r.count > 0;
}

/** The live token a bearer presents, or null (unknown or revoked). Its last use is recorded at most once a minute. */
export async function findLiveToken(db: Db, token: string): Promise<{ name: string; admin: boolean } | null> {
  if (!token.startsWith(PREFIX) || token.length > 200) return null;
  const row = await db.apiToken.findUnique({ where: { hash: hashToken(token) }, select: { id: true, name: true, admin: true, revokedAt: true, lastUsedAt: true } });
  if (!row || row.revokedAt) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  return { name: row.name, admin: row.admin };
}
