// Who wrote something, as stored on jobs, gates and watches and as listed in SCB_ADMINS. Each kind of
// identity has its own form, so that no display name, token name or proxy user can stand for another:
// - a signed-in person: their e-mail address, as the identity provider verified it (lower-case);
// - an API token: `token:<name>`;
// - a user vouched for by the operator's auth proxy: `proxy:<user>`;
// - local mode: `local` (this machine's own user).

export type IdentityKind = 'local' | 'token' | 'proxy' | 'person';

export const LOCAL_IDENTITY = 'local';

/** An e-mail address as an identity: no spaces, no colon (so it never reads as a typed name), one "@". */
const EMAIL = /^[^\s@:<>"(),;\\[\]]{1,64}@[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)+$/;

/** A proxy's user: printable, no control characters, bounded. */
const PROXY_USER = /^[\x21-\x7e]{1,200}$/;

export function tokenIdentity(tokenName: string): string {
  return `token:${tokenName}`;
}

/** The identity of an auth proxy's user, or null when the header's value cannot be one. */
export function proxyIdentity(user: string): string | null {
  return PROXY_USER.test(user) ? `proxy:${user}` : null;
}

/** A person's identity from an e-mail address, or null when it is not one. */
export function personIdentity(email: string): string | null {
  const e = email.trim().toLowerCase();
  return EMAIL.test(e) ? e : null;
}

/** The kind of a stored identity name. */
export function identityKind(name: string): IdentityKind {
  if (name === LOCAL_IDENTITY) return 'local';
  if (name.startsWith('token:')) return 'token';
  if (name.startsWith('proxy:')) return 'proxy';
  return 'person';
}

/** Why an SCB_ADMINS entry names no identity (null when it does): a bare name would match nothing. */
export function adminEntryIssue(entry: string): string | null {
  if (entry.startsWith('token:') && entry.length > 'token:'.length) return null;
  if (entry.startsWith('proxy:') && proxyIdentity(entry.slice('proxy:'.length))) return null;
  if (personIdentity(entry) === entry) return null;
  return `SCB_ADMINS: "${entry}" is not an identity: write a person's e-mail (alice@example.com, lower-case), token:<name> or proxy:<user>`;
}
