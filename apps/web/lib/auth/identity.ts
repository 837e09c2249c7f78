// Who is asking: an API token, a trusted auth proxy's header, a person signed in through the
// operator's OpenID Connect provider with a verified e-mail, or, in local mode, this machine's own
// user. Each kind has its own form of name (packages/shared identity), so none can stand for another.
import { findLiveToken } from '@scb/db';
import { type IdentityKind, LOCAL_IDENTITY, proxyIdentity, tokenIdentity } from '@scb/shared/identity';
import { db } from '../db';
import { webEnv } from '../env';
import { oidcPerson } from './oidc';
import { peerAddress } from './peer';

export interface Identity {
  /** What is stored as a job's, gate's or watch's author: `token:<name>`, `proxy:<user>`, a verified e-mail, or `local`. */
  name: string;
  kind: IdentityKind;
  /** May cancel anyone's job (an admin token, or listed in SCB_ADMINS). */
  admin: boolean;
}

/** The identity of a request, null when it has none (or presents a token that is unknown or revoked). */
export async function identify(headers: Headers): Promise<Identity | null> {
  const env = webEnv();
  const isAdmin = (name: string) => env.SCB_ADMINS.includes(name);
  const auth = headers.get('authorization');
  // (An auth proxy may pass its own Basic credentials on: only a Bearer token is ours.)
  if (auth !== null && /^Bearer\b/i.test(auth)) {
    // A request that presents a token is judged by it alone: a bad token is no identity, even locally.
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    const token = m ? await findLiveToken(db(), m[1]!) : null;
    if (!token) return null;
    const name = tokenIdentity(token.name);
    return { name, kind: 'token', admin: token.admin || isAdmin(name) };
  }
  const proxied = proxyUser(headers);
  if (proxied) return { name: proxied, kind: 'proxy', admin: isAdmin(proxied) };
  const person = await oidcPerson(headers);
  if (person) return { name: person, kind: 'person', admin: isAdmin(person) };
  return env.mode === 'local' ? { name: LOCAL_IDENTITY, kind: 'local', admin: true } : null;
}

/**
 * The user a trusted auth proxy vouches for: its header counts only on requests that came through the
 * proxy's own Unix socket (SCB_AUTH_PROXY_SOCKET) or from an address the operator lists.
 */
function proxyUser(headers: Headers): string | null {
  const env = webEnv();
  if (!env.SCB_AUTH_PROXY_HEADER) return null;
  const value = headers.get(env.SCB_AUTH_PROXY_HEADER)?.trim();
  if (!value) return null;
  const peer = peerAddress(headers);
  if (peer === null) return null;
  const trusted = peer.startsWith('unix:') || env.SCB_AUTH_PROXY_ADDRESSES.map(normalizeAddress).includes(normalizeAddress(peer));
  if (!trusted) return null;
  // IAP sends "accounts.google.com:user@example.com".
  return proxyIdentity(value.replace(/^accounts\.google\.com:/, ''));
}

/** "::ffff:127.0.0.1" and "127.0.0.1" are one address. */
function normalizeAddress(a: string): string {
  return a
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '');
}
