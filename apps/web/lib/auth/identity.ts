// Who is asking: an API token, a trusted auth proxy's header, a browser signed in through the
// operator's OpenID Connect provider, or, in local mode, this machine's own user.
import { findLiveToken } from '@scb/db';
import { db } from '../db';
import { webEnv } from '../env';
import { oidcUser } from './oidc';
import { PEER_HEADER } from './peer';

export interface Identity {
  /** What is stored as a job's or gate's author: a token's name, a user's e-mail, or "local". */
  name: string;
  kind: 'local' | 'token' | 'proxy' | 'oidc';
  /** May cancel anyone's job. */
  admin: boolean;
}

/** The identity of a request, null when it has none (or presents a token that is unknown or revoked). */
export async function identify(headers: Headers): Promise<Identity | null> {
  const env = webEnv();
  const auth = headers.get('authorization');
  if (auth !== null) {
    // A request that presents a token is judged by it alone: a bad token is no identity, even locally.
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    const token = m ? await findLiveToken(db(), m[1]!) : null;
    return token && { name: token.name, kind: 'token', admin: token.admin };
  }
  const proxied = proxyUser(headers);
  if (proxied) return { name: proxied, kind: 'proxy', admin: env.SCB_ADMINS.includes(proxied) };
  const user = await oidcUser();
  if (user) return { name: user, kind: 'oidc', admin: env.SCB_ADMINS.includes(user) };
  return env.mode === 'local' ? { name: 'local', kind: 'local', admin: true } : null;
}

/** The user a trusted auth proxy vouches for: its header counts only from the addresses the operator lists. */
function proxyUser(headers: Headers): string | null {
  const env = webEnv();
  if (!env.SCB_AUTH_PROXY_HEADER) return null;
  const value = headers.get(env.SCB_AUTH_PROXY_HEADER)?.trim();
  if (!value) return null;
  const peer = normalizeAddress(headers.get(PEER_HEADER) ?? '');
  if (!env.SCB_AUTH_PROXY_ADDRESSES.map(normalizeAddress).includes(peer)) return null;
  // IAP sends "accounts.google.com:user@example.com".
  const user = value.replace(/^accounts\.google\.com:/, '');
  return user.length <= 200 ? user : null;
}

/** "::ffff:127.0.0.1" and "127.0.0.1" are one address. */
function normalizeAddress(a: string): string {
  return a
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '');
}
