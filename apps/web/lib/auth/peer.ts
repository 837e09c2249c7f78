/**
 * The web app's own server (server.mjs) writes each request's TCP peer address (or `unix:<path>` for
 * the auth proxy's socket) under a header whose name it draws at random when it starts, after deleting
 * every header a client sent under that prefix: no client can guess or set it. It hands the name to the
 * app through this process's global object, not the environment, so nothing outside the process can
 * name it either. Without server.mjs (e.g. `next start`) there is no peer and no proxy user is
 * trusted; team mode refuses to start that way (instrumentation.ts).
 */
export const PEER_HEADER_PREFIX = 'x-scb-peer-';

/** Where server.mjs leaves the header's name. */
export const PEER_HEADER_GLOBAL = Symbol.for('scb.peerHeader');

/** The name server.mjs chose, or undefined when the app was not started through it. */
export function peerHeaderName(): string | undefined {
  const name = (globalThis as Record<symbol, unknown>)[PEER_HEADER_GLOBAL];
  return typeof name === 'string' && name.startsWith(PEER_HEADER_PREFIX) ? name : undefined;
}

/** The request's peer as server.mjs saw it, or null when the app was not started through server.mjs. */
export function peerAddress(headers: Headers): string | null {
  const name = peerHeaderName();
  return name ? headers.get(name) : null;
}
